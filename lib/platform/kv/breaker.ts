// A circuit breaker for cache calls: after a failure the cache is skipped for a pause, so that while it is down
// each request goes straight to the database instead of waiting for the cache's timeout again.
import { log } from "@/lib/core/log";

/** How long the cache is skipped after a failure. */
export const CACHE_PAUSE_MS = 5_000;

export class CacheBreaker {
  /** Date.now() until which calls are skipped; 0 while the breaker is closed. */
  private openUntil = 0;
  /** A call is trying the cache after a pause: the others keep skipping until it settles. */
  private probing = false;

  constructor(
    private readonly name: string,
    private readonly pauseMs = CACHE_PAUSE_MS,
  ) {}

  /** `call`'s result, or `fallback` when the breaker is open or the call fails (logged once per opening). */
  async run<T>(what: string, call: () => Promise<T>, fallback: T): Promise<T> {
    let probe = false;
    if (this.openUntil) {
      if (this.probing || Date.now() < this.openUntil) return fallback;
      this.probing = probe = true;
    }
    try {
      const result = await call();
      if (this.openUntil) {
        this.openUntil = 0;
        log.info(`${this.name} answers again: cache calls resume`);
      }
      return result;
    } catch (error) {
      // Calls already in flight when the breaker opened fail too: only the opening one (or a failed probe) logs.
      if (!this.openUntil || probe)
        log.warn(`${this.name} failed: the cache is skipped for ${this.pauseMs / 1000} s`, { what, error });
      this.openUntil = Date.now() + this.pauseMs;
      return fallback;
    } finally {
      if (probe) this.probing = false;
    }
  }
}
