// Statements on the tree store: merkle_trees, merkle_tiles, merkle_leaf_chunks.
// A proof is one statement (accountProofTilesSql); each writer of a tree sends its statements through bulk().
import { sql, type Transaction } from "kysely";
import { db, type Database } from "@/db";
import { arrayLiteral } from "@/db/array-literal";
import { config } from "@/lib/core/config";
import type { MerkleTreeState } from "@/db/tables/airdrops";
import type { DB } from "@/db/types";

/** At most this many leaves of one account are answered (claims, proofs); largest amounts first. */
export const MAX_LEAVES_PER_ACCOUNT = 100;

const BULK_STATEMENT_TIMEOUT_MS = 60_000;

export type TreeRow = { id: number; root: Uint8Array; leaf_count: number; node_count: number; tile_height: number };

/** An account as the leaf table keys it: its 20 bytes. */
export const accountBytes = (account: string) => Buffer.from(account.slice(2), "hex");

/** Sends a writer's next statement; false when it has none left. */
export type BulkStep = (trx: Transaction<DB>) => Promise<boolean>;

/**
 * Runs one writer's bulk statements (each a few MB of tiles or leaves, or a batch of a tree's rows to delete), step
 * after step until one answers false, with a longer statement timeout than the service's default
 * (STATEMENT_TIMEOUT_MS is sized for reads): on a loaded database a batch can take seconds, and a timeout would fail a
 * whole upload. On PostgreSQL the writer's statements share one transaction: each commit waits for the server to
 * flush its WAL, and a million leaves are a hundred statements. On the embedded database, whose one session a
 * transaction holds until it ends, each statement is a transaction of its own, so that other requests get their turn
 * between them.
 */
export async function bulk(write: BulkStep): Promise<void> {
  const perTransaction = config().embedded ? 1 : Number.POSITIVE_INFINITY;
  for (let more = true; more; ) {
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`SET LOCAL statement_timeout = ${sql.raw(String(BULK_STATEMENT_TIMEOUT_MS))}`.execute(trx);
        for (let sent = 0; more && sent < perTransaction; sent++) more = await write(trx);
      });
  }
}

// --- Tree rows -------------------------------------------------------------------------------------

/** The owner's current tree row. */
export function findCurrentTree(db: Database, owner: string): Promise<TreeRow | undefined> {
  return db
    .selectFrom("merkle_trees")
    .select(["id", "root", "leaf_count", "node_count", "tile_height"])
    .where("owner", "=", owner)
    .where("state", "=", "current")
    .executeTakeFirst();
}

/** A tree of the owner a page cursor may still read: current, or retired and not yet deleted. */
export function findReadableTree(db: Database, owner: string, treeId: number): Promise<TreeRow | undefined> {
  return db
    .selectFrom("merkle_trees")
    .select(["id", "root", "leaf_count", "node_count", "tile_height"])
    .where("id", "=", treeId)
    .where("owner", "=", owner)
    .where("state", "in", ["current", "retired"])
    .executeTakeFirst();
}

/** A new tree row (state staged, unpublished); returns its id. */
export async function insertTree(
  db: Database,
  tree: { owner: string; root: Uint8Array; leafCount: number; tileHeight: number },
): Promise<number> {
  const { id } = await db
    .insertInto("merkle_trees")
    .values({
      owner: tree.owner,
      root: Buffer.from(tree.root),
      leaf_count: tree.leafCount,
      node_count: 2 * tree.leafCount - 1,
      tile_height: tree.tileHeight,
      published_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

/** The tree row's owner and state, locked FOR UPDATE. */
export function lockTree(
  trx: Transaction<DB>,
  treeId: number,
): Promise<{ owner: string; state: MerkleTreeState } | undefined> {
  return trx
    .selectFrom("merkle_trees")
    .select(["owner", "state"])
    .where("id", "=", treeId)
    .forUpdate()
    .executeTakeFirst();
}

/** Serializes the publishing of one owner's trees (a transaction lock). */
export async function lockOwnerTrees(trx: Transaction<DB>, owner: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${owner}))`.execute(trx);
}

/** The owner's current tree id, locked FOR UPDATE. */
export function lockCurrentTree(trx: Transaction<DB>, owner: string): Promise<{ id: number } | undefined> {
  return trx
    .selectFrom("merkle_trees")
    .select("id")
    .where("owner", "=", owner)
    .where("state", "=", "current")
    .forUpdate()
    .executeTakeFirst();
}

export async function markTreeRetired(db: Database, treeId: number): Promise<void> {
  await db.updateTable("merkle_trees").set({ state: "retired" }).where("id", "=", treeId).execute();
}

export async function markTreeCurrent(db: Database, treeId: number): Promise<void> {
  await db
    .updateTable("merkle_trees")
    .set({ state: "current", published_at: new Date() })
    .where("id", "=", treeId)
    .execute();
}

/** A staged tree becomes queued (its publish job is enqueued); other states are left alone. */
export async function markTreeQueued(db: Database, treeId: number): Promise<void> {
  await db
    .updateTable("merkle_trees")
    .set({ state: "queued" })
    .where("id", "=", treeId)
    .where("state", "=", "staged")
    .execute();
}

export async function deleteTreeRow(db: Database, treeId: number): Promise<void> {
  await db.deleteFrom("merkle_trees").where("id", "=", treeId).execute();
}

/** The tables holding a tree's data, in the order a deletion empties them. */
export const TREE_DATA_TABLES = ["merkle_tiles", "merkle_leaf_chunks"] as const;

/** Deletes up to `limit` rows of the tree's tiles or leaf chunks; returns how many it deleted. */
export async function deleteTreeDataBatch(
  db: Database,
  table: (typeof TREE_DATA_TABLES)[number],
  treeId: number,
  limit: number,
): Promise<number> {
  const result = await sql`
          DELETE FROM ${sql.table(table)} WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM ${sql.table(table)} WHERE tree_id = ${treeId} LIMIT ${limit}))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

// --- Tiles and leaves ------------------------------------------------------------------------------

type AccountLeafRow = TreeRow & { tree_index: number | null; amount: string | null };

/**
 * The owner's current tree joined with the account's leaves in it, at most `limit`, largest amount first, from the
 * one chunk that can hold them (the last starting at or before the account): one row with NULL leaf columns when
 * the account has none, no row when the owner has no current tree.
 */
const accountLeavesIn = (owner: string, account: string, limit: number) => {
  const key = accountBytes(account);
  return sql<AccountLeafRow>`
  SELECT t.id, t.root, t.leaf_count, t.node_count, t.tile_height, l.tree_index, l.amount
  FROM merkle_trees t
  LEFT JOIN LATERAL (
    SELECT c.tree_indexes[p] AS tree_index, c.amounts[p] AS amount
    FROM (SELECT accounts, tree_indexes, amounts FROM merkle_leaf_chunks
          WHERE tree_id = t.id AND first_account <= ${key} ORDER BY first_account DESC LIMIT 1) c,
      unnest(array_positions(c.accounts, ${key}::bytea)) AS p
  ) l ON true
  WHERE t.owner = ${owner} AND t.state = 'current'
  ORDER BY l.amount DESC, l.tree_index
  LIMIT ${limit}`;
};

/** The statement of findAccountLeaves (the leaves without their proofs: amounts). */
export const accountLeavesSql = (owner: string, account: string) =>
  accountLeavesIn(owner, account, MAX_LEAVES_PER_ACCOUNT);

/**
 * The statement of findAccountProofTiles (exported for the benchmark's database floor): the account's first
 * `limit` leaves as accountLeavesSql reads them, each joined with the tiles its proof reads, a row per tile (bytea
 * columns, which the driver decodes natively; an array of them would be parsed character by character). Those are
 * the tiles rooted on the leaf's path (tiles.ts: a proof's siblings hang off the path, and every tile rooted on it
 * holds some of them), so the statement lists the leaf's ancestors, ((i + 1) >> s) - 1, and reads whichever of
 * them root a tile: a proof in one round trip instead of two (leaves, then tiles). A leaf's rows are adjacent.
 * Each ancestor's tile is a subquery on the whole primary key, one index probe, a plan no statistics can talk the
 * planner out of: with statistics from before a big upload, a join (`tile = ANY (ARRAY(...))`, or with the
 * ancestors) was priced past jit_above_cost (20 ms of JIT per proof) or run as a scan of the tree's 16,000 tiles.
 * OFFSET 0 keeps the subquery whole, so each probe runs once (pulled up, the filter would probe a second time).
 */
export const accountProofTilesSql = (owner: string, account: string, limit: number) =>
  sql<AccountLeafRow & { tile: number | null; nodes: Uint8Array | null }>`
  SELECT k.*, p.tile, p.nodes
  FROM (${accountLeavesIn(owner, account, limit)}) k
  LEFT JOIN LATERAL (
    SELECT a.tile, a.nodes FROM (
      SELECT ((k.tree_index + 1) >> s) - 1 AS tile,
        (SELECT mt.nodes FROM merkle_tiles mt WHERE mt.tree_id = k.id AND mt.tile = ((k.tree_index + 1) >> s) - 1) AS nodes
      FROM generate_series(1, 31) AS s WHERE ((k.tree_index + 1) >> s) > 0 OFFSET 0) a
    WHERE a.nodes IS NOT NULL
  ) p ON k.tree_index IS NOT NULL
  ORDER BY k.amount DESC, k.tree_index`;

/** The owner's current tree joined with the account's leaves in it: no rows when the owner has no current tree. */
export async function findAccountLeaves(db: Database, owner: string, account: string) {
  const { rows } = await accountLeavesSql(owner, account).execute(db);
  return rows;
}

export async function findAccountProofTiles(db: Database, owner: string, account: string, limit: number) {
  const { rows } = await accountProofTilesSql(owner, account, limit).execute(db);
  return rows;
}

/**
 * Up to `limit` leaves of the tree in (account, treeIndex) order, after `after` when given: the chunks in key
 * order from the one holding `after`, each chunk's leaves in their stored order.
 */
export async function findLeafPage(
  db: Database,
  treeId: number,
  after: { account: string; treeIndex: number } | null,
  limit: number,
) {
  const key = after && accountBytes(after.account);
  const afterKey = after
    ? sql`AND c.first_account >= coalesce((SELECT first_account FROM merkle_leaf_chunks
          WHERE tree_id = ${treeId} AND first_account <= ${key} ORDER BY first_account DESC LIMIT 1), ''::bytea)
        AND (u.account, u.tree_index) > (${key}, ${after.treeIndex})`
    : sql``;
  const { rows } = await sql<{ account: Uint8Array; tree_index: number; amount: string }>`
    SELECT u.account, u.tree_index, u.amount
    FROM merkle_leaf_chunks c,
      unnest(c.accounts, c.tree_indexes, c.amounts) WITH ORDINALITY AS u(account, tree_index, amount, ord)
    WHERE c.tree_id = ${treeId} ${afterKey}
    ORDER BY c.first_account, u.ord
    LIMIT ${limit}`.execute(db);
  return rows;
}

/** Tiles as one blob cut at `offsets` (byte offsets) into pieces of `lengths` bytes: one statement. */
export async function insertTileBatch(
  db: Database,
  treeId: number,
  batch: { blob: Buffer; tiles: number[]; offsets: number[]; lengths: number[] },
): Promise<void> {
  const { blob, tiles, offsets, lengths } = batch;
  await sql`
        INSERT INTO merkle_tiles (tree_id, tile, nodes)
        SELECT ${treeId}, u.tile, substring(${blob}::bytea FROM u.at + 1 FOR u.length)
        FROM unnest(${tiles}::int[], ${offsets}::int[], ${lengths}::int[]) AS u(tile, at, length)
      `.execute(db);
}

/**
 * Leaves in (account, treeIndex) order, cut into chunks: `packed` holds their accounts, 20 bytes each; chunk c is
 * the `counts[c]` leaves from `starts[c]` on, and its tree indexes and amounts (canonical decimal text) are the c-th
 * of the array literals in `treeIndexes` and `amounts`, separated by ";".
 */
export type LeafBatch = {
  packed: Buffer;
  starts: Int32Array;
  counts: Int32Array;
  /** The chunks' tree-index literals as text bytes (sent as a text parameter, no JS string made of it). */
  treeIndexes: Uint8Array;
  /** The chunks' amount literals, likewise. */
  amounts: Uint8Array;
};

/**
 * The batch's chunks as rows, in one statement. Each chunk's arrays arrive as its own literals: PostgreSQL parses
 * them straight into the row, half the work of unnesting the leaves and aggregating them back into chunks.
 */
export async function insertLeafChunks(db: Database, treeId: number, batch: LeafBatch): Promise<void> {
  await sql`
    INSERT INTO merkle_leaf_chunks (tree_id, first_account, accounts, tree_indexes, amounts)
    SELECT ${treeId}, substring(p.packed FROM c.at * 20 + 1 FOR 20),
      ARRAY(SELECT substring(p.packed FROM g * 20 + 1 FOR 20) FROM generate_series(c.at, c.at + c.n - 1) AS g),
      c.tree_indexes::int[], c.amounts::numeric(78,0)[]
    FROM (SELECT ${batch.packed}::bytea AS packed) p,
      ROWS FROM (unnest(${arrayLiteral(batch.starts)}::int[]), unnest(${arrayLiteral(batch.counts)}::int[]),
        string_to_table(${batch.treeIndexes}::text, ';'), string_to_table(${batch.amounts}::text, ';')) AS c(at, n, tree_indexes, amounts)`.execute(
    db,
  );
}

/** The sum of a tree's amounts (wei, decimal text): one aggregate over its leaves. */
export async function sumTreeAmounts(db: Database, treeId: number): Promise<string> {
  const { rows } = await sql<{ total: string }>`
    SELECT coalesce(sum(a), 0)::text AS total FROM merkle_leaf_chunks c, unnest(c.amounts) AS a
    WHERE c.tree_id = ${treeId}`.execute(db);
  return rows[0].total;
}
