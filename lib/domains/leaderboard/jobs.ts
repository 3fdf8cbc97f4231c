// Leaderboard jobs: scoring per interval (scheduled), and ingesting a batch of activity records.
import { z } from "zod";
import { config } from "@/lib/core/config";
import { defineJob } from "@/lib/platform/jobs/define";
import type { JobSet } from "@/lib/platform/jobs/registry";
import { defineSchedule } from "@/lib/platform/jobs/schedule";
import { computeLeaderboard } from "./compute";
import { ingestRecords } from "./ingest";
import { activityRecord } from "./records";
import { INTERVALS } from "./scoring";

export const MAX_INGEST_BATCH = 5000;

export const scoreLeaderboardJob = defineJob({
  name: "leaderboard-score",
  schema: z.object({ interval: z.enum(INTERVALS) }),
  maxAttempts: 3,
  handle: ({ interval }) => computeLeaderboard(interval),
});

/** Unknown agents are retried, not failed: the batch holding their "agent" records may run later. */
export const ingestAgentActivityJob = defineJob({
  name: "agents-ingest",
  schema: z.object({ records: z.array(activityRecord).min(1).max(MAX_INGEST_BATCH) }),
  maxAttempts: 5,
  handle: ({ records }) => ingestRecords(records),
});

export const leaderboardJobs: JobSet = {
  jobs: [scoreLeaderboardJob, ingestAgentActivityJob],
  schedules: INTERVALS.map((interval) =>
    defineSchedule({
      name: `leaderboard-score-${interval}`,
      everySeconds: config().LEADERBOARD_SCORE_INTERVAL_SECONDS,
      job: scoreLeaderboardJob,
      payload: { interval },
    }),
  ),
};
