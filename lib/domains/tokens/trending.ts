// GET /api/tokens/trending: a page of the aggregator's trending pools of the chain's network, ordered as
// asked, kept to the pools of our tokens. Answers are cached 5 minutes; when the aggregator fails the
// last good answer is served (a week at most), else 503 provider_unavailable.
import { z } from "zod";
import { providerUnavailable, badRequest } from "@/lib/core/errors";
import { zChainId, zInt } from "@/lib/core/input";
import { kv } from "@/lib/platform/kv";
import { log } from "@/lib/core/log";
import {
  MarketProviderError,
  marketProviderEnabled,
  NETWORKS,
  TRENDING_PAGES,
  trendingPools,
  type GeckoPool,
  type TrendingDuration,
} from "@/lib/platform/market-data/geckoterminal";
import { tokenRowsByPools } from "./lookups";
import { toTokenObject, type TokenObject } from "./serialize";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

export const TRENDING_FRESH_SECONDS = 300;
export const TRENDING_LAST_GOOD_SECONDS = 7 * 86_400;

const WINDOWS = { m5: "5m", h1: "1h", h6: "6h", h24: "24h" } as const satisfies Record<string, TrendingDuration>;
/**
 * `<window>_trending` keeps the aggregator's own ranking for that window; `<window>_<metric>_<asc|desc>`
 * re-orders the page by price change, volume or transaction count (buys + sells) in that window.
 */
const ORDER = /^(m5|h1|h6|h24)_(trending|(price_change_percentage|volume_usd|tx_count)_(asc|desc))$/;

export const trendingQuery = z.object({
  page: zInt(1, TRENDING_PAGES).default(1),
  order: z
    .string()
    .regex(
      ORDER,
      "must be <m5|h1|h6|h24>_trending or <m5|h1|h6|h24>_<price_change_percentage|volume_usd|tx_count>_<asc|desc>",
    )
    .default("h24_price_change_percentage_desc"),
  chainId: zChainId.default(DEFAULT_CHAIN_ID),
});
export type TrendingQuery = z.infer<typeof trendingQuery>;

type TrendingEntry = GeckoPool["attributes"] & { token: TokenObject };
export type TrendingAnswer = { trending: string[]; tokens: Record<string, TrendingEntry> };

function metric(pool: GeckoPool, window: keyof typeof WINDOWS, name: string): number | null {
  const a = pool.attributes;
  if (name === "tx_count") {
    const t = a.transactions[window];
    return t ? t.buys + t.sells : null;
  }
  const value = name === "volume_usd" ? a.volume_usd[window] : a.price_change_percentage[window];
  return value === null || value === undefined ? null : Number(value);
}

/** Stable sort by the order's metric, pools without a value last. */
export function orderPools(pools: GeckoPool[], order: string): GeckoPool[] {
  const [, window, rest, name, dir] = ORDER.exec(order)!;
  if (rest === "trending") return pools;
  const sign = dir === "asc" ? 1 : -1;
  const keyed = pools.map((pool) => ({ pool, v: metric(pool, window as keyof typeof WINDOWS, name) }));
  keyed.sort((x, y) => (x.v === null ? (y.v === null ? 0 : 1) : y.v === null ? -1 : sign * (x.v - y.v)));
  return keyed.map((k) => k.pool);
}

async function fetchTrending(network: string, q: TrendingQuery): Promise<TrendingAnswer> {
  const window = q.order.slice(0, q.order.indexOf("_")) as keyof typeof WINDOWS;
  const pools = orderPools(await trendingPools(network, q.page, WINDOWS[window]), q.order);
  const rows = await tokenRowsByPools(
    pools.map((p) => p.attributes.address.toLowerCase()),
    q.chainId,
  );
  const answer: TrendingAnswer = { trending: [], tokens: {} };
  for (const pool of pools) {
    const key = pool.attributes.address.toLowerCase();
    const row = rows.get(key);
    if (!row || answer.tokens[key]) continue;
    answer.trending.push(key);
    answer.tokens[key] = { ...pool.attributes, token: toTokenObject(row) };
  }
  return answer;
}

/** Concurrent misses of one key share one aggregator call. */
const inFlight = new Map<string, Promise<TrendingAnswer>>();

export async function getTrending(
  q: TrendingQuery,
  setHeader?: (name: string, value: string) => void,
): Promise<TrendingAnswer> {
  const network = NETWORKS[q.chainId];
  if (!network) throw badRequest(`chainId: the market-data aggregator has no network for chain ${q.chainId}`);
  const key = `tokens:trending:${network}:${q.page}:${q.order}`;
  const store = await kv();
  const fresh = await store.get<TrendingAnswer>(`${key}:fresh`);
  if (fresh) return fresh;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = (async () => {
      if (!marketProviderEnabled()) throw new MarketProviderError("no market-data aggregator is configured");
      const answer = await fetchTrending(network, q);
      await store.set(`${key}:fresh`, answer, TRENDING_FRESH_SECONDS);
      await store.set(`${key}:last`, answer, TRENDING_LAST_GOOD_SECONDS);
      return answer;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  try {
    return await pending;
  } catch (error) {
    if (!(error instanceof MarketProviderError)) throw error;
    const last = await store.get<TrendingAnswer>(`${key}:last`);
    if (last) {
      log.warn("trending: serving the last good answer", { key, error: error.message });
      setHeader?.("x-trending-stale", "true");
      return last;
    }
    throw providerUnavailable(error.message, error.retryAfterSeconds);
  }
}
