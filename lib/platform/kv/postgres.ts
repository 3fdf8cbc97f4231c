// Cache and rate limits in Postgres tables (kv_cache, rate_limits): the embedded default's backend.
import { sql } from "kysely";
import { db } from "@/db";
import type { KeyValueStore, RateLimitResult } from "./types";
import { countCacheLookup } from "@/lib/core/telemetry";

export class PostgresStore implements KeyValueStore {
  readonly backend = "postgres";

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
}
