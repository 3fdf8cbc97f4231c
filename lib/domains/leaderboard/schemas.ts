// Query and answer of GET /api/droid/leaderboard (rows as the interface's Leaderboard row table).
import { z } from "zod";
import { zCursorOf } from "@/lib/core/cursor";
import { zLimit, zList, zWord } from "@/lib/core/input";
import { checksummedAddress } from "@/lib/core/answers";
import { INTERVALS, WASH_FLAGS } from "./scoring";

/** Deeper pages than this are refused: every list is bounded. */
export const MAX_OFFSET = 100_000;

/** Where a page starts in an interval's snapshot; `at` names the snapshot (its computedAt, epoch ms). */
export const leaderboardCursor = z.object({
  offset: z.number().int().min(0).max(MAX_OFFSET),
  interval: z.enum(INTERVALS),
  /** Absent in cursors made before it was added (not checked). */
  at: z.number().int().min(0).optional(),
});
export type LeaderboardCursor = z.infer<typeof leaderboardCursor>;

export const leaderboardQuery = z.object({
  interval: zWord(INTERVALS, "must be 24h, 7d or 30d")
    .optional()
    .describe("the scoring window; default 24h (as on the platform), or the cursor's"),
  limit: zLimit(100, 25),
  cursor: zCursorOf(leaderboardCursor)
    .optional()
    .describe("opaque: the previous page's cursor (409 once the leaderboard was re-scored)"),
});

const count = z.number().int();
const isoTime = z.iso.datetime().describe("ISO 8601, UTC");
const unit = z.number().min(0).max(1);

const scoreObject = z.object({
  composite: z.number().min(0).max(100).describe("weighted components out of 100, discounted by washConfidence"),
  components: z.object({ reliability: unit, activity: unit, output: unit, engagement: unit, creator: unit }),
  washConfidence: unit,
  washFlags: z.array(z.enum(WASH_FLAGS)),
});

export const leaderboardRow = z.object({
  rank: z.number().int().describe("1..N without gaps"),
  agentId: z.string(),
  agentName: z.string(),
  fid: z.number().int(),
  token: z.object({ chainId: z.number().int(), address: checksummedAddress, name: z.string(), symbol: z.string() }),
  runs: z.object({ total: count, succeeded: count, failed: count }),
  actions: z.object({ posts: count, replies: count, quotes: count }),
  castMetrics: z.object({ casts: count, interactions: count }),
  creator: z.object({ fid: z.number().int(), neynarScore: unit }),
  lastActiveAt: isoTime,
  computedAt: isoTime,
  score: scoreObject.optional().describe("admin callers only"),
});

export const leaderboardResponse = z.object({
  data: z.array(leaderboardRow),
  // null, not "", on the last page, as every other list here ends (docs/compat.md "Deliberate differences").
  cursor: z.string().nullable().describe("opaque base64url; null on the last page"),
});

/** Agents per GET /api/droid/leaderboard/runs request: a leaderboard page's worth. */
export const MAX_RUN_SERIES_AGENTS = 100;

export const runSeriesQuery = z.object({
  interval: zWord(INTERVALS, "must be 24h, 7d or 30d")
    .default("7d")
    .describe("the scoring window whose runs are counted (24h: hourly buckets; 7d and 30d: daily)"),
  agentIds: zList("[A-Za-z0-9._:-]{1,64}", "agent ids", MAX_RUN_SERIES_AGENTS, String).describe(
    `comma-separated agent ids (the leaderboard rows' agentId), at most ${MAX_RUN_SERIES_AGENTS}`,
  ),
});

const series = z.array(count).describe("runs per bucket, oldest first");

export const runSeriesResponse = z.object({
  interval: z.enum(INTERVALS),
  from: isoTime.describe("start of the first bucket: the snapshot's computedAt (or now) minus the interval"),
  bucketSeconds: z.number().int().describe("length of each bucket"),
  agents: z
    .array(z.object({ agentId: z.string(), succeeded: series, failed: series }))
    .describe("one per asked agent id, in the order asked; an unknown agent has only zeros"),
});
