// Merkle trees of airdrops and presale allowlists (lib/domains/merkle): one row per uploaded tree, its nodes in
// tiles (lib/domains/merkle/tiles.ts), its leaves by account, and leaves staged in chunks until published.
// No foreign keys: a million leaf rows would each pay a lookup, and trees are only ever deleted whole by
// the tree-deletion job.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE merkle_trees (
      id bigserial PRIMARY KEY,
      owner text NOT NULL,
      root bytea NOT NULL CHECK (length(root) = 32),
      leaf_count integer NOT NULL CHECK (leaf_count > 0),
      node_count integer NOT NULL,
      tile_height smallint NOT NULL,
      state text NOT NULL DEFAULT 'staged' CHECK (state IN ('staged', 'queued', 'current', 'retired')),
      created_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz
    );
    CREATE UNIQUE INDEX merkle_trees_current ON merkle_trees (owner) WHERE state = 'current';

    CREATE TABLE merkle_tiles (
      tree_id bigint NOT NULL,
      tile integer NOT NULL,
      nodes bytea NOT NULL,
      PRIMARY KEY (tree_id, tile)
    );
    -- Tiles are at most 4 KiB of hashes: incompressible, and read whole; keep them in the row.
    ALTER TABLE merkle_tiles ALTER COLUMN nodes SET STORAGE PLAIN;

    CREATE TABLE merkle_leaves (
      tree_id bigint NOT NULL,
      account bytea NOT NULL CHECK (length(account) = 20),
      tree_index integer NOT NULL,
      amount numeric(78,0) NOT NULL,
      PRIMARY KEY (tree_id, account, tree_index)
    );

    CREATE TABLE merkle_staged_leaves (
      tree_id bigint NOT NULL,
      chunk integer NOT NULL,
      accounts bytea NOT NULL,
      tree_indexes integer[] NOT NULL,
      amounts numeric(78,0)[] NOT NULL,
      PRIMARY KEY (tree_id, chunk)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE merkle_staged_leaves; DROP TABLE merkle_leaves; DROP TABLE merkle_tiles; DROP TABLE merkle_trees;`.execute(
    db,
  );
}
