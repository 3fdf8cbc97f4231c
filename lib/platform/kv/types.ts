// The cache and rate-limit interface, with a Postgres and an Upstash Redis implementation.
export type RateLimitResult = { success: boolean; limit: number; remaining: number; resetAt: number };

/**
 * The cache is an optimisation: on Upstash, a get that fails or times out is a miss and a set that fails is
 * dropped, so callers read the database instead. A delete and a rate limit fail the request (503).
 */
export interface KeyValueStore {
  readonly backend: "postgres" | "upstash";
  get<T>(key: string): Promise<T | null>;
  /** ttlSeconds omitted: kept until deleted. */
  set(key: string, value: unknown, ttlSeconds?: number): Promise<void>;
  /** Throws when it fails: a lost invalidation would serve a stale value once the cache is back. */
  delete(key: string): Promise<void>;
  /** Fixed-window counter: `limit` requests per `windowSeconds` per key. Fails closed: 503 on a backend error. */
  limit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;
  /**
   * Adds to counters in the hash at `key` (a Redis hash on Upstash), which expires `ttlSeconds` after the last
   * increment. Bookkeeping: a failure is logged and dropped, never the request's. The Postgres store buffers
   * increments in memory and writes them in batches, so counting is no database write per request.
   */
  incrementCounters(key: string, by: Record<string, number>, ttlSeconds: number): Promise<void>;
  /** The counters of each hash, in the order of `keys` (an empty object for a missing one). Throws when it fails. */
  readCounters(keys: string[]): Promise<Record<string, number>[]>;
}
