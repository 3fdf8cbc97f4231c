// Writing an uploaded tree: a tree row (state staged), its tiles, and its leaves sorted by account (as
// rows, or as chunks the publish job expands). Nothing here is visible to readers: a tree becomes visible
// only when published (jobs.ts).
// Every statement is a bounded batch (a few MB), so none approaches the statement timeout.
import { db } from "@/db";
import { enqueue } from "@/lib/platform/jobs/define";
import { deleteTreeJob } from "./jobs";
import { bulk, insertLeafChunk, insertStagedChunk, insertTileBatch, insertTree } from "./queries";
import type { ByteRecords } from "./records";
import { buildTiles, TILE_HEIGHT } from "./tiles";
import type { ValidTree } from "./validate";

/** Leaves per insert statement, and per staged chunk (one row, expanded into leaf rows in one statement). */
export const LEAF_CHUNK = 10_000;
const TILES_PER_INSERT = 1_000;
/** A tree never published (abandoned upload, crashed save) is deleted after this long. */
const ABANDONED_AFTER_SECONDS = 6 * 3600;

function compareAccounts(accounts: ByteRecords, a: number, b: number): number {
  const blockA = accounts.block(a);
  const blockB = accounts.block(b);
  const atA = accounts.offset(a);
  const atB = accounts.offset(b);
  for (let k = 0; k < 20; k++) {
    const d = blockA[atA + k] - blockB[atB + k];
    if (d !== 0) return d;
  }
  return 0;
}

/** Value indexes ordered by (account, treeIndex): the leaf table's key, so its index grows at the end. */
function accountOrder(tree: ValidTree): Uint32Array {
  const { accounts, treeIndexes } = tree;
  const order = new Uint32Array(tree.leafCount);
  const head = new Uint32Array(tree.leafCount);
  for (let i = 0; i < tree.leafCount; i++) {
    order[i] = i;
    const block = accounts.block(i);
    const at = accounts.offset(i);
    head[i] = ((block[at] << 24) | (block[at + 1] << 16) | (block[at + 2] << 8) | block[at + 3]) >>> 0;
  }
  return order.sort(
    (a, b) => head[a] - head[b] || compareAccounts(accounts, a, b) || treeIndexes.get(a) - treeIndexes.get(b),
  );
}

async function insertTiles(treeId: number, tree: ValidTree): Promise<void> {
  const shape = { nodeCount: 2 * tree.leafCount - 1, tileHeight: TILE_HEIGHT };
  const read = (i: number, out: Uint8Array, at: number) => tree.nodes.copyTo(i, out, at);
  let batch: { tile: number; nodes: Uint8Array }[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const blob = Buffer.concat(batch.map((t) => t.nodes));
    const offsets: number[] = [];
    let at = 0;
    for (const t of batch) {
      offsets.push(at);
      at += t.nodes.length;
    }
    const tiles = batch.map((t) => t.tile);
    const lengths = batch.map((t) => t.nodes.length);
    await bulk((trx) => insertTileBatch(trx, treeId, { blob, tiles, offsets, lengths }));
    batch = [];
  };
  for (const tile of buildTiles(shape, read)) {
    batch.push(tile);
    if (batch.length === TILES_PER_INSERT) await flush();
  }
  await flush();
}

/**
 * Writes the leaves in (account, treeIndex) order, LEAF_CHUNK per statement: straight into the leaf table
 * (an upload published now), or as staged chunks that the publish job expands later (an enqueued upload:
 * the request then writes a few hundred rows instead of a million).
 */
async function insertLeaves(treeId: number, tree: ValidTree, staged: boolean): Promise<void> {
  const order = accountOrder(tree);
  for (let chunk = 0; chunk * LEAF_CHUNK < tree.leafCount; chunk++) {
    const members = order.subarray(chunk * LEAF_CHUNK, Math.min(tree.leafCount, (chunk + 1) * LEAF_CHUNK));
    const packed = Buffer.alloc(members.length * 20);
    const treeIndexes: number[] = [];
    const amounts: string[] = [];
    members.forEach((i, k) => {
      tree.accounts.copyTo(i, packed, k * 20);
      treeIndexes.push(tree.treeIndexes.get(i));
      amounts.push(tree.amounts[i]);
    });
    const leaves = { packed, treeIndexes, amounts };
    await bulk((trx) =>
      staged ? insertStagedChunk(trx, treeId, chunk, leaves) : insertLeafChunk(trx, treeId, leaves),
    );
  }
}

/**
 * Stores a validated tree for `owner` without publishing it; returns the new tree's id. A deletion job is
 * queued with it, so an upload that never gets published does not stay behind. Tiles and leaves are
 * written side by side (two connections on PostgreSQL).
 */
export async function stageTree(owner: string, tree: ValidTree, options: { stageLeaves: boolean }): Promise<number> {
  const treeId = await db()
    .transaction()
    .execute(async (trx) => {
      const id = await insertTree(trx, { owner, root: tree.root, leafCount: tree.leafCount, tileHeight: TILE_HEIGHT });
      await enqueue(deleteTreeJob, { treeId: id }, { trx, delaySeconds: ABANDONED_AFTER_SECONDS });
      return id;
    });
  await Promise.all([insertTiles(treeId, tree), insertLeaves(treeId, tree, options.stageLeaves)]);
  return treeId;
}
