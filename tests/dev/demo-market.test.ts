// The demo stays alive: a seeded embedded database served a month after it was seeded, with the local market as
// its provider (the embedded default). The in-process worker's market refresh brings every token up to that day,
// and the list, the market-cap sort, the token page's lookup and its chart all show the same current figures; a day
// later the running worker has moved them on.
import { afterAll, describe, expect, it, vi } from "vitest";
import { sql } from "kysely";
import { db } from "@/db";
import { seedDatabase } from "@/dev/seed";
import { GET as tokens } from "@/app/api/tokens/route";
import { GET as history } from "@/app/api/tokens/market-history/route";
import { jobs } from "@/lib/domains/jobs";
import { marketDataProvider } from "@/lib/platform/market-data/local";
import { startWorker, stopWorker } from "@/lib/platform/jobs/worker";
import { call } from "@/tests/helpers/http";

const DAY = 86_400_000;
const TOKENS = 120;

/** Moves Date (and PGlite's now(), which reads it) to `at`; timers keep running. */
function setClock(at: number) {
  vi.useFakeTimers({ toFake: ["Date"], now: at });
}

/** Runs the in-process worker, as `npm run dev` does, until every priced token's row is stamped after `since`. */
async function runWorkerUntilFresh(since: number) {
  startWorker(jobs, { force: true, pollMs: 50, schedules: ["market-refresh"] });
  try {
    await vi.waitFor(
      async () => {
        const { rows } = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM tokens t LEFT JOIN token_market m ON m.token_id = t.id
          WHERE t.pool_address IS NOT NULL AND (m.updated_at IS NULL OR m.updated_at < ${new Date(since)})`.execute(
          db(),
        );
        expect(rows[0].n).toBe(0);
      },
      { timeout: 30_000, interval: 200 },
    );
  } finally {
    await stopWorker();
  }
}

const list = async (query: string) => {
  const res = await call(tokens, `/api/tokens?includeMarket=true${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as Array<{ contract_address: string; chain_id: number; related: { market: any } }>;
};

afterAll(() => {
  vi.useRealTimers();
});

describe("the demo, a month after it was seeded", () => {
  const start = Date.now() + 31 * DAY;

  it("uses the local market on the embedded default", () => {
    expect(marketDataProvider()).toBe("local");
  });

  it("shows current figures on list rows, the market-cap sort, the token page and its chart", async () => {
    await seedDatabase({ tokens: TOKENS, seed: "alive" });
    setClock(start);
    const before = await list("");
    expect(before.every((t) => t.related.market === null || t.related.market.marketCap === null)).toBe(true);

    await runWorkerUntilFresh(start);

    const rows = await list("");
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const t of rows) {
      expect(t.related.market).toMatchObject({ stale: false, marketCap: expect.any(Number) });
      expect(t.related.market.priceUsd).toBeGreaterThan(0);
      expect(t.related.market.volume24h).toBeGreaterThan(0);
      expect(t.related.market.priceChangePercent24h).toEqual(expect.any(Number));
      expect(Date.parse(t.related.market.updatedAt)).toBeGreaterThanOrEqual(start);
    }

    const byCap = await list("&sortBy=market-cap");
    const caps = byCap.map((t) => t.related.market.marketCap);
    expect(caps.every((c) => typeof c === "number")).toBe(true);
    expect(caps).toEqual([...caps].sort((a, b) => b - a));

    // The top token by market cap: its page's lookup and its chart tell the same story as the list.
    const top = byCap[0];
    const [page] = await list(`&q=${top.contract_address}&chainId=${top.chain_id}`);
    expect(page.related.market).toEqual(top.related.market);
    const chart = await call(
      history,
      `/api/tokens/market-history?address=${top.contract_address}&chainId=${top.chain_id}`,
    );
    expect(chart.status, chart.text).toBe(200);
    const points = chart.body.points as Array<{ at: string; marketCap: number }>;
    expect(points.length).toBeGreaterThan(100); // 30 days every 6 hours
    expect(Date.parse(points[0].at)).toBeGreaterThanOrEqual(start - 30 * DAY);
    expect(points.at(-1)).toMatchObject({ at: top.related.market.updatedAt, marketCap: top.related.market.marketCap });

    // Every token with a pool has a chart over the last month.
    const { rows: charted } = await sql<{ tokens: number; without: number }>`
      SELECT count(*)::int AS tokens, count(*) FILTER (WHERE NOT EXISTS (
        SELECT 1 FROM token_market_snapshots s WHERE s.token_id = t.id AND s.taken_at >= ${new Date(start - 29 * DAY)}
      ))::int AS without
      FROM tokens t WHERE t.pool_address IS NOT NULL`.execute(db());
    expect(charted[0]).toEqual({ tokens: TOKENS, without: 0 });
  });

  it("moves on by itself a day later, on the running worker, keeping about four chart points a day", async () => {
    const [first] = await list("&sortBy=market-cap");
    setClock(start + DAY);
    await runWorkerUntilFresh(start + DAY);
    const [again] = await list(`&q=${first.contract_address}&chainId=${first.chain_id}`);
    expect(Date.parse(again.related.market.updatedAt)).toBeGreaterThanOrEqual(start + DAY);
    expect(again.related.market.marketCap).not.toBe(first.related.market.marketCap);
    const chart = await call(
      history,
      `/api/tokens/market-history?address=${first.contract_address}&chainId=${first.chain_id}&days=1`,
    );
    const points = chart.body.points as Array<{ at: string; marketCap: number }>;
    expect(points.length).toBeGreaterThanOrEqual(4);
    expect(points.length).toBeLessThanOrEqual(6);
    expect(points.at(-1)!.marketCap).toBe(again.related.market.marketCap);
  });
});
