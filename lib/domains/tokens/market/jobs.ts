// The market-data refresh: a job that refreshes one batch of token_market rows, scheduled every
// MARKET_REFRESH_INTERVAL_SECONDS (a Vercel cron at /api/cron/market-refresh; the local worker's tick).
import { z } from "zod";
import { config } from "@/lib/core/config";
import { defineJob, enqueue } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import { tryRateLimit } from "@/lib/platform/kv/rate-limit";
import { marketDataProvider } from "@/lib/platform/market-data/local";
import type { JobSet } from "@/lib/platform/jobs/registry";
import type { Retention } from "@/lib/platform/jobs/retention";
import { defineSchedule } from "@/lib/platform/jobs/schedule";
import { pruneMarketSnapshots, refreshMarketBatch } from "./refresh";

/** Tokens one background refresh reads at most (four aggregator calls). */
export const BACKGROUND_REFRESH_MAX = 120;

export const refreshMarketJob = defineJob({
  name: "market-refresh",
  schema: z.object({
    maxPools: z.number().int().min(1).max(3000).optional(),
    tokenIds: z.array(z.number().int().min(1)).max(BACKGROUND_REFRESH_MAX).optional(),
  }),
  // A failed run is not worth retrying: the next scheduled one picks up the same stalest rows.
  maxAttempts: 1,
  handle: ({ maxPools, tokenIds }) => refreshMarketBatch(maxPools, tokenIds),
});

/**
 * A list served market figures older than the refresh period: refresh those tokens in the background (a job),
 * at most MARKET_BACKGROUND_REFRESHES_PER_MINUTE times a minute across requests, so the aggregator's own rate
 * limit is never spent by page views. Nothing without a provider.
 */
export async function refreshInBackground(tokenIds: number[]): Promise<void> {
  if (tokenIds.length === 0 || marketDataProvider() === "none") return;
  const rule = {
    name: "market-background-refresh",
    limit: config().MARKET_BACKGROUND_REFRESHES_PER_MINUTE,
    windowSeconds: 60,
  };
  if (!(await tryRateLimit(rule, "all"))) return;
  const ids = [...new Set(tokenIds)].sort((a, b) => a - b).slice(0, BACKGROUND_REFRESH_MAX);
  const minute = Math.floor(Date.now() / 60_000);
  await enqueue(refreshMarketJob, { tokenIds: ids }, { dedupeKey: `market-refresh:${minute}:${ids.join(",")}` });
  await dispatchJobs();
}

export const refreshMarketSchedule = defineSchedule({
  name: "market-refresh",
  everySeconds: config().MARKET_REFRESH_INTERVAL_SECONDS,
  job: refreshMarketJob,
  payload: {},
});

/** The chart's history is bounded: snapshots older than MARKET_SNAPSHOT_RETENTION_DAYS go in the daily prune. */
export const marketSnapshotRetention: Retention = { name: "market-snapshots", prune: () => pruneMarketSnapshots() };

export const marketJobs: JobSet = {
  jobs: [refreshMarketJob],
  schedules: [refreshMarketSchedule],
  retentions: [marketSnapshotRetention],
};
