// Hashes of counters (usage per key and day), one contract on both backends: the Postgres store's buffered
// increments and the Upstash store's HINCRBY pipeline must read back the same sums, expire, and keep keys apart.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { randomBytes } from "node:crypto";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { COUNTER_FLUSH_MS, PostgresStore } from "@/lib/platform/kv/postgres";
import { UpstashStore } from "@/lib/platform/kv/upstash";
import type { KeyValueStore } from "@/lib/platform/kv";
import { REDIS_URL, redisReachable, startUpstashServer, type UpstashServer } from "@/tests/helpers/upstash";

const run = randomBytes(4).toString("hex"); // redis-server is shared by parallel files and runs
const reachable = await redisReachable();

function contract(getStore: () => KeyValueStore) {
  const key = (name: string) => `test:${run}:${getStore().backend}:${name}`;

  it("adds increments per field and reads each hash back in the order asked, a missing one empty", async () => {
    const store = getStore();
    await store.incrementCounters(key("a"), { "GET /api/x 200": 1 }, 60);
    await store.incrementCounters(key("a"), { "GET /api/x 200": 2, "POST /api/y 429": 1 }, 60);
    await store.incrementCounters(key("b"), { deploys: 5 }, 60);
    expect(await store.readCounters([key("b"), key("missing"), key("a")])).toEqual([
      { deploys: 5 },
      {},
      { "GET /api/x 200": 3, "POST /api/y 429": 1 },
    ]);
    expect(await store.readCounters([])).toEqual([]);
  });

  it("sums concurrent increments exactly", async () => {
    const store = getStore();
    await Promise.all(Array.from({ length: 50 }, () => store.incrementCounters(key("many"), { n: 1 }, 60)));
    expect(await store.readCounters([key("many")])).toEqual([{ n: 50 }]);
  });

  it("forgets a hash once its TTL has passed since the last increment", async () => {
    const store = getStore();
    await store.incrementCounters(key("short"), { n: 1 }, 1);
    expect(await store.readCounters([key("short")])).toEqual([{ n: 1 }]);
    await vi.waitFor(async () => expect(await store.readCounters([key("short")])).toEqual([{}]), {
      timeout: 5000,
      interval: 200,
    });
  });
}

describe("PostgresStore counters", () => {
  const store = new PostgresStore();
  contract(() => store);

  it("buffers increments and writes them in one batch, not a row write per increment", async () => {
    const key = `test:${run}:buffered`;
    for (let i = 0; i < 100; i++) await store.incrementCounters(key, { n: 1 }, 60);
    const stored = () => db().selectFrom("kv_counters").select("count").where("key", "=", key).executeTakeFirst();
    expect(await stored()).toBeUndefined();
    // The flush timer writes them without a reader asking.
    await vi.waitFor(async () => expect(Number((await stored())?.count)).toBe(100), {
      timeout: COUNTER_FLUSH_MS + 5000,
      interval: 100,
    });
  });
});

describe.skipIf(!reachable)(
  reachable
    ? "UpstashStore counters over a local Upstash-REST server"
    : `UpstashStore counters: SKIPPED, redis-server not reachable at ${REDIS_URL}`,
  () => {
    let server: UpstashServer;
    let store: UpstashStore;
    beforeAll(async () => {
      server = await startUpstashServer();
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

    it("sends HINCRBY and EXPIRE in one pipeline", () => {
      const names = server.commands.map((c) => c[0].toUpperCase());
      expect(names).toContain("HINCRBY");
      expect(names).toContain("EXPIRE");
    });

    it("drops an increment when Redis refuses it, and fails a read as a provider outage", async () => {
      const wrong = new UpstashStore({ url: server.url, token: "wrong" });
      await wrong.incrementCounters("x", { n: 1 }, 60);
      await expect(wrong.readCounters(["x"])).rejects.toMatchObject({ status: 503, code: "provider_unavailable" });
    });
  },
);
