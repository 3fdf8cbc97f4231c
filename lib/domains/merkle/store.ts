// Writing an uploaded tree: a tree row (state staged), its tiles, and its leaves in chunks. Nothing here is
// visible to readers: a tree becomes visible only when published (jobs.ts).
// Every statement is a bounded batch (a few MB), so none approaches the statement timeout.
import { db } from "@/db";
import { enqueue } from "@/lib/platform/jobs/define";
import { deleteTreeJob } from "./jobs";
import { chunkNumbers, leafOrder } from "./leaf-order";
import { bulk, insertLeafChunks, insertTileBatch, insertTree, type LeafBatch } from "./queries";
import { buildTiles, TILE_HEIGHT } from "./tiles";
import type { ValidTree } from "./validate";

/** Leaves per insert statement (whole chunks: a few more). */
const LEAVES_PER_STATEMENT = 10_000;
/** Leaf statements in flight at once (beside the tiles' one): PostgreSQL indexes them on as many cores. */
const LEAF_WRITERS = 2;
const TILES_PER_INSERT = 1_000;
/** A tree never published (abandoned upload, crashed save) is deleted after this long. */
const ABANDONED_AFTER_SECONDS = 6 * 3600;

async function insertTiles(treeId: number, tree: ValidTree): Promise<void> {
  const shape = { nodeCount: 2 * tree.leafCount - 1, tileHeight: TILE_HEIGHT };
  const read = (first: number, count: number, out: Uint8Array, at: number) =>
    tree.nodes.readRange(first, count, out, at);
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
 * Leaves order[from..to) as one statement's batch: their accounts packed, and each chunk's tree indexes and
 * amounts as array literals written from their bytes ({a,b};{c}...: no string per amount).
 */
function leafBatch(tree: ValidTree, order: Uint32Array, chunks: Int32Array, from: number, to: number): LeafBatch {
  const { accounts, treeIndexes, amounts } = tree;
  const packed = Buffer.alloc((to - from) * 20);
  const indexes = new Int32Array(to - from);
  const starts: number[] = [];
  // At most 78 digits and a comma per amount, and "};{" per chunk.
  const literals = Buffer.alloc((to - from) * 82 + 2);
  let at = 0;
  for (let k = from; k < to; k++) {
    const i = order[k];
    accounts.copyTo(i, packed, (k - from) * 20);
    indexes[k - from] = treeIndexes.get(i);
    if (k === from || chunks[k] !== chunks[k - 1]) {
      if (k > from) {
        literals[at++] = 0x7d; // }
        literals[at++] = 0x3b; // ;
      }
      literals[at++] = 0x7b; // {
      starts.push(k - from);
    } else literals[at++] = 0x2c; // ,
    at = amounts.copyTo(i, literals, at);
  }
  literals[at++] = 0x7d; // }
  const ends = [...starts.slice(1), to - from];
  return {
    packed,
    starts: Int32Array.from(starts),
    counts: Int32Array.from(starts, (start, c) => ends[c] - start),
    treeIndexes: starts.map((start, c) => `{${indexes.subarray(start, ends[c]).join(",")}}`).join(";"),
    amounts: literals.toString("latin1", 0, at),
  };
}

/**
 * Writes the leaves as chunks (leaf-order.ts), about LEAVES_PER_STATEMENT leaves per statement (whole chunks),
 * LEAF_WRITERS statements at a time.
 */
async function insertLeaves(treeId: number, tree: ValidTree): Promise<void> {
  const { accounts, treeIndexes, leafCount } = tree;
  const order = leafOrder(accounts, treeIndexes, leafCount);
  const chunks = chunkNumbers(leafCount, (k) =>
    accounts.equals(order[k], accounts.block(order[k - 1]), accounts.offset(order[k - 1])),
  );
  // Statement boundaries, at chunk boundaries.
  const starts = [0];
  for (let k = LEAVES_PER_STATEMENT; k < leafCount; k++) {
    if (k - starts.at(-1)! >= LEAVES_PER_STATEMENT && chunks[k] !== chunks[k - 1]) starts.push(k);
  }
  let next = 0;
  const writer = async () => {
    for (let s = next++; s < starts.length; s = next++) {
      const batch = leafBatch(tree, order, chunks, starts[s], starts[s + 1] ?? leafCount);
      await bulk((trx) => insertLeafChunks(trx, treeId, batch));
    }
  };
  await Promise.all(Array.from({ length: Math.min(LEAF_WRITERS, starts.length) }, writer));
}

/**
 * Stores a validated tree for `owner` without publishing it; returns the new tree's id. A deletion job is
 * queued with it, so an upload that never gets published does not stay behind. Tiles and leaves are
 * written side by side (three connections on PostgreSQL).
 */
export async function stageTree(owner: string, tree: ValidTree): Promise<number> {
  const treeId = await db()
    .transaction()
    .execute(async (trx) => {
      const id = await insertTree(trx, { owner, root: tree.root, leafCount: tree.leafCount, tileHeight: TILE_HEIGHT });
      await enqueue(deleteTreeJob, { treeId: id }, { trx, delaySeconds: ABANDONED_AFTER_SECONDS });
      return id;
    });
  await Promise.all([insertTiles(treeId, tree), insertLeaves(treeId, tree)]);
  return treeId;
}
