// GET /api/droid/leaderboard/runs: each agent's runs over the scoring window, in buckets, for the leaderboard
// page's sparklines. The window ends at the interval's snapshot (so the lines show what was scored), else now.
import { db } from "@/db";
import type { LeaderboardInterval } from "@/db/tables/leaderboard";
import { countRunsPerBucket, findSnapshotComputedAt } from "./queries";
import { INTERVAL_DAYS } from "./scoring";

const HOUR = 3600;
const DAY = 86_400;

export async function runSeries(query: { interval: LeaderboardInterval; agentIds: string[] }) {
  const end = (await findSnapshotComputedAt(db(), query.interval)) ?? new Date();
  const bucketSeconds = query.interval === "24h" ? HOUR : DAY;
  const buckets = (INTERVAL_DAYS[query.interval] * DAY) / bucketSeconds;
  const from = new Date(end.getTime() - buckets * bucketSeconds * 1000);
  const rows = await countRunsPerBucket(db(), query.agentIds, from, bucketSeconds, buckets);
  const byAgent = new Map(
    query.agentIds.map((id) => [id, { succeeded: Array(buckets).fill(0), failed: Array(buckets).fill(0) }]),
  );
  for (const r of rows) {
    const series = byAgent.get(r.agent_id);
    if (series && r.bucket >= 0 && r.bucket < buckets) series[r.outcome][r.bucket] += Number(r.runs);
  }
  return {
    interval: query.interval,
    from: from.toISOString(),
    bucketSeconds,
    agents: query.agentIds.map((agentId) => ({ agentId, ...byAgent.get(agentId)! })),
  };
}
