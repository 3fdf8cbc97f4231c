// The market-data refresh against a local stand-in of GeckoTerminal's pools/multi endpoint: batches of
// 30 per network, the figures it stores, the quote-token case, unknown pools, a 429 mid-run, the
// stalest-first queue, and the scheduled job.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/tokens/route";
import { call } from "@/tests/helpers/http";
import { sql } from "kysely";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { enqueue } from "@/lib/platform/jobs/define";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { refreshMarketJob } from "@/lib/domains/tokens/market/jobs";
import { refreshMarketBatch } from "@/lib/domains/tokens/market/refresh";
import { startFakeServer, type FakeReply, type FakeRequest, type FakeServer } from "@/tests/helpers/fake-server";
import { address, geckoPool, insertTokens } from "./fixtures";

let gecko: FakeServer;
let reply: (req: FakeRequest) => FakeReply;
const WETH = "0x4200000000000000000000000000000000000006";
let quoteTokenId = 0;
const unknownPool = address("b", 8040);

/** Answers every asked pool except the unknown one; the quote-token pool has our token as quote. */
function multi(req: FakeRequest): FakeReply {
  const asked = decodeURIComponent(req.path.split("/pools/multi/")[1] ?? "").split(",");
  return {
    json: {
      data: asked
        .filter((pool) => pool !== unknownPool)
        .map((pool) => {
          const n = parseInt(pool.slice(3), 16);
          const p = geckoPool(pool, address("c", n), { h24: String(n % 50), h1: "-1.25", volume: `${n}.5`, buys: n });
          if (pool === address("b", 8041)) {
            p.relationships = {
              base_token: { data: { id: `base_${WETH}`, type: "token" } },
              quote_token: { data: { id: `base_${address("c", n)}`, type: "token" } },
            };
          }
          return p;
        }),
    },
  };
}

const asked = () =>
  gecko.requests.flatMap((r) =>
    decodeURIComponent(r.path.split("/pools/multi/")[1] ?? "")
      .split(",")
      .filter(Boolean),
  );
const market = async (id: number) =>
  db().selectFrom("token_market").selectAll().where("token_id", "=", id).executeTakeFirst();

beforeAll(async () => {
  gecko = await startFakeServer((req) => reply(req));
  process.env.MARKET_DATA_PROVIDER = "geckoterminal";
  process.env.GECKOTERMINAL_BASE_URL = `${gecko.url}/api/v2`;
  process.env.PROVIDER_TIMEOUT_MS = "2000";
  resetConfig();
  const base = Array.from({ length: 40 }, (_, i) => ({
    pool_address: address("b", 8000 + i),
    contract_address: address("c", 8000 + i),
  }));
  const rows = await insertTokens([
    ...base,
    { pool_address: address("b", 8040), contract_address: address("c", 8040) },
    {
      pool_address: address("b", 8041),
      contract_address: address("c", 8041),
      supply: "100000000000000000000000000000",
    },
    { pool_address: address("b", 8050), contract_address: address("c", 8050), chain_id: 42161 },
    { pool_address: address("b", 8060), contract_address: address("c", 8060), chain_id: 900 }, // no aggregator network
    { pool_address: null, contract_address: address("c", 8070) },
  ]);
  quoteTokenId = rows[41].id;
});

afterAll(async () => {
  await gecko.close();
  for (const name of ["MARKET_DATA_PROVIDER", "GECKOTERMINAL_BASE_URL", "PROVIDER_TIMEOUT_MS"])
    delete process.env[name];
  resetConfig();
});

beforeEach(() => {
  reply = multi;
  gecko.requests.length = 0;
});

describe("refreshMarketBatch", () => {
  it("refreshes known pools in calls of at most 30 per network and stores their figures", async () => {
    const report = await refreshMarketBatch(100);
    expect(report).toMatchObject({ pools: 43, updated: 42, unchanged: 1, calls: 3 });
    expect(gecko.requests.map((r) => r.path.split("/pools/")[0]).sort()).toEqual([
      "/api/v2/networks/arbitrum",
      "/api/v2/networks/base",
      "/api/v2/networks/base",
    ]);
    expect(gecko.requests.map((r) => r.path.split("/multi/")[1].split(",").length).sort((a, b) => a - b)).toEqual([
      1, 12, 30,
    ]);
    const [first] = await db()
      .selectFrom("tokens")
      .select("id")
      .where("pool_address", "=", address("b", 8003))
      .execute();
    expect(await market(first.id)).toMatchObject({
      market_cap_usd: 12_000_000, // FDV when the aggregator has no verified market cap
      price_usd: 0.00012,
      volume_24h_usd: 8003.5,
      tx_count_24h: 8003 + 5,
      price_change_1h: -1.25,
      price_change_24h: 8003 % 50,
    });
    // Each refresh also appends a snapshot (the token page's chart).
    const snapshots = await db()
      .selectFrom("token_market_snapshots")
      .selectAll()
      .where("token_id", "=", first.id)
      .execute();
    expect(snapshots).toMatchObject([{ market_cap_usd: 12_000_000, price_usd: 0.00012, volume_24h_usd: 8003.5 }]);
    const unknown = await db()
      .selectFrom("tokens")
      .select("id")
      .where("pool_address", "=", unknownPool)
      .executeTakeFirstOrThrow();
    expect(await market(unknown.id)).toBeUndefined();
  });

  it("prices our token as the pool's quote token from the quote price and the supply", async () => {
    const row = await market(quoteTokenId);
    expect(row).toMatchObject({ price_usd: 3000.1, price_change_1h: null, price_change_24h: null });
    expect(row!.market_cap_usd! / (3000.1 * 1e11)).toBeCloseTo(1, 12); // 100 billion tokens at the quote price
  });

  it("re-reads the stalest stored rows first, and stops at a 429 keeping what it wrote", async () => {
    await db()
      .updateTable("token_market")
      .set({ updated_at: sql`now() - interval '1 day'` })
      .where("token_id", "<=", 5)
      .execute();
    await db().updateTable("token_market").set({ price_usd: 1 }).where("token_id", "<=", 5).execute();
    let calls = 0;
    reply = (req) =>
      ++calls === 1 ? multi(req) : { status: 429, headers: { "retry-after": "30" }, text: "slow down" };
    const report = await refreshMarketBatch(60);
    expect(report.stoppedBy).toMatch(/429/);
    const firstCall = asked().slice(0, 30);
    for (let n = 8000; n < 8005; n++) expect(firstCall).toContain(address("b", n));
    const refreshed = await db()
      .selectFrom("token_market")
      .select(["token_id", "price_usd"])
      .where("token_id", "<=", 5)
      .execute();
    expect(refreshed.every((r) => r.price_usd === 0.00012)).toBe(true);
  });

  it("skips the run when no aggregator is configured", async () => {
    process.env.MARKET_DATA_PROVIDER = "none";
    resetConfig();
    try {
      expect(await refreshMarketBatch(10)).toMatchObject({ calls: 0, skipped: expect.any(String) });
      expect(gecko.requests).toHaveLength(0);
    } finally {
      process.env.MARKET_DATA_PROVIDER = "geckoterminal";
      resetConfig();
    }
  });
});

describe("the market-refresh job", () => {
  it("is scheduled every MARKET_REFRESH_INTERVAL_SECONDS (600 by default)", () => {
    expect(jobs.schedules.get("market-refresh")).toMatchObject({ everySeconds: 600, job: refreshMarketJob });
  });

  it("runs a batch as a job", async () => {
    const { id } = await enqueue(refreshMarketJob, { maxPools: 10 });
    const outcomes = await runDueJobs(jobs, 50);
    expect(outcomes.find((o) => o.id === id)).toMatchObject({ status: "done" });
    expect(gecko.requests.length).toBeGreaterThan(0);
  });
});

describe("market figures in the lists", () => {
  const list = () => call(GET, `/api/tokens?includeMarket=true&q=${address("c", 8010)}`);
  const age = (id: number, seconds: number) =>
    db()
      .updateTable("token_market")
      .set({ updated_at: sql`now() - make_interval(secs => ${seconds})` })
      .where("token_id", "=", id)
      .execute();

  it("carry updatedAt; figures older than a refresh period are refreshed in the background (a job)", async () => {
    await refreshMarketBatch(100);
    const [token] = (await list()).body.data;
    expect(token.related!.market).toMatchObject({ stale: false, marketCap: expect.any(Number) });
    expect(Date.now() - Date.parse(token.related!.market!.updatedAt)).toBeLessThan(60_000);
    gecko.requests.length = 0;

    await age(token.id, 3600);
    const old = (await list()).body.data[0].related!.market;
    expect(old).toMatchObject({ stale: false, marketCap: expect.any(Number) });
    expect(Date.now() - Date.parse(old!.updatedAt)).toBeGreaterThan(3_500_000);
    await vi.waitFor(async () => expect(await runDueJobs(jobs, 50)).not.toHaveLength(0), { timeout: 5000 });
    expect(asked()).toEqual([address("b", 8010)]);
    const fresh = (await list()).body.data[0].related!.market;
    expect(Date.now() - Date.parse(fresh!.updatedAt)).toBeLessThan(60_000);
  });

  it("withholds figures older than MARKET_MAX_AGE_SECONDS (null, stale: true) rather than serve them as current", async () => {
    const [token] = (await list()).body.data;
    await age(token.id, 2 * 86_400);
    process.env.MARKET_DATA_PROVIDER = "none"; // no background refresh: the row stays old
    resetConfig();
    try {
      const market = (await list()).body.data[0].related!.market;
      expect(market).toMatchObject({ stale: true, marketCap: null, priceUsd: null, txCount24h: null });
      expect(Date.parse(market!.updatedAt)).toBeLessThan(Date.now() - 86_400_000);
    } finally {
      process.env.MARKET_DATA_PROVIDER = "geckoterminal";
      resetConfig();
    }
  });
});
