// The market-data refresh: a job that refreshes one batch of token_market rows, scheduled every
// MARKET_REFRESH_INTERVAL_SECONDS (a Vercel cron at /api/cron/market-refresh; the local worker's tick).
import { z } from "zod";
import { config } from "@/lib/core/config";
import { defineJob } from "@/lib/platform/jobs/define";
import { defineRetention } from "@/lib/platform/jobs/retention";
import { defineSchedule } from "@/lib/platform/jobs/schedule";
import { pruneMarketSnapshots, refreshMarketBatch } from "./refresh";

export const refreshMarketJob = defineJob({
  name: "market-refresh",
  schema: z.object({ maxPools: z.number().int().min(1).max(3000).optional() }),
  // A failed run is not worth retrying: the next scheduled one picks up the same stalest rows.
  maxAttempts: 1,
  handle: ({ maxPools }) => refreshMarketBatch(maxPools),
});

export const refreshMarketSchedule = defineSchedule({
  name: "market-refresh",
  everySeconds: config().MARKET_REFRESH_INTERVAL_SECONDS,
  job: refreshMarketJob,
  payload: {},
});

/** The chart's history is bounded: snapshots older than MARKET_SNAPSHOT_RETENTION_DAYS go in the daily prune. */
export const marketSnapshotRetention = defineRetention({
  name: "market-snapshots",
  prune: () => pruneMarketSnapshots(),
});
