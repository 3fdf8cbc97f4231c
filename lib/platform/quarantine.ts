// Chain events set aside: an event an indexer cannot decode or store is recorded with its place on chain, its reason
// and its first error, and the indexer moves past it. Operators list them (GET /api/admin/quarantined-events, the
// health check's count, `npm run tokens -- quarantine list`) and try them again after a fix.
import { sql } from "kysely";
import { db, type Database } from "@/db";
import { toHttpError } from "@/lib/core/errors";
import { storableText } from "@/lib/core/text";
import { countQuarantinedEvent } from "@/lib/core/telemetry";

export type QuarantineReason = "undecodable" | "unstorable";

/** Where an event is: its indexer's stream, and its place on chain (the emitting contract, lowercase). */
export type EventPlace = {
  stream: string;
  chainId: number;
  address: string;
  blockNumber: number;
  logIndex: number;
  txHash: string;
};

export type QuarantinedEvent = EventPlace & { reason: QuarantineReason; error: string };

/** Errors are kept to this many characters (a database message can quote a whole value). */
const MAX_ERROR_CHARS = 1000;

const errorText = (error: unknown) =>
  storableText(error instanceof Error ? error.message : String(error), MAX_ERROR_CHARS, true);

/**
 * Whether an error is the event's own (set it aside) rather than the moment's: a chain or database that does not
 * answer, a statement timeout or a serialization failure (what route() answers 503) is tried again on the next run.
 */
export function isEventError(error: unknown): boolean {
  return toHttpError(error).status !== 503;
}

/** Records the event (again: its attempts count up and its last error is kept, and it is open again). */
export async function quarantineEvent(
  db: Database,
  event: QuarantinedEvent,
  error: unknown = event.error,
): Promise<void> {
  const message = errorText(error);
  await db
    .insertInto("quarantined_events")
    .values({
      stream: event.stream,
      chain_id: event.chainId,
      address: event.address.toLowerCase(),
      block_number: event.blockNumber,
      log_index: event.logIndex,
      tx_hash: event.txHash.toLowerCase(),
      reason: event.reason,
      first_error: message,
      last_error: message,
      resolved_at: null,
    })
    .onConflict((oc) =>
      oc.columns(["stream", "chain_id", "tx_hash", "log_index"]).doUpdateSet({
        reason: event.reason,
        last_error: message,
        attempts: sql`quarantined_events.attempts + 1`,
        updated_at: sql`now()`,
        resolved_at: null,
      }),
    )
    .execute();
  countQuarantinedEvent(event.stream, event.chainId, event.reason);
}

/** Marks a quarantined event indexed (its retry succeeded, or the indexer stored it on a later pass). */
export async function resolveQuarantinedEvent(
  db: Database,
  key: { stream: string; chainId: number; txHash: string; logIndex: number },
): Promise<void> {
  await db
    .updateTable("quarantined_events")
    .set({ resolved_at: sql`now()`, updated_at: sql`now()` })
    .where("stream", "=", key.stream)
    .where("chain_id", "=", key.chainId)
    .where("tx_hash", "=", key.txHash.toLowerCase())
    .where("log_index", "=", key.logIndex)
    .where("resolved_at", "is", null)
    .execute();
}

export type QuarantinedEventRow = EventPlace & {
  id: number;
  reason: string;
  firstError: string;
  lastError: string;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  resolvedAt: Date | null;
};

/** Quarantined events in id order after `afterId`, the open ones only unless `all`. */
export async function listQuarantinedEvents(options: {
  afterId?: number;
  limit: number;
  all?: boolean;
  stream?: string;
}): Promise<QuarantinedEventRow[]> {
  let query = db()
    .selectFrom("quarantined_events")
    .selectAll()
    .where("id", ">", options.afterId ?? 0)
    .orderBy("id")
    .limit(options.limit);
  if (!options.all) query = query.where("resolved_at", "is", null);
  if (options.stream) query = query.where("stream", "=", options.stream);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: Number(r.id),
    stream: r.stream,
    chainId: r.chain_id,
    address: r.address,
    blockNumber: Number(r.block_number),
    logIndex: r.log_index,
    txHash: r.tx_hash,
    reason: r.reason,
    firstError: r.first_error,
    lastError: r.last_error,
    attempts: r.attempts,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    resolvedAt: r.resolved_at,
  }));
}

/** Open quarantined events, counted up to `cap` (the health check stays cheap whatever was planted). */
export async function countOpenQuarantinedEvents(cap = 1000): Promise<number> {
  const { count } = await db()
    .selectFrom((eb) =>
      eb.selectFrom("quarantined_events").select("id").where("resolved_at", "is", null).limit(cap).as("open"),
    )
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}
