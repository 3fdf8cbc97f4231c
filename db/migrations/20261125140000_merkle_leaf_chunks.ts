// A tree's leaves in chunks instead of a row each: a chunk holds the leaves of up to 32 consecutive accounts in
// (account, treeIndex) order, keyed by its first account, so an account's leaves are always in one chunk. A
// million leaves are ~31,000 small rows (each under the TOAST threshold, read whole) instead of a million rows
// whose writing alone took PostgreSQL over 3 s; a proof reads one chunk. Uploads write chunks straight away
// (the tree stays unpublished until its publish), so staged chunks are no longer needed: trees still staged
// keep their leaves, converted here with the published ones.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE merkle_leaf_chunks (
      tree_id bigint NOT NULL,
      first_account bytea NOT NULL,
      accounts bytea[] NOT NULL,
      tree_indexes integer[] NOT NULL,
      amounts numeric(78,0)[] NOT NULL,
      PRIMARY KEY (tree_id, first_account)
    );
    INSERT INTO merkle_leaves (tree_id, account, tree_index, amount)
      SELECT s.tree_id, u.account, u.tree_index, u.amount
      FROM merkle_staged_leaves s, unnest(s.accounts, s.tree_indexes, s.amounts) AS u(account, tree_index, amount)
      ON CONFLICT DO NOTHING;
    INSERT INTO merkle_leaf_chunks (tree_id, first_account, accounts, tree_indexes, amounts)
      SELECT tree_id, (array_agg(account ORDER BY account, tree_index))[1], array_agg(account ORDER BY account, tree_index),
        array_agg(tree_index ORDER BY account, tree_index), array_agg(amount ORDER BY account, tree_index)
      FROM (SELECT l.*, (dense_rank() OVER (PARTITION BY tree_id ORDER BY account) - 1) / 32 AS chunk FROM merkle_leaves l) x
      GROUP BY tree_id, chunk;
    DROP TABLE merkle_staged_leaves;
    DROP TABLE merkle_leaves;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
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
      accounts bytea[] NOT NULL,
      tree_indexes integer[] NOT NULL,
      amounts numeric(78,0)[] NOT NULL,
      PRIMARY KEY (tree_id, chunk)
    );
    ALTER TABLE merkle_staged_leaves ALTER COLUMN accounts SET STORAGE EXTERNAL;
    INSERT INTO merkle_leaves (tree_id, account, tree_index, amount)
      SELECT c.tree_id, u.account, u.tree_index, u.amount
      FROM merkle_leaf_chunks c, unnest(c.accounts, c.tree_indexes, c.amounts) AS u(account, tree_index, amount);
    DROP TABLE merkle_leaf_chunks;
  `.execute(db);
}
