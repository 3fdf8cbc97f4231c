// Writing an uploaded tree: a tree row (state staged), its tiles, and its leaves in chunks. Nothing here is
// visible to readers: a tree becomes visible only when published (jobs.ts).
// Every statement is a bounded batch (a few MB), so none approaches the statement timeout.
import { db } from "@/db";
import { log } from "@/lib/core/log";
import { enqueue, withdrawJob } from "@/lib/platform/jobs/define";
import { deleteTree, deleteTreeJob } from "./jobs";
import { chunkNumbers, leafOrder } from "./leaf-order";
import { bulk, type BulkStep, insertLeafChunks, insertTileBatch, insertTree, type LeafBatch } from "./queries";
import type { ByteRecords } from "./records";
import { buildTiles, TILE_HEIGHT, tileBytes } from "./tiles";
import type { ValidTree } from "./validate";

/** Leaves per insert statement (whole chunks: a few more). */
const LEAVES_PER_STATEMENT = 10_000;
/** Leaf statements in flight at once (beside the tiles' one): PostgreSQL indexes them on as many cores. */
const LEAF_WRITERS = 2;
const TILES_PER_INSERT = 1_000;
/** A tree never published (abandoned upload, crashed save) is deleted after this long. */
const ABANDONED_AFTER_SECONDS = 6 * 3600;

/**
 * Bytes a leaf writer reuses from one statement to the next (a statement is done with them before the next one is
 * laid out): a million-leaf tree is 100 statements of about 1 MB each, otherwise allocated and collected each time.
 */
class Scratch {
  private buffer = Buffer.allocUnsafe(0);

  /** At least `size` bytes (their content is whatever was left there). */
  take(size: number): Buffer {
    if (this.buffer.length < size) this.buffer = Buffer.allocUnsafe(size);
    return this.buffer;
  }
}

/**
 * Shared by the writers of one tree: once one of them fails, or the upload is abandoned, the others stop after the
 * statement they are running instead of writing the rest of a tree that is about to be deleted.
 */
class Halt {
  halted = false;

  /** Runs a writer, or one of its statements; its failure halts the others. */
  async guard<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      this.halted = true;
      throw error;
    }
  }

  /**
   * A writer's step for bulk(), run only while nothing has halted. A failed statement halts the others at once:
   * not after its transaction is rolled back, by when the writer beside it may have gone on to its next statement.
   */
  step(write: BulkStep): BulkStep {
    return async (trx) => !this.halted && this.guard(write(trx));
  }
}

type TileBatch = { used: number; tiles: number[]; offsets: number[]; lengths: number[] };

/**
 * The tree's tiles in batches of TILES_PER_INSERT, each laid out from the start of `blob`: a batch must be written
 * before the next one is asked for.
 */
function* tileBatches(nodes: ByteRecords, nodeCount: number, blob: Buffer): Generator<TileBatch> {
  const read = (first: number, count: number, out: Uint8Array, at: number) => nodes.readRange(first, count, out, at);
  let batch: TileBatch = { used: 0, tiles: [], offsets: [], lengths: [] };
  for (const { tile, nodes: bytes } of buildTiles({ nodeCount, tileHeight: TILE_HEIGHT }, read)) {
    blob.set(bytes, batch.used);
    batch.tiles.push(tile);
    batch.offsets.push(batch.used);
    batch.lengths.push(bytes.length);
    batch.used += bytes.length;
    if (batch.tiles.length === TILES_PER_INSERT) {
      yield batch;
      batch = { used: 0, tiles: [], offsets: [], lengths: [] };
    }
  }
  if (batch.tiles.length) yield batch;
}

/** Writes the tree's tiles, TILES_PER_INSERT per statement. */
async function insertTiles(treeId: number, nodes: ByteRecords, nodeCount: number, halt: Halt): Promise<void> {
  // One buffer for every statement's tiles: each statement is done with it before the next batch is copied in.
  const blob = Buffer.allocUnsafe(TILES_PER_INSERT * tileBytes(TILE_HEIGHT));
  const batches = tileBatches(nodes, nodeCount, blob);
  await bulk(
    halt.step(async (trx) => {
      const next = batches.next();
      if (next.done) return false;
      const { used, ...batch } = next.value;
      await insertTileBatch(trx, treeId, { ...batch, blob: blob.subarray(0, used) });
      return true;
    }),
  );
}

/** Writes `value` (a non-negative int32) in decimal at out[at..); returns where it ends. */
function writeDigits(value: number, out: Buffer, at: number): number {
  let end = at + 1;
  for (let rest = value; rest >= 10; rest = (rest / 10) | 0) end++;
  for (let k = end - 1, rest = value; k >= at; k--, rest = (rest / 10) | 0) out[k] = 48 + (rest % 10);
  return end;
}

/** A leaf writer's buffers: accounts, tree indexes' literals and amounts' literals. */
type LeafScratch = { packed: Scratch; indexes: Scratch; amounts: Scratch };

/**
 * Leaves order[from..to) as one statement's batch: their accounts packed, and each chunk's tree indexes and
 * amounts as array literals written as bytes ({a,b};{c}...: no string per leaf nor per statement), in the
 * writer's reused buffers.
 */
function leafBatch(
  tree: ValidTree,
  order: Uint32Array,
  chunks: Int32Array,
  from: number,
  to: number,
  scratch: LeafScratch,
): LeafBatch {
  const { accounts, treeIndexes, amounts } = tree;
  const count = to - from;
  const packed = scratch.packed.take(count * 20);
  // At most 10 digits and a comma per tree index, 78 digits and a comma per amount, and "};{" per chunk.
  const indexes = scratch.indexes.take(count * 14 + 2);
  const literals = scratch.amounts.take(count * 82 + 2);
  const starts: number[] = [];
  let at = 0;
  let indexAt = 0;
  for (let k = from; k < to; k++) {
    const i = order[k];
    accounts.copyTo(i, packed, (k - from) * 20);
    if (k === from || chunks[k] !== chunks[k - 1]) {
      if (k > from) {
        literals[at++] = indexes[indexAt++] = 0x7d; // }
        literals[at++] = indexes[indexAt++] = 0x3b; // ;
      }
      literals[at++] = indexes[indexAt++] = 0x7b; // {
      starts.push(k - from);
    } else literals[at++] = indexes[indexAt++] = 0x2c; // ,
    indexAt = writeDigits(treeIndexes.get(i), indexes, indexAt);
    at = amounts.copyTo(i, literals, at);
  }
  literals[at++] = indexes[indexAt++] = 0x7d; // }
  const ends = [...starts.slice(1), count];
  return {
    packed: packed.subarray(0, count * 20),
    starts: Int32Array.from(starts),
    counts: Int32Array.from(starts, (start, c) => ends[c] - start),
    treeIndexes: indexes.subarray(0, indexAt),
    amounts: literals.subarray(0, at),
  };
}

/**
 * Writes the leaves as chunks (leaf-order.ts), about LEAVES_PER_STATEMENT leaves per statement (whole chunks),
 * LEAF_WRITERS statements at a time.
 */
async function insertLeaves(treeId: number, tree: ValidTree, halt: Halt): Promise<void> {
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
    const scratch = { packed: new Scratch(), indexes: new Scratch(), amounts: new Scratch() };
    await bulk(
      halt.step(async (trx) => {
        const s = next++;
        if (s >= starts.length) return false;
        const batch = leafBatch(tree, order, chunks, starts[s], starts[s + 1] ?? leafCount, scratch);
        await insertLeafChunks(trx, treeId, batch);
        return true;
      }),
    );
  };
  await settled(Array.from({ length: Math.min(LEAF_WRITERS, starts.length) }, () => halt.guard(writer())));
}

/**
 * Waits for every one of `work` to end, then throws the first failure: a tree is deleted after a failed write, and
 * that must not race a statement still writing to it.
 */
async function settled(work: Promise<unknown>[]): Promise<void> {
  for (const outcome of await Promise.allSettled(work)) if (outcome.status === "rejected") throw outcome.reason;
}

/**
 * A tree being stored for `owner`, staged (invisible until published): its row, queued with the job that deletes it
 * if it is never published, and its tiles, from its nodes alone, start as soon as it is made; finish() adds the
 * leaves once the whole upload is valid. An upload makes it when the nodes it has read are a tree of the root the
 * chain holds, so that the tiles (64 MiB for a million leaves) are written while its values are still being read.
 * Tiles and leaves go side by side (three connections on PostgreSQL); when one writer fails, the others stop after
 * their current statement.
 */
export class TreeWrite {
  /** The tree's id, and its deletion job's. */
  private readonly ids: Promise<{ tree: number; job: number }>;
  private readonly tiles: Promise<void>;
  private readonly halt = new Halt();

  constructor(owner: string, nodes: ByteRecords) {
    const nodeCount = nodes.count;
    const leafCount = (nodeCount + 1) / 2;
    this.ids = db()
      .transaction()
      .execute(async (trx) => {
        const tree = await insertTree(trx, { owner, root: nodes.get(0), leafCount, tileHeight: TILE_HEIGHT });
        const job = await enqueue(deleteTreeJob, { treeId: tree }, { db: trx, delaySeconds: ABANDONED_AFTER_SECONDS });
        return { tree, job: job.id };
      });
    this.tiles = this.halt.guard(this.ids.then(({ tree }) => insertTiles(tree, nodes, nodeCount, this.halt)));
    this.tiles.catch(() => {}); // awaited by finish() or abandon()
  }

  /** Writes the leaves of the validated tree beside its tiles; returns the tree's id. */
  async finish(tree: ValidTree): Promise<number> {
    const ids = await this.ids;
    await settled([this.tiles, insertLeaves(ids.tree, tree, this.halt)]);
    return ids.tree;
  }

  /**
   * Stops the writing after the statements in flight, then deletes what was written (the upload turned out invalid,
   * unchanged or cut off) and withdraws its deletion job; if that fails, the job removes the tree later.
   */
  async abandon(): Promise<void> {
    this.halt.halted = true;
    const ids = await this.ids.catch(() => null);
    if (ids === null) return;
    await this.tiles.catch(() => {});
    try {
      await deleteTree(ids.tree);
      await withdrawJob(ids.job);
    } catch (error) {
      log.warn("an abandoned tree is left to its deletion job", { treeId: ids.tree, error });
    }
  }
}
