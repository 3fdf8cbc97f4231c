// The one checkpoint store of the chain event streams: the last block read per (stream, chain, followed contract), in
// chain_checkpoints. The follower (lib/platform/chain/follower.ts) moves a checkpoint in the transaction that stores
// the range's rows; the operator view, the earnings and airdrop pages and the CLI read it. A checkpoint never moves
// backwards: two walkers of one stream (the minute indexer and a backfill) can only skip ahead of each other.
import { sql } from "kysely";
import { db, type Database } from "@/db";

export type CheckpointKey = { stream: string; chainId: number; address: string };

export type CheckpointRow = { stream: string; chainId: number; contract: string; lastBlock: number; updatedAt: Date };

/** A backfill's own progress beside its stream's checkpoint (see docs/indexing.md). */
export const backfillStream = (stream: string) => `${stream}:backfill`;

/** The last block covered for the key, or null before its first range. */
export async function readCheckpoint(key: CheckpointKey, executor: Database = db()): Promise<number | null> {
  return (
    (await readCheckpoints(key.stream, key.chainId, [key.address], executor)).get(key.address.toLowerCase()) ?? null
  );
}

/** The furthest block any contract of the stream has reached on the chain, or null before the first range. */
export async function furthestCheckpoint(
  stream: string,
  chainId: number,
  executor: Database = db(),
): Promise<number | null> {
  const row = await executor
    .selectFrom("chain_checkpoints")
    .select((eb) => eb.fn.max("block").as("block"))
    .where("stream", "=", stream)
    .where("chain_id", "=", chainId)
    .executeTakeFirst();
  return row?.block == null ? null : Number(row.block);
}

/** The checkpoints of several contracts of one stream and chain, by lowercase address (absent: none yet). */
export async function readCheckpoints(
  stream: string,
  chainId: number,
  addresses: readonly string[],
  executor: Database = db(),
): Promise<Map<string, number>> {
  if (!addresses.length) return new Map();
  const rows = await executor
    .selectFrom("chain_checkpoints")
    .select(["address", "block"])
    .where("stream", "=", stream)
    .where("chain_id", "=", chainId)
    .where(
      "address",
      "in",
      addresses.map((a) => a.toLowerCase()),
    )
    .execute();
  return new Map(rows.map((r) => [r.address, Number(r.block)]));
}

/** The checkpoints of several contracts of one stream and chain. */
export type CheckpointKeys = { stream: string; chainId: number; addresses: readonly string[] };

/** Moves the checkpoints to `block`, never backwards: one statement for all the contracts. */
export async function advanceCheckpoints(db: Database, keys: CheckpointKeys, block: number): Promise<void> {
  if (!keys.addresses.length) return;
  await db
    .insertInto("chain_checkpoints")
    .values(
      keys.addresses.map((a) => ({ stream: keys.stream, chain_id: keys.chainId, address: a.toLowerCase(), block })),
    )
    .onConflict((oc) =>
      oc.columns(["stream", "chain_id", "address"]).doUpdateSet({
        block: sql`greatest(chain_checkpoints.block, excluded.block)`,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

/**
 * Moves the checkpoints to `toBlock` where the range from `fromBlock` joins them (a checkpoint at `fromBlock - 1` or
 * later), so a walk that did not start at the checkpoint never leaves a gap below it. A contract without a checkpoint
 * gets one only when `creates` says so (the range starts where its stream starts). Two statements at most.
 */
export async function advanceCheckpointsFrom(
  db: Database,
  keys: CheckpointKeys,
  range: { fromBlock: number; toBlock: number },
  creates: (address: string) => boolean,
): Promise<void> {
  const addresses = keys.addresses.map((a) => a.toLowerCase());
  const created = addresses.filter(creates);
  const joined = addresses.filter((a) => !creates(a));
  if (created.length)
    await db
      .insertInto("chain_checkpoints")
      .values(
        created.map((address) => ({ stream: keys.stream, chain_id: keys.chainId, address, block: range.toBlock })),
      )
      .onConflict((oc) =>
        oc
          .columns(["stream", "chain_id", "address"])
          .doUpdateSet({ block: sql`greatest(chain_checkpoints.block, excluded.block)`, updated_at: sql`now()` })
          .where("chain_checkpoints.block", ">=", range.fromBlock - 1),
      )
      .execute();
  if (joined.length)
    await db
      .updateTable("chain_checkpoints")
      .set({ block: range.toBlock, updated_at: sql`now()` })
      .where("stream", "=", keys.stream)
      .where("chain_id", "=", keys.chainId)
      .where("address", "in", joined)
      .where("block", ">=", range.fromBlock - 1)
      .where("block", "<", range.toBlock)
      .execute();
}

/** Forgets a checkpoint (a finished backfill's progress). */
export async function deleteCheckpoint(key: CheckpointKey, executor: Database = db()): Promise<void> {
  await executor
    .deleteFrom("chain_checkpoints")
    .where("stream", "=", key.stream)
    .where("chain_id", "=", key.chainId)
    .where("address", "=", key.address.toLowerCase())
    .execute();
}

/** Checkpoints in (stream, chain, contract) order, at most `limit`: the operator view's and the CLI's list. */
export async function listCheckpoints(options: { limit: number; stream?: string }): Promise<CheckpointRow[]> {
  let query = db()
    .selectFrom("chain_checkpoints")
    .select(["stream", "chain_id as chainId", "address as contract", "block as lastBlock", "updated_at as updatedAt"])
    .orderBy("stream")
    .orderBy("chain_id")
    .orderBy("address")
    .limit(options.limit);
  if (options.stream !== undefined) query = query.where("stream", "=", options.stream);
  return (await query.execute()).map((r) => ({ ...r, lastBlock: Number(r.lastBlock) }));
}
