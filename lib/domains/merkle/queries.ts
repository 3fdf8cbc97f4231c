// Statements on the tree store: merkle_trees, merkle_tiles, merkle_leaves, merkle_staged_leaves.
// The proof path is two statements (accountLeavesSql, tilesSql); bulk writes run in bulk() transactions.
import { sql, type Transaction } from "kysely";
import { db, type Database } from "@/db";
import type { MerkleTreeState } from "@/db/tables/airdrops";
import type { DB } from "@/db/types";

/** At most this many leaves of one account are answered (claims, proofs); largest amounts first. */
export const MAX_LEAVES_PER_ACCOUNT = 100;

const BULK_STATEMENT_TIMEOUT_MS = 60_000;

export type TreeRow = { id: number; root: Uint8Array; leaf_count: number; node_count: number; tile_height: number };

/** An account as the leaf table keys it: its 20 bytes. */
export const accountBytes = (account: string) => Buffer.from(account.slice(2), "hex");

/**
 * Runs one bulk statement (a few MB of tiles or leaves) in its own transaction with a longer statement
 * timeout than the service's default (STATEMENT_TIMEOUT_MS is sized for reads): on a loaded database a
 * batch can take seconds, and a timeout would fail a whole upload.
 */
export async function bulk<T>(write: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db()
    .transaction()
    .execute(async (trx) => {
      await sql`SET LOCAL statement_timeout = ${sql.raw(String(BULK_STATEMENT_TIMEOUT_MS))}`.execute(trx);
      return write(trx);
    });
}

// --- Tree rows -------------------------------------------------------------------------------------

/** The owner's current tree row. */
export function findCurrentTree(executor: Database, owner: string): Promise<TreeRow | undefined> {
  return executor
    .selectFrom("merkle_trees")
    .select(["id", "root", "leaf_count", "node_count", "tile_height"])
    .where("owner", "=", owner)
    .where("state", "=", "current")
    .executeTakeFirst();
}

/** A tree of the owner a page cursor may still read: current, or retired and not yet deleted. */
export function findReadableTree(executor: Database, owner: string, treeId: number): Promise<TreeRow | undefined> {
  return executor
    .selectFrom("merkle_trees")
    .select(["id", "root", "leaf_count", "node_count", "tile_height"])
    .where("id", "=", treeId)
    .where("owner", "=", owner)
    .where("state", "in", ["current", "retired"])
    .executeTakeFirst();
}

/** A new tree row (state staged, unpublished); returns its id. */
export async function insertTree(
  executor: Database,
  tree: { owner: string; root: Uint8Array; leafCount: number; tileHeight: number },
): Promise<number> {
  const { id } = await executor
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

/** Whether the tree row exists, holding it FOR SHARE: a concurrent deletion (FOR UPDATE) waits, or has already removed it. */
export async function shareLockTree(trx: Transaction<DB>, treeId: number): Promise<boolean> {
  const tree = await sql`SELECT id FROM merkle_trees WHERE id = ${treeId} FOR SHARE`.execute(trx);
  return tree.rows.length > 0;
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

export async function markTreeRetired(executor: Database, treeId: number): Promise<void> {
  await executor.updateTable("merkle_trees").set({ state: "retired" }).where("id", "=", treeId).execute();
}

export async function markTreeCurrent(executor: Database, treeId: number): Promise<void> {
  await executor
    .updateTable("merkle_trees")
    .set({ state: "current", published_at: new Date() })
    .where("id", "=", treeId)
    .execute();
}

/** A staged tree becomes queued (its publish job is enqueued); other states are left alone. */
export async function markTreeQueued(executor: Database, treeId: number): Promise<void> {
  await executor
    .updateTable("merkle_trees")
    .set({ state: "queued" })
    .where("id", "=", treeId)
    .where("state", "=", "staged")
    .execute();
}

export async function deleteTreeRow(executor: Database, treeId: number): Promise<void> {
  await executor.deleteFrom("merkle_trees").where("id", "=", treeId).execute();
}

/** The tables holding a tree's data, in the order a deletion empties them. */
export const TREE_DATA_TABLES = ["merkle_tiles", "merkle_staged_leaves", "merkle_leaves"] as const;

/** Deletes up to `limit` rows of the tree's tiles, staged chunks or leaves; returns how many it deleted. */
export async function deleteTreeDataBatch(
  executor: Database,
  table: (typeof TREE_DATA_TABLES)[number],
  treeId: number,
  limit: number,
): Promise<number> {
  const result = await sql`
          DELETE FROM ${sql.table(table)} WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM ${sql.table(table)} WHERE tree_id = ${treeId} LIMIT ${limit}))`.execute(executor);
  return Number(result.numAffectedRows ?? 0);
}

// --- Tiles and leaves ------------------------------------------------------------------------------

/** The statement of accountLeaves (exported for the benchmark's database floor). */
export const accountLeavesSql = (owner: string, account: string) => sql<
  TreeRow & { tree_index: number | null; amount: string | null }
>`
  SELECT t.id, t.root, t.leaf_count, t.node_count, t.tile_height, l.tree_index, l.amount
  FROM merkle_trees t
  LEFT JOIN merkle_leaves l ON l.tree_id = t.id AND l.account = ${accountBytes(account)}
  WHERE t.owner = ${owner} AND t.state = 'current'
  ORDER BY l.amount DESC, l.tree_index
  LIMIT ${MAX_LEAVES_PER_ACCOUNT}`;

/** The statement of proofsFor (exported for the benchmark's database floor). */
export const tilesSql = (treeId: number, tiles: number[]) =>
  sql<{
    tile: number;
    nodes: Uint8Array;
  }>`SELECT tile, nodes FROM merkle_tiles WHERE tree_id = ${treeId} AND tile = ANY(${tiles}::int[])`;

/** The owner's current tree joined with the account's leaves in it: no rows when the owner has no current tree. */
export async function findAccountLeaves(executor: Database, owner: string, account: string) {
  const { rows } = await accountLeavesSql(owner, account).execute(executor);
  return rows;
}

export async function findTiles(executor: Database, treeId: number, tiles: number[]) {
  const { rows } = await tilesSql(treeId, tiles).execute(executor);
  return rows;
}

/** Up to `limit` leaves of the tree in (account, treeIndex) order, after `after` when given. */
export async function findLeafPage(
  executor: Database,
  treeId: number,
  after: { account: string; treeIndex: number } | null,
  limit: number,
) {
  const afterKey = after
    ? sql`AND (account, tree_index) > (${accountBytes(after.account)}, ${after.treeIndex})`
    : sql``;
  const { rows } = await sql<{ account: Uint8Array; tree_index: number; amount: string }>`
    SELECT account, tree_index, amount FROM merkle_leaves
    WHERE tree_id = ${treeId} ${afterKey}
    ORDER BY account, tree_index
    LIMIT ${limit}`.execute(executor);
  return rows;
}

/** Tiles as one blob cut at `offsets` (byte offsets) into pieces of `lengths` bytes: one statement. */
export async function insertTileBatch(
  executor: Database,
  treeId: number,
  batch: { blob: Buffer; tiles: number[]; offsets: number[]; lengths: number[] },
): Promise<void> {
  const { blob, tiles, offsets, lengths } = batch;
  await sql`
        INSERT INTO merkle_tiles (tree_id, tile, nodes)
        SELECT ${treeId}, u.tile, substring(${blob}::bytea FROM u.at + 1 FOR u.length)
        FROM unnest(${tiles}::int[], ${offsets}::int[], ${lengths}::int[]) AS u(tile, at, length)
      `.execute(executor);
}

/** A chunk of leaves: `packed` holds their accounts, 20 bytes each, in the order of `treeIndexes` and `amounts`. */
export type LeafChunk = { packed: Buffer; treeIndexes: number[]; amounts: string[] };

const packedAccounts = (chunk: LeafChunk) =>
  sql`ARRAY(SELECT substring(${chunk.packed}::bytea FROM g * 20 + 1 FOR 20) FROM generate_series(0, ${chunk.treeIndexes.length - 1}) AS g)`;

/** The chunk as leaf rows, in one statement. */
export async function insertLeafChunk(executor: Database, treeId: number, chunk: LeafChunk): Promise<void> {
  await sql`
            INSERT INTO merkle_leaves (tree_id, account, tree_index, amount)
            SELECT ${treeId}, u.account, u.tree_index, u.amount
            FROM unnest(${packedAccounts(chunk)}, ${chunk.treeIndexes}::int[], ${chunk.amounts}::numeric[]) AS u(account, tree_index, amount)`.execute(
    executor,
  );
}

/** The chunk as one staged row (number `index`), which expandStagedChunk later turns into leaf rows. */
export async function insertStagedChunk(
  executor: Database,
  treeId: number,
  index: number,
  chunk: LeafChunk,
): Promise<void> {
  await sql`
            INSERT INTO merkle_staged_leaves (tree_id, chunk, accounts, tree_indexes, amounts)
            VALUES (${treeId}, ${index}, ${packedAccounts(chunk)}, ${chunk.treeIndexes}::int[], ${chunk.amounts}::numeric[])`.execute(
    executor,
  );
}

/** The tree's lowest staged chunk number, or undefined when none is left. */
export async function firstStagedChunk(executor: Database, treeId: number): Promise<number | undefined> {
  const next = await sql<{ chunk: number }>`
        SELECT chunk FROM merkle_staged_leaves WHERE tree_id = ${treeId} ORDER BY chunk LIMIT 1`.execute(executor);
  return next.rows[0]?.chunk;
}

/** Turns a staged chunk into leaf rows and deletes it (run both in one transaction). */
export async function expandStagedChunk(executor: Database, treeId: number, chunk: number): Promise<void> {
  await sql`
        INSERT INTO merkle_leaves (tree_id, account, tree_index, amount)
        SELECT s.tree_id, u.account, u.tree_index, u.amount
        FROM merkle_staged_leaves s, unnest(s.accounts, s.tree_indexes, s.amounts) AS u(account, tree_index, amount)
        WHERE s.tree_id = ${treeId} AND s.chunk = ${chunk}`.execute(executor);
  await sql`DELETE FROM merkle_staged_leaves WHERE tree_id = ${treeId} AND chunk = ${chunk}`.execute(executor);
}

/** The sum of a tree's amounts (wei, decimal text): one aggregate over its leaves. */
export async function sumTreeAmounts(executor: Database, treeId: number): Promise<string> {
  const row = await executor
    .selectFrom("merkle_leaves")
    .select(sql<string>`coalesce(sum(amount), 0)::text`.as("total"))
    .where("tree_id", "=", treeId)
    .executeTakeFirstOrThrow();
  return row.total;
}
