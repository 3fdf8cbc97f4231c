// Cache and rate limits in Postgres tables (kv_cache, rate_limits): the embedded default's backend.
import { sql } from "kysely";
import { db } from "@/db";
import type { KeyValueStore, RateLimitResult } from "./types";
import { countCacheLookup } from "@/lib/core/telemetry";
import { log } from "@/lib/core/log";

/** How long increments wait in memory before one statement writes them all. */
export const COUNTER_FLUSH_MS = 2_000;

type PendingCounters = Map<string, { fields: Map<string, number>; expiresAt: Date }>;

export class PostgresStore implements KeyValueStore {
  readonly backend = "postgres";
  private pending: PendingCounters = new Map();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  async get<T>(key: string): Promise<T | null> {
    const row = await db()
      .selectFrom("kv_cache")
      .select("value")
      .where("key", "=", key)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", sql<Date>`now()`)]))
      .executeTakeFirst();
    return countCacheLookup(this.backend, (row?.value as T) ?? null);
  }

  async set(key: string, value: unknown, ttlSeconds?: number): Promise<void> {
    const expires_at = ttlSeconds ? new Date(Date.now() + ttlSeconds * 1000) : null;
    const json = JSON.stringify(value);
    await db()
      .insertInto("kv_cache")
      .values({ key, value: json, expires_at })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: json, expires_at }))
      .execute();
    if (Math.random() < 0.01) {
      // Expired rows are invisible to get(); sweep them now and then so the table does not grow forever.
      void db()
        .deleteFrom("kv_cache")
        .where("expires_at", "<", new Date())
        .execute()
        .catch(() => {});
    }
  }

  async delete(key: string): Promise<void> {
    await db().deleteFrom("kv_cache").where("key", "=", key).execute();
  }

  /** Ended windows count nothing. Each row knows its own end: limits with other window lengths share the table. */
  async sweepEndedWindows(): Promise<void> {
    await db().deleteFrom("rate_limits").where("window_end", "<", new Date()).execute();
  }

  async limit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(Date.now() / windowMs) * windowMs;
    const row = await db()
      .insertInto("rate_limits")
      .values({ key, window_start: new Date(start), window_end: new Date(start + windowMs), count: 1 })
      .onConflict((oc) => oc.columns(["key", "window_start"]).doUpdateSet({ count: sql`rate_limits.count + 1` }))
      .returning("count")
      .executeTakeFirstOrThrow();
    if (Math.random() < 0.01) void this.sweepEndedWindows().catch(() => {}); // now and then, not on every call
    return { success: row.count <= limit, limit, remaining: Math.max(0, limit - row.count), resetAt: start + windowMs };
  }

  /** Buffered: a later increment of the same field adds to the pending one, and the next flush writes them all. */
  async incrementCounters(key: string, by: Record<string, number>, ttlSeconds: number): Promise<void> {
    const entry = this.pending.get(key) ?? { fields: new Map<string, number>(), expiresAt: new Date() };
    entry.expiresAt = new Date(Date.now() + ttlSeconds * 1000);
    for (const [field, n] of Object.entries(by)) entry.fields.set(field, (entry.fields.get(field) ?? 0) + n);
    this.pending.set(key, entry);
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => {
        this.flushCounters().catch((error) => log.warn("counter flush failed; its increments are dropped", { error }));
      }, COUNTER_FLUSH_MS);
      this.flushTimer.unref?.();
    }
  }

  /** Writes the buffered increments in one statement (a read flushes first, so it sees its own process's counts). */
  async flushCounters(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const pending = this.pending;
    this.pending = new Map();
    const rows = [...pending].flatMap(([key, { fields, expiresAt }]) =>
      [...fields].map(([field, count]) => ({ key, field, count, expires_at: expiresAt })),
    );
    if (!rows.length) return;
    await db()
      .insertInto("kv_counters")
      .values(rows)
      .onConflict((oc) =>
        oc.columns(["key", "field"]).doUpdateSet({
          count: sql`kv_counters.count + excluded.count`,
          expires_at: sql`excluded.expires_at`,
        }),
      )
      .execute();
    if (Math.random() < 0.01)
      void db()
        .deleteFrom("kv_counters")
        .where("expires_at", "<", new Date())
        .execute()
        .catch(() => {});
  }

  async readCounters(keys: string[]): Promise<Record<string, number>[]> {
    if (!keys.length) return [];
    await this.flushCounters();
    const rows = await db()
      .selectFrom("kv_counters")
      .select(["key", "field", "count"])
      .where("key", "in", keys)
      .where("expires_at", ">", new Date())
      .execute();
    const byKey = new Map(keys.map((k) => [k, {} as Record<string, number>]));
    for (const row of rows) byKey.get(row.key)![row.field] = Number(row.count);
    return keys.map((k) => byKey.get(k)!);
  }
}
