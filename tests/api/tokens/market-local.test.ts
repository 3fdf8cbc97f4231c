// The market refresh on the local market (the embedded default's provider): which tokens a run takes, the rows and
// history points it writes, that the figures are a function of the token and the time, and the latest point.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/db";
import { config, resetConfig } from "@/lib/core/config";
import { refreshMarketBatch } from "@/lib/domains/tokens/market/refresh";
import { refreshLocalMarket } from "@/lib/domains/tokens/market/local";
import { appendLocalSnapshots } from "@/lib/domains/tokens/queries/local-market";
import { marketDataProvider } from "@/lib/platform/market-data/local";
import { address, insertTokens } from "./fixtures";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A fixed moment 2 h 10 min after a 6-hour point, so the counts below do not depend on when the test runs. */
const AT = Date.UTC(2027, 0, 15, 14, 10);
let old = 0;
let young = 0;
let unpooled = 0;

const row = (id: number) => db().selectFrom("token_market").selectAll().where("token_id", "=", id).executeTakeFirst();
const points = (id: number) =>
  db().selectFrom("token_market_snapshots").selectAll().where("token_id", "=", id).orderBy("taken_at").execute();

beforeAll(async () => {
  const rows = await insertTokens([
    { contract_address: address("c", 7100), pool_address: address("b", 7100) },
    { contract_address: address("c", 7101), pool_address: address("b", 7101), deployed_at: new Date(AT - 2 * DAY) },
    { contract_address: address("c", 7102), pool_address: null },
  ]);
  [old, young, unpooled] = rows.map((r) => r.id);
});

afterAll(() => {
  delete process.env.MARKET_DATA_PROVIDER;
  resetConfig();
});

describe("the local market refresh", () => {
  it("is the provider on the embedded default", () => {
    expect(marketDataProvider()).toBe(config().embedded ? "local" : "geckoterminal");
    process.env.MARKET_DATA_PROVIDER = "local"; // the rest of this file, on PostgreSQL too
    resetConfig();
  });

  it("writes every pooled token's row at the run's time, and the history it misses", async () => {
    const report = await refreshLocalMarket(undefined, [old, young, unpooled], new Date(AT));
    expect(report).toMatchObject({ pools: 2, updated: 2, calls: 0 });
    const market = await row(old);
    expect(market).toMatchObject({ updated_at: new Date(AT) });
    expect(market!.market_cap_usd).toBeGreaterThan(0);
    expect(market!.price_usd! * 1e11).toBeCloseTo(market!.market_cap_usd!, 2); // the fixtures' supply: 1e11 tokens
    expect(market!.volume_24h_usd).toBeGreaterThan(0);
    expect(market!.tx_count_24h).toBeGreaterThanOrEqual(0);
    expect(market!.price_change_24h).toEqual(expect.any(Number));
    expect(await row(unpooled)).toBeUndefined();

    // 30 days of 6-hour points (120) and the run's own, which ends on the row's figures.
    const history = await points(old);
    expect(history).toHaveLength(121);
    expect(history[0].taken_at.getTime()).toBeGreaterThan(AT - 30 * DAY);
    expect(history.at(-1)).toMatchObject({ taken_at: new Date(AT), market_cap_usd: market!.market_cap_usd });
    // A token deployed two days ago has history from its deployment only.
    const since = await points(young);
    expect(since).toHaveLength(9);
    expect(since[0].taken_at.getTime()).toBeGreaterThan(AT - 2 * DAY);
  });

  it("takes only due tokens, and keeps one latest point per 6 hours", async () => {
    expect(await refreshLocalMarket(undefined, [old, young], new Date(AT + 60_000))).toMatchObject({ pools: 0 });
    const later = new Date(AT + HOUR);
    expect(await refreshLocalMarket(undefined, [old, young], later)).toMatchObject({ pools: 2, updated: 2 });
    const history = await points(old);
    expect(history).toHaveLength(121); // the previous latest point was replaced
    expect(history.at(-1)!.taken_at).toEqual(later);
    expect((await row(old))!.market_cap_usd).toBe(history.at(-1)!.market_cap_usd);
  });

  it("computes the same figures for the same token and moment", async () => {
    const before = (await points(old)).slice(0, 120);
    await db().deleteFrom("token_market_snapshots").where("token_id", "=", old).execute();
    await appendLocalSnapshots(db(), [old], new Date(AT), false);
    expect(await points(old)).toEqual(before);
  });

  it("is the scheduled refresh's path, and none writes nothing", async () => {
    expect(await refreshMarketBatch()).toMatchObject({ calls: 0 });
    process.env.MARKET_DATA_PROVIDER = "none";
    resetConfig();
    expect(await refreshMarketBatch()).toMatchObject({ pools: 0, skipped: expect.any(String) });
  });
});
