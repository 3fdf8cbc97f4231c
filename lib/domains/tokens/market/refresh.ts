// Refreshes stored market rows (token_market) from the aggregator (or the local market: ./local.ts), one bounded
// batch per run: half the batch re-reads the stalest stored rows, half sweeps all tokens, newest first, to find
// pools that have started trading. Calls go 30 pools at a time; a 429 ends the run early, keeping what was written.
import { db } from "@/db";
import { config } from "@/lib/core/config";
import { kv } from "@/lib/platform/kv";
import { log } from "@/lib/core/log";
import {
  MarketProviderError,
  MULTI_POOLS_MAX,
  NETWORKS,
  poolsByAddress,
  relationshipAddress,
  type GeckoPool,
} from "@/lib/platform/market-data/geckoterminal";
import { marketDataProvider } from "@/lib/platform/market-data/local";
import {
  appendMarketSnapshots,
  deleteMarketSnapshotsBefore,
  findMarketTokensByIds,
  findStalestMarketTokens,
  findSweepTokens,
  touchMarketRows,
  upsertMarketRows,
  type MarketCandidate,
} from "@/lib/domains/tokens/queries/market";
import { refreshLocalMarket } from "./local";

const SWEEP_KEY = "market:refresh:sweep";
const CHAINS = Object.keys(NETWORKS).map(Number);

export type RefreshReport = {
  pools: number;
  updated: number;
  unchanged: number;
  calls: number;
  stoppedBy?: string;
  skipped?: string;
};

/** Stored rows not refreshed within one run interval, the stalest first. */
async function stalest(limit: number): Promise<MarketCandidate[]> {
  return findStalestMarketTokens(db(), CHAINS, config().MARKET_REFRESH_INTERVAL_SECONDS, limit);
}

/** The next tokens of the sweep (ids below the stored position; from the top again after the bottom). */
async function sweep(limit: number): Promise<MarketCandidate[]> {
  const store = await kv();
  const below = await store.get<number>(SWEEP_KEY);
  const rows = await findSweepTokens(db(), CHAINS, below, limit);
  await store.set(SWEEP_KEY, rows.length < limit ? 0 : rows.at(-1)!.id);
  return rows;
}

/** Our token's figures from a pool: as its base token, or (rarely) as the quote token. */
export function marketValues(pool: GeckoPool, token: Pick<MarketCandidate, "contract_address" | "supply">) {
  const a = pool.attributes;
  const num = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  const trades = a.transactions.h24;
  const isQuote =
    relationshipAddress(pool.relationships?.quote_token?.data?.id)?.toLowerCase() ===
    token.contract_address.toLowerCase();
  const price = num(isQuote ? a.quote_token_price_usd : a.base_token_price_usd);
  return {
    // The aggregator's market cap and FDV describe the base token; for a quote token: price x supply.
    market_cap_usd: isQuote
      ? price === null
        ? null
        : (price * Number(token.supply)) / 1e18
      : (num(a.market_cap_usd) ?? num(a.fdv_usd)),
    price_usd: price,
    volume_24h_usd: num(a.volume_usd.h24),
    tx_count_24h: trades ? Math.min(trades.buys + trades.sells, 2 ** 31 - 1) : null,
    price_change_1h: isQuote ? null : num(a.price_change_percentage.h1),
    price_change_24h: isQuote ? null : num(a.price_change_percentage.h24),
  };
}

async function store(rows: Array<{ token_id: number } & ReturnType<typeof marketValues>>, touched: number[]) {
  if (rows.length) {
    await upsertMarketRows(db(), rows);
    await appendMarketSnapshots(db(), rows);
  }
  // Stored rows the aggregator no longer knows keep their figures but go to the back of the queue.
  if (touched.length) await touchMarketRows(db(), touched);
}

/** The tokens of one run: these (a list's stale rows), or half the stalest rows and half the sweep. */
async function candidatesOf(maxPools: number, tokenIds?: number[]): Promise<MarketCandidate[]> {
  if (tokenIds) return findMarketTokensByIds(db(), CHAINS, tokenIds.slice(0, maxPools));
  const head = await stalest(Math.ceil(maxPools / 2));
  const seen = new Set(head.map((c) => c.id));
  return [...head, ...(await sweep(maxPools - head.length)).filter((c) => !seen.has(c.id))];
}

/**
 * One run of the market-data refresh: the scheduled batch, or the tokens a list found stale, from the aggregator or
 * the local market (./local.ts). Idempotent: it only overwrites with newer figures.
 */
export async function refreshMarketBatch(maxPools?: number, tokenIds?: number[]): Promise<RefreshReport> {
  const provider = marketDataProvider();
  if (provider === "local") return refreshLocalMarket(maxPools, tokenIds);
  if (provider !== "geckoterminal")
    return { pools: 0, updated: 0, unchanged: 0, calls: 0, skipped: "no market-data provider is configured" };
  return refreshFromAggregator(maxPools ?? config().MARKET_REFRESH_MAX_POOLS, tokenIds);
}

async function refreshFromAggregator(maxPools: number, tokenIds?: number[]): Promise<RefreshReport> {
  const candidates = await candidatesOf(maxPools, tokenIds);
  const report: RefreshReport = { pools: candidates.length, updated: 0, unchanged: 0, calls: 0 };
  const byChain = new Map<number, MarketCandidate[]>();
  for (const c of candidates) byChain.set(c.chain_id, [...(byChain.get(c.chain_id) ?? []), c]);
  for (const [chainId, list] of byChain) {
    for (let i = 0; i < list.length; i += MULTI_POOLS_MAX) {
      const chunk = list.slice(i, i + MULTI_POOLS_MAX);
      let pools: GeckoPool[];
      try {
        report.calls++;
        pools = await poolsByAddress(
          NETWORKS[chainId],
          chunk.map((c) => c.pool_address),
        );
      } catch (error) {
        if (!(error instanceof MarketProviderError)) throw error;
        log.warn("market refresh stopped", { chainId, error: error.message });
        report.stoppedBy = error.message;
        return report;
      }
      const found = new Map(pools.map((p) => [p.attributes.address.toLowerCase(), p]));
      const rows = chunk.flatMap((c) =>
        found.has(c.pool_address) ? [{ token_id: c.id, ...marketValues(found.get(c.pool_address)!, c) }] : [],
      );
      const touched = chunk.filter((c) => c.stored && !found.has(c.pool_address)).map((c) => c.id);
      await store(rows, touched);
      report.updated += rows.length;
      report.unchanged += chunk.length - rows.length;
    }
  }
  return report;
}

const PRUNE_BATCH = 5_000;
const PRUNE_MAX_BATCHES = 200;

/** Deletes market snapshots older than `olderThanDays`, in bounded batches (the rest goes in the next run). */
export async function pruneMarketSnapshots(
  olderThanDays = config().MARKET_SNAPSHOT_RETENTION_DAYS,
): Promise<{ deleted: number }> {
  const cutoff = new Date(Date.now() - olderThanDays * 86_400_000);
  let deleted = 0;
  for (let batch = 0; batch < PRUNE_MAX_BATCHES; batch++) {
    const n = await deleteMarketSnapshotsBefore(db(), cutoff, PRUNE_BATCH);
    deleted += n;
    if (n < PRUNE_BATCH) break;
  }
  return { deleted };
}
