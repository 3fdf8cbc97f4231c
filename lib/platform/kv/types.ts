// The cache and rate-limit interface, with a Postgres and an Upstash Redis implementation.
export type RateLimitResult = { success: boolean; limit: number; remaining: number; resetAt: number };

export interface KeyValueStore {
  readonly backend: "postgres" | "upstash";
  get<T>(key: string): Promise<T | null>;
  /** ttlSeconds omitted: kept until deleted. */
  set(key: string, value: unknown, ttlSeconds?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Fixed-window counter: `limit` requests per `windowSeconds` per key. */
  limit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;
}
