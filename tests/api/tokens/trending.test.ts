// GET /api/tokens/trending against a local stand-in of GeckoTerminal: ordering, the join to our tokens,
// the 5-minute cache, and every failure (429, 5xx, timeout, malformed) with and without a last good answer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/tokens/trending/route";
import { resetConfig } from "@/lib/core/config";
import { kv } from "@/lib/platform/kv";
import { call, expectError } from "@/tests/helpers/http";
import { startFakeServer, type FakeReply, type FakeServer } from "@/tests/helpers/fake-server";
import { address, geckoPool, insertTokens } from "./fixtures";

let gecko: FakeServer;
let reply: () => FakeReply;

const ours = [1, 2, 3].map((n) => ({ pool: address("b", 500 + n), token: address("c", 500 + n) }));
const foreign = address("b", 999);

beforeAll(async () => {
  gecko = await startFakeServer(() => reply());
  process.env.MARKET_DATA_PROVIDER = "geckoterminal";
  process.env.GECKOTERMINAL_BASE_URL = `${gecko.url}/api/v2`;
  process.env.PROVIDER_TIMEOUT_MS = "1000";
  resetConfig();
  await insertTokens(ours.map((o, i) => ({ pool_address: o.pool, contract_address: o.token, name: `Trend ${i + 1}` })));
});

afterAll(async () => {
  await gecko.close();
  for (const name of ["MARKET_DATA_PROVIDER", "GECKOTERMINAL_BASE_URL", "PROVIDER_TIMEOUT_MS"])
    delete process.env[name];
  resetConfig();
});

const healthy = (): FakeReply => ({
  json: {
    data: [
      geckoPool(ours[0].pool.toUpperCase().replace("0X", "0x"), ours[0].token, { h24: "5", volume: "300", buys: 1 }),
      geckoPool(foreign, address("c", 999), { h24: "900" }),
      geckoPool(ours[1].pool, ours[1].token, { h24: "50", volume: "100", buys: 20 }),
      geckoPool(ours[2].pool, ours[2].token, { h24: null, volume: "200", buys: 5 }),
    ],
  },
});

async function forget(qs: string) {
  // The cache keys are the service's; a test that needs a miss removes the fresh copy only.
  const store = await kv();
  const q = new URLSearchParams(qs);
  await store.delete(
    `tokens:trending:base:${q.get("page") ?? 1}:${q.get("order") ?? "h24_price_change_percentage_desc"}:fresh`,
  );
}

beforeEach(() => {
  reply = healthy;
});

describe("GET /api/tokens/trending", () => {
  it("orders the page by 24 h price change and keeps our pools only; cached 5 minutes at the edge", async () => {
    const res = await call(GET, "/api/tokens/trending");
    expect(res.status, res.text).toBe(200);
    expect(res.body.trending).toEqual([ours[1].pool, ours[0].pool, ours[2].pool]);
    expect(res.body.tokens[ours[1].pool]).toMatchObject({
      address: ours[1].pool,
      base_token_price_usd: "0.00012",
      price_change_percentage: { h24: "50" },
      token: { name: "Trend 2", pool_address: expect.any(String) },
    });
    expect(res.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=300, stale-while-revalidate=300");
    const asked = gecko.requests.at(-1)!;
    expect(asked.path).toBe("/api/v2/networks/base/trending_pools");
    expect(asked.query.get("page")).toBe("1");
    expect(asked.query.get("duration")).toBe("24h");
  });

  it("serves the cached answer without calling the aggregator again", async () => {
    await call(GET, "/api/tokens/trending?order=h1_trending");
    const calls = gecko.requests.length;
    reply = () => ({ status: 500, text: "down" });
    const again = await call(GET, "/api/tokens/trending?order=h1_trending");
    expect(again.status).toBe(200);
    expect(again.body.trending).toEqual([ours[0].pool, ours[1].pool, ours[2].pool]); // the aggregator's own order
    expect(gecko.requests.length).toBe(calls);
  });

  it("other orders: volume and transaction count, ascending and descending, with the window's duration", async () => {
    expect((await call(GET, "/api/tokens/trending?order=h24_volume_usd_asc")).body.trending).toEqual([
      ours[1].pool,
      ours[2].pool,
      ours[0].pool,
    ]);
    expect((await call(GET, "/api/tokens/trending?order=h24_tx_count_desc&page=2")).body.trending).toEqual([
      ours[1].pool,
      ours[2].pool,
      ours[0].pool,
    ]);
    expect(gecko.requests.at(-1)!.query.get("page")).toBe("2");
    await call(GET, "/api/tokens/trending?order=m5_trending");
    expect(gecko.requests.at(-1)!.query.get("duration")).toBe("5m");
  });

  describe("when the aggregator fails", () => {
    const failures: Array<[string, () => FakeReply]> = [
      ["429", () => ({ status: 429, headers: { "retry-after": "17" }, json: { status: { error_code: 429 } } })],
      ["a 5xx", () => ({ status: 503, text: "unavailable" })],
      ["a timeout", () => ({ hang: true })],
      ["a body that is not JSON", () => ({ text: "<html>oops</html>" })],
      [
        "a body of the wrong shape",
        () => ({ json: { data: [{ id: "x", attributes: { address: "not-an-address" } }] } }),
      ],
    ];

    it.each(failures)("serves the last good answer after %s", async (_label, failure) => {
      const qs = "order=h6_volume_usd_desc";
      reply = healthy;
      const good = await call(GET, `/api/tokens/trending?${qs}`);
      await forget(qs);
      reply = failure;
      const res = await call(GET, `/api/tokens/trending?${qs}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual(good.body);
      expect(res.headers.get("x-trending-stale")).toBe("true");
    });

    it.each(failures)("answers 503 provider_unavailable after %s when nothing was cached", async (label, failure) => {
      reply = failure;
      const res = await call(
        GET,
        `/api/tokens/trending?order=h1_price_change_percentage_asc&page=${failures.findIndex(([l]) => l === label) + 3}`,
      );
      expectError(res, 503, "provider_unavailable");
      expect(res.headers.get("retry-after")).toBe(label === "429" ? "17" : "5");
    });
  });

  it("answers 503 when no aggregator is configured", async () => {
    process.env.MARKET_DATA_PROVIDER = "none";
    resetConfig();
    try {
      expectError(await call(GET, "/api/tokens/trending?page=10"), 503, "provider_unavailable");
    } finally {
      process.env.MARKET_DATA_PROVIDER = "geckoterminal";
      resetConfig();
    }
  });

  it("rejects page outside 1..10, an unknown order and a chain without a network, by name", async () => {
    for (const [qs, param] of [
      ["page=0", "page"],
      ["page=11", "page"],
      ["page=x", "page"],
      ["order=h24_price_change_percentage", "order"],
      ["order=h2_trending", "order"],
      ["chainId=0", "chainId"],
      ["chainId=999999", "chainId"],
    ]) {
      expect(
        expectError(await call(GET, `/api/tokens/trending?${qs}`), 400, "invalid_request").error.startsWith(
          `${param}: `,
        ),
      ).toBe(true);
    }
  });
});
