// The Upstash store when Redis does not answer: cache reads are misses within CACHE_TIMEOUT_MS, writes are dropped,
// a breaker skips the cache for a pause after a failure (one warning per opening), rate limits still fail closed.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfig } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { CACHE_PAUSE_MS, CacheBreaker } from "@/lib/platform/kv/breaker";
import { UpstashStore } from "@/lib/platform/kv/upstash";
import { freezeDate } from "@/tests/helpers/clock";
import { startFakeServer, type FakeServer } from "@/tests/helpers/fake-server";

const CACHE_TIMEOUT_MS = 200;
const PROVIDER_TIMEOUT_MS = 600;

let blackHole: FakeServer;
beforeAll(async () => {
  blackHole = await startFakeServer(() => ({ hang: true }));
  Object.assign(process.env, {
    CACHE_TIMEOUT_MS: String(CACHE_TIMEOUT_MS),
    PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
  });
  resetConfig();
  // The process's first fetch loads its HTTP client: slow enough on a busy machine to outlast a short timeout.
  await fetch(blackHole.url, { signal: AbortSignal.timeout(2000) }).catch(() => {});
  blackHole.requests.length = 0;
});
afterAll(async () => {
  delete process.env.CACHE_TIMEOUT_MS;
  delete process.env.PROVIDER_TIMEOUT_MS;
  resetConfig();
  await blackHole.close();
});
afterEach(() => {
  vi.restoreAllMocks();
  blackHole.requests.length = 0;
});

const failures = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.filter(([message]) => String(message).includes("the cache is skipped")).length;

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

describe("UpstashStore when Redis accepts connections and never answers", () => {
  it("reads a miss after CACHE_TIMEOUT_MS, then skips the cache while the breaker is open", async () => {
    freezeDate();
    const warn = vi.spyOn(log, "warn");
    const store = new UpstashStore({ url: blackHole.url, token: "t" });
    const first = await timed(() => store.get("k"));
    expect(first.value).toBeNull();
    expect(first.ms).toBeGreaterThanOrEqual(CACHE_TIMEOUT_MS - 20);
    expect(first.ms).toBeLessThan(PROVIDER_TIMEOUT_MS);
    await vi.waitFor(() => expect(blackHole.requests).toHaveLength(1)); // the server records a request once read

    const skipped = await timed(() => Promise.all([store.get("k"), store.set("k", 1, 60), store.set("k", 2)]));
    expect(skipped.value).toEqual([null, undefined, undefined]);
    expect(skipped.ms).toBeLessThan(CACHE_TIMEOUT_MS);
    await new Promise((resolve) => setTimeout(resolve, 100)); // time for a request sent anyway to arrive
    expect(blackHole.requests).toHaveLength(1);
    expect(failures(warn)).toBe(1);
  });

  it("drops a write that fails instead of failing the caller", async () => {
    const store = new UpstashStore({ url: blackHole.url, token: "t" });
    await expect(store.set("k", { v: 1 }, 60)).resolves.toBeUndefined();
    await vi.waitFor(() => expect(blackHole.requests).toHaveLength(1));
  });

  it("still fails a rate limit and a delete closed (503), after the provider timeout", async () => {
    const store = new UpstashStore({ url: blackHole.url, token: "t" });
    expect(await store.get("k")).toBeNull(); // the breaker is open: rate limits do not look at it
    const limited = await timed(() => store.limit("rl:test:k", 1, 60).catch((e: unknown) => e));
    expect(limited.value).toMatchObject({ status: 503, code: "provider_unavailable" });
    expect(limited.ms).toBeGreaterThanOrEqual(PROVIDER_TIMEOUT_MS - 20);
    await expect(store.delete("k")).rejects.toMatchObject({ status: 503, code: "provider_unavailable" });
  });
});

describe("CacheBreaker", () => {
  const failing = () => Promise.reject(new Error("down"));

  it("tries one call after the pause while the others keep skipping, and warns again when that one fails", async () => {
    freezeDate();
    const warn = vi.spyOn(log, "warn");
    const breaker = new CacheBreaker("upstash redis");
    // Calls in flight when it opens fail together: one warning.
    expect(await Promise.all([breaker.run("get", failing, "miss"), breaker.run("get", failing, "miss")])).toEqual([
      "miss",
      "miss",
    ]);
    expect(failures(warn)).toBe(1);
    vi.setSystemTime(Date.now() + CACHE_PAUSE_MS);
    let release!: () => void;
    const probe = vi.fn(() => new Promise<string>((_, reject) => (release = () => reject(new Error("still down")))));
    const probing = breaker.run("get", probe, "miss");
    const other = vi.fn(async () => "hit");
    expect(await breaker.run("get", other, "miss")).toBe("miss");
    expect(other).not.toHaveBeenCalled();
    release();
    expect(await probing).toBe("miss");
    expect(probe).toHaveBeenCalledTimes(1);
    expect(failures(warn)).toBe(2);
    expect(await breaker.run("get", other, "miss")).toBe("miss"); // open again for a new pause
  });

  it("closes when a call after the pause succeeds, and says so once", async () => {
    freezeDate();
    const info = vi.spyOn(log, "info");
    const breaker = new CacheBreaker("upstash redis");
    await breaker.run("get", failing, null);
    vi.setSystemTime(Date.now() + CACHE_PAUSE_MS);
    expect(await breaker.run("get", async () => "hit", null)).toBe("hit");
    expect(await breaker.run("get", async () => "hit again", null)).toBe("hit again");
    expect(info.mock.calls.filter(([m]) => m.includes("answers again"))).toHaveLength(1);
  });
});
