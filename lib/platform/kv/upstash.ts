// Cache and rate limits in Upstash Redis over its REST API: the production backend (Vercel + Upstash).
import { Redis } from "@upstash/redis";
import { Ratelimit } from "@upstash/ratelimit";
import { config } from "@/lib/core/config";
import { providerUnavailable } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { CacheBreaker } from "./breaker";
import type { KeyValueStore, RateLimitResult } from "./types";
import { countCacheLookup } from "@/lib/core/telemetry";

/** Ratelimit's own key prefix; our keys already carry `rl:<rule>:<subject>`. */
const RATELIMIT_PREFIX = "ratelimit";

/** A failing Redis in a rate limit or a delete is a provider outage (503 + Retry-After), never a 500. */
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
  /** Rate limits and deletes: they fail the request, so they get the provider timeout and two retries. */
  private readonly redis: Redis;
  /** Cache reads and writes: a short timeout, since the database can answer instead. */
  private readonly cache: Redis;
  private readonly breaker = new CacheBreaker("upstash redis");
  /** Its own, so a slow count never pauses cache reads (a refused address is remembered in the cache). */
  private readonly countBreaker = new CacheBreaker("upstash redis counters");
  /** One limiter per (limit, window): @upstash/ratelimit fixes both at construction. */
  private readonly limiters = new Map<string, Ratelimit>();

  constructor(credentials: { url: string; token: string }) {
    const { PROVIDER_TIMEOUT_MS, CACHE_TIMEOUT_MS } = config();
    // The client makes one signal per command, so a command's retries share its timeout.
    const client = (timeoutMs: number, retries: number) =>
      new Redis({
        url: credentials.url,
        token: credentials.token,
        enableTelemetry: false,
        retry: { retries, backoff: (n) => 50 * 2 ** n },
        signal: () => AbortSignal.timeout(timeoutMs),
      });
    this.redis = client(PROVIDER_TIMEOUT_MS, 2);
    this.cache = client(CACHE_TIMEOUT_MS, 1);
  }

  /** null on a miss, and also when Redis fails, is slower than CACHE_TIMEOUT_MS, or is skipped by the breaker. */
  get<T>(key: string): Promise<T | null> {
    // automaticDeserialization (the client's default) JSON-parses what set() stored as JSON text.
    return this.breaker.run("get", () => this.cache.get<T>(key), null).then((v) => countCacheLookup(this.backend, v));
  }

  /** A write that fails is logged by the breaker and dropped: a cache write never fails the request. */
  async set(key: string, value: unknown, ttlSeconds?: number): Promise<void> {
    // Always JSON text: the client would store a string as is, and "123" would come back as the number 123.
    const json = JSON.stringify(value);
    const write = () => {
      if (!ttlSeconds) return this.cache.set(key, json);
      // EX takes whole seconds; a fractional TTL goes in milliseconds instead of being rounded away.
      return Number.isInteger(ttlSeconds)
        ? this.cache.set(key, json, { ex: ttlSeconds })
        : this.cache.set(key, json, { px: Math.max(1, Math.ceil(ttlSeconds * 1000)) });
    };
    await this.breaker.run("set", write, null);
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

  /** One request (a pipeline): HINCRBY per field, then EXPIRE. Through a breaker, like a cache write. */
  async incrementCounters(key: string, by: Record<string, number>, ttlSeconds: number): Promise<void> {
    const write = () => {
      const pipeline = this.cache.pipeline();
      for (const [field, n] of Object.entries(by)) pipeline.hincrby(key, field, n);
      pipeline.expire(key, Math.max(1, Math.ceil(ttlSeconds)));
      return pipeline.exec();
    };
    await this.countBreaker.run("count", write, null);
  }

  async readCounters(keys: string[]): Promise<Record<string, number>[]> {
    if (!keys.length) return [];
    const pipeline = this.redis.pipeline();
    for (const key of keys) pipeline.hgetall(key);
    const hashes = await guarded("read counters", () => pipeline.exec<(Record<string, unknown> | null)[]>());
    return hashes.map((hash) =>
      Object.fromEntries(Object.entries(hash ?? {}).map(([field, count]) => [field, Number(count)])),
    );
  }
}
