// One contract, two backends: the Postgres store and the Upstash store (through a local Upstash-REST server
// over the real redis-server) must answer the same cases the same way.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { randomBytes } from "node:crypto";
import { resetConfig } from "@/lib/core/config";
import { PostgresStore } from "@/lib/platform/kv/postgres";
import { UpstashStore } from "@/lib/platform/kv/upstash";
import type { KeyValueStore } from "@/lib/platform/kv";
import { REDIS_URL, redisReachable, startUpstashServer, type UpstashServer } from "@/tests/helpers/upstash";
import { freezeDate } from "@/tests/helpers/clock";

const run = randomBytes(4).toString("hex"); // redis-server is shared by parallel files and runs
const reachable = await redisReachable();

function contract(getStore: () => KeyValueStore) {
  const key = (name: string) => `test:${run}:${getStore().backend}:${name}`;

  it("returns null for a missing key", async () => {
    expect(await getStore().get(key("missing"))).toBeNull();
  });

  it("round-trips JSON values and overwrites", async () => {
    const store = getStore();
    const value = { a: 1, b: ["x", null, true], wei: "123456789012345678901234567890", nested: { s: "ünïcödé" } };
    await store.set(key("json"), value);
    expect(await store.get(key("json"))).toEqual(value);
    await store.set(key("json"), "plain string");
    expect(await store.get(key("json"))).toBe("plain string");
    await store.set(key("num"), 42);
    expect(await store.get(key("num"))).toBe(42);
  });

  it("gives strings back as strings, even when they look like JSON", async () => {
    const store = getStore();
    for (const text of ["123", "true", "null", '{"a":1}', "[1,2]", '"quoted"', ""]) {
      await store.set(key("text"), text);
      expect(await store.get(key("text"))).toBe(text);
    }
  });

  it("deletes, and deleting a missing key is fine", async () => {
    const store = getStore();
    await store.set(key("del"), { v: 1 });
    await store.delete(key("del"));
    expect(await store.get(key("del"))).toBeNull();
    await store.delete(key("never-set"));
  });

  it("expires a value after its TTL, keeps one without, and a rewrite without TTL makes it permanent", async () => {
    const store = getStore();
    await store.set(key("rewritten"), "a", 1);
    await store.set(key("rewritten"), "b");
    await store.set(key("forever"), "kept");
    await store.set(key("ttl"), "short", 1);
    expect(await store.get(key("ttl"))).toBe("short");
    await vi.waitFor(async () => expect(await store.get(key("ttl"))).toBeNull(), { timeout: 5000, interval: 200 });
    expect(await store.get(key("forever"))).toBe("kept");
    expect(await store.get(key("rewritten"))).toBe("b");
  });

  it("counts requests in a fixed window and refuses beyond the limit", async () => {
    const store = getStore();
    freezeDate();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await store.limit(key("limit"), 3, 3600));
    expect(results.map((r) => r.success)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    for (const r of results) {
      expect(r.limit).toBe(3);
      expect(r.resetAt % 3_600_000).toBe(0); // windows are aligned to the epoch on both backends
      expect(r.resetAt).toBeGreaterThan(Date.now());
      expect(r.resetAt - Date.now()).toBeLessThanOrEqual(3_600_000);
    }
  });

  it("keeps a separate count per key", async () => {
    const store = getStore();
    freezeDate();
    await store.limit(key("a"), 1, 3600);
    expect((await store.limit(key("a"), 1, 3600)).success).toBe(false);
    expect((await store.limit(key("b"), 1, 3600)).success).toBe(true);
  });

  it("opens a new window after the old one ends", async () => {
    const store = getStore();
    // A minute, held still in its middle: Upstash expires the window's key by its own (real) clock.
    freezeDate();
    vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 90_000);
    expect((await store.limit(key("window"), 1, 60)).success).toBe(true);
    expect((await store.limit(key("window"), 1, 60)).success).toBe(false);
    vi.setSystemTime(Date.now() + 60_000);
    expect((await store.limit(key("window"), 1, 60)).success).toBe(true);
  });
}

describe("PostgresStore", () => {
  it("sweeps only windows that ended: a short limit's sweep keeps a daily limit's count", async () => {
    const store = new PostgresStore();
    const daily = `test:${run}:daily`;
    await store.limit(daily, 2, 86_400);
    await store.limit(daily, 2, 86_400);
    const { resetAt } = await store.limit(`test:${run}:short`, 5, 1);
    await new Promise((r) => setTimeout(r, resetAt - Date.now() + 5)); // until the short window has ended
    await store.sweepEndedWindows();
    expect((await store.limit(daily, 2, 86_400)).success).toBe(false);
    expect((await store.limit(`test:${run}:short`, 5, 1)).remaining).toBe(4); // a fresh window
  });

  const store = new PostgresStore();
  contract(() => store);
});

describe("UpstashStore without a server", () => {
  it("reads a miss when the REST endpoint is down, and answers a rate limit 503 provider_unavailable", async () => {
    const store = new UpstashStore({ url: "http://127.0.0.1:9", token: "t" });
    expect(await store.get("x")).toBeNull();
    await expect(store.set("x", 1)).resolves.toBeUndefined();
    await expect(store.limit("x", 1, 60)).rejects.toMatchObject({ status: 503, code: "provider_unavailable" });
  });
});

describe.skipIf(!reachable)(
  reachable
    ? "UpstashStore over a local Upstash-REST server"
    : `UpstashStore: SKIPPED, redis-server not reachable at ${REDIS_URL}`,
  () => {
    let server: UpstashServer;
    let store: UpstashStore;
    beforeAll(async () => {
      server = await startUpstashServer();
      // The contract, not the cache timeout: a slow round trip on a busy machine must not read as a miss here.
      process.env.CACHE_TIMEOUT_MS = "5000";
      resetConfig();
      store = new UpstashStore({ url: server.url, token: server.token });
    });
    afterAll(() => {
      delete process.env.CACHE_TIMEOUT_MS;
      resetConfig();
      return server?.close();
    });
    contract(() => store);

    it("reached redis-server with real commands (SET, the rate-limit script)", () => {
      const names = server.commands.map((c) => c[0].toUpperCase());
      expect(names).toContain("SET");
      expect(names.some((n) => n === "EVALSHA" || n === "EVAL")).toBe(true);
    });

    it("refuses a wrong token as a provider outage (503) in a rate limit, and as a miss in a cache read", async () => {
      const wrong = new UpstashStore({ url: server.url, token: "wrong" });
      await expect(wrong.limit("x", 1, 60)).rejects.toMatchObject({ status: 503, code: "provider_unavailable" });
      expect(await wrong.get("x")).toBeNull();
    });
  },
);
