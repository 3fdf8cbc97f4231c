// Queries on token_events (one row per newly indexed token) and token_event_horizon (the newest pruned position).
// A position is (xid, seq): the writing transaction's xid8, then the event's own sequence. Reads stop below the
// oldest running transaction of the database (HORIZON): every event there is committed or gone, and every event
// still to commit comes after it, so a reader that moved past a position can never be handed an event before it.
import { sql } from "kysely";
import type { Database } from "@/db";
import { tokenJsonColumns, type TokenJsonRow } from "@/lib/domains/tokens/serialize";
import type { MarketValues } from "@/lib/domains/tokens/serialize";

export type Position = { xid: string; seq: number };

/**
 * The oldest transaction still running in this database, from the statement's own snapshot (its xmax when none
 * runs). Transactions of other databases on the same server are left out when pg_stat_activity names them: they
 * never write token_events, and a session left open elsewhere must not hold the stream back. Any doubt (a row
 * hidden from this role, a transaction that ended meanwhile) leaves its xid in, which only waits longer.
 */
const HORIZON = sql`SELECT coalesce(
    (SELECT min(x) FROM pg_snapshot_xip(pg_current_snapshot()) AS x
      WHERE xid(x) NOT IN (SELECT backend_xid FROM pg_stat_activity
        WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database())),
    pg_snapshot_xmax(pg_current_snapshot())) AS horizon_xid`;

/**
 * Compares two positions: negative when a is before b. An xid is an unsigned 64-bit integer in decimal without
 * leading zeros (as PostgreSQL writes it, and as a stream cursor is read), so the shorter is the smaller, and two of
 * one length compare as strings: no BigInt per comparison, which the stream makes for every event of every stream.
 */
export function comparePositions(a: Position, b: Position): number {
  if (a.xid !== b.xid) {
    if (a.xid.length !== b.xid.length) return a.xid.length < b.xid.length ? -1 : 1;
    return a.xid < b.xid ? -1 : 1;
  }
  return a.seq - b.seq;
}

/** Records that a token was indexed; null when it was recorded before (the same token indexed again). */
export async function insertTokenEvent(
  db: Database,
  values: { token_id: number; chain_id: number; contract_address: string },
): Promise<Position | null> {
  const row = await db
    .insertInto("token_events")
    .values(values)
    .onConflict((oc) => oc.columns(["chain_id", "contract_address"]).doNothing())
    .returning([sql<string>`xid::text`.as("xid"), "seq"])
    .executeTakeFirst();
  return row ? { xid: row.xid, seq: Number(row.seq) } : null;
}

export type EventRow = TokenJsonRow & {
  xid: string;
  seq: number;
  indexed_at: Date;
  chain_id: number;
  requestor_fid: number | null;
  msg_sender: string;
  pair: string | null;
  type: string;
  m_token_id: number | null;
} & { [K in keyof MarketValues as `m_${K}`]: MarketValues[K] | null };

/**
 * Up to `limit` events after `after` (from the start when null) and at most `until` (when given), below the
 * horizon, in position order; and the horizon itself: (xmin, 0) is past every event that can still be read.
 */
export async function readEvents(
  db: Database,
  after: Position | null,
  limit: number,
  until?: Position,
): Promise<{ rows: EventRow[]; horizon: Position }> {
  const events = db
    .selectFrom("token_events as e")
    .innerJoin("tokens as t", "t.id", "e.token_id")
    .leftJoin("token_market as m", "m.token_id", "t.id")
    .select([
      sql<string>`e.xid::text`.as("xid"),
      "e.seq",
      "e.created_at as indexed_at",
      "t.chain_id",
      "t.requestor_fid",
      "t.type",
      "t.pair",
      ...tokenJsonColumns,
      "m.token_id as m_token_id",
      "m.market_cap_usd as m_market_cap_usd",
      "m.price_usd as m_price_usd",
      "m.volume_24h_usd as m_volume_24h_usd",
      "m.tx_count_24h as m_tx_count_24h",
      "m.price_change_1h as m_price_change_1h",
      "m.price_change_24h as m_price_change_24h",
      "m.updated_at as m_updated_at",
    ])
    .where(sql<boolean>`e.xid < h.horizon_xid`)
    .$if(after !== null, (qb) => qb.where(sql<boolean>`(e.xid, e.seq) > (${after?.xid}::xid8, ${after?.seq}::bigint)`))
    .$if(until !== undefined, (qb) =>
      qb.where(sql<boolean>`(e.xid, e.seq) <= (${until?.xid}::xid8, ${until?.seq}::bigint)`),
    )
    .orderBy(sql`e.xid`)
    .orderBy("e.seq")
    .limit(limit);
  const result = await sql<EventRow & { horizon: string }>`
    WITH h AS (${HORIZON})
    SELECT h.horizon_xid::text AS horizon, ev.* FROM h LEFT JOIN LATERAL (${events}) ev ON true`.execute(db);
  const first = result.rows[0];
  const horizon: Position = { xid: first.horizon, seq: 0 };
  const rows = result.rows.filter((r) => r.xid !== null).map((r) => ({ ...r, seq: Number(r.seq) }));
  return { rows, horizon };
}

/** The newest pruned position, or null when nothing was pruned. */
export async function findHorizon(db: Database): Promise<Position | null> {
  const row = await db
    .selectFrom("token_event_horizon")
    .select([sql<string>`xid::text`.as("xid"), "seq"])
    .executeTakeFirst();
  return row ? { xid: row.xid, seq: Number(row.seq) } : null;
}

/** Deletes events recorded before `before` and moves the horizon up to the newest of them; returns how many. */
export async function pruneEvents(db: Database, before: Date): Promise<number> {
  const result = await sql<{ n: number }>`
    WITH gone AS (DELETE FROM token_events WHERE created_at < ${before} RETURNING xid, seq),
    top AS (SELECT xid, seq FROM gone ORDER BY xid DESC, seq DESC LIMIT 1),
    moved AS (
      INSERT INTO token_event_horizon (id, xid, seq) SELECT true, xid, seq FROM top
      ON CONFLICT (id) DO UPDATE SET xid = excluded.xid, seq = excluded.seq
      WHERE (token_event_horizon.xid, token_event_horizon.seq) < (excluded.xid, excluded.seq)
    )
    SELECT count(*)::int AS n FROM gone`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}
