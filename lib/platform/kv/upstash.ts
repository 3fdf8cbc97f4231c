// Cache and rate limits in Upstash Redis over its REST API: the production backend (Vercel + Upstash).
import { Redis } from "@upstash/redis";
import { Ratelimit } from "@upstash/ratelimit";
import { config } from "@/lib/core/config";
import { providerUnavailable } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import type { KeyValueStore, RateLimitResult } from "./types";

/** Ratelimit's own key prefix; our keys already carry `rl:<rule>:<subject>`. */
const RATELIMIT_PREFIX = "ratelimit";

/**
 * A failing Redis is a provider outage (503 + Retry-After), never a 500; the caller decides whether a
 * cache miss would do instead.
 */
async function guarded<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    log.warn("upstash redis failed", { what, error });
    throw providerUnavailable("the cache is unavailable", 5);
  }
}

export class UpstashStore implements KeyValueStore {
  readonly backend = "upstash";
  private readonly redis: Redis;
  /** One limiter per (limit, window): @upstash/ratelimit fixes both at construction. */
  private readonly limiters = new Map<string, Ratelimit>();

  constructor(credentials: { url: string; token: string }) {
    const timeoutMs = config().PROVIDER_TIMEOUT_MS;
    this.redis = new Redis({
      url: credentials.url,
      token: credentials.token,
      enableTelemetry: false,
      // Bounded in a request path: two quick retries on network errors, and an abort after the provider timeout.
      retry: { retries: 2, backoff: (n) => 50 * 2 ** n },
      signal: () => AbortSignal.timeout(timeoutMs),
    });
  }

  get<T>(key: string): Promise<T | null> {
    // automaticDeserialization (the client's default) JSON-parses what set() stored as JSON text.
    return guarded("get", () => this.redis.get<T>(key));
  }

  async set(key: string, value: unknown, ttlSeconds?: number): Promise<void> {
    // Always JSON text: the client would store a string as is, and "123" would come back as the number 123.
    const json = JSON.stringify(value);
    await guarded("set", () => {
      if (!ttlSeconds) return this.redis.set(key, json);
      // EX takes whole seconds; a fractional TTL goes in milliseconds instead of being rounded away.
      return Number.isInteger(ttlSeconds)
        ? this.redis.set(key, json, { ex: ttlSeconds })
        : this.redis.set(key, json, { px: Math.max(1, Math.ceil(ttlSeconds * 1000)) });
    });
  }

  async delete(key: string): Promise<void> {
    await guarded("delete", () => this.redis.del(key));
  }

  /**
   * Fixed window, like the Postgres store: windows aligned to multiples of `windowSeconds` since the epoch,
   * so both backends agree on `resetAt`. Ratelimit's fail-open timeout is off (timeout 0): a Redis that does
   * not answer fails the request as 503 through the client's own abort signal, as the Postgres store would.
   */
  async limit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const id = `${limit}/${windowSeconds}`;
    const limiter =
      this.limiters.get(id) ??
      new Ratelimit({
        redis: this.redis,
        limiter: Ratelimit.fixedWindow(limit, `${windowSeconds} s`),
        prefix: RATELIMIT_PREFIX,
        analytics: false,
        timeout: 0,
      });
    this.limiters.set(id, limiter);
    const result = await guarded("limit", () => limiter.limit(key));
    return { success: result.success, limit: result.limit, remaining: result.remaining, resetAt: result.reset };
  }
}
