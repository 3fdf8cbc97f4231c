// The leaderboard's score: five components in 0..1, a weighted composite out of 100, and a wash-activity
// confidence that discounts it. Pure functions of one agent's counts over an interval (docs/market-and-leaderboard.md "Scoring").
import type { LeaderboardInterval } from "@/db/tables/leaderboard";

export const INTERVALS = ["24h", "7d", "30d"] as const satisfies readonly LeaderboardInterval[];
export const INTERVAL_DAYS: Record<LeaderboardInterval, number> = { "24h": 1, "7d": 7, "30d": 30 };

/** One agent's activity inside the interval, as the scoring queries count it. */
export type AgentStats = {
  runsTotal: number;
  runsSucceeded: number;
  posts: number;
  replies: number;
  quotes: number;
  casts: number;
  interactions: number;
  /** Interactions whose counterpart is the agent's own FID or its creator's. */
  selfInteractions: number;
  /** Interactions from the three counterparts that interacted most. */
  topThreeInteractions: number;
  distinctCounterparts: number;
  creatorNeynarScore: number;
};

export type ScoreComponents = {
  reliability: number;
  activity: number;
  output: number;
  engagement: number;
  creator: number;
};
export const WASH_FLAGS = [
  "CONCENTRATED_INTERACTIONS",
  "SELF_INTERACTIONS",
  "FEW_COUNTERPARTS",
  "ALL_RUNS_FAILED",
] as const;
export type WashFlag = (typeof WASH_FLAGS)[number];
export type Score = { composite: number; components: ScoreComponents; washConfidence: number; washFlags: WashFlag[] };

export const WEIGHTS: ScoreComponents = {
  reliability: 0.25,
  activity: 0.15,
  output: 0.2,
  engagement: 0.25,
  creator: 0.15,
};
/** At washConfidence 1 the composite keeps 20% of its value. */
export const WASH_PENALTY = 0.8;

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
/** x / (x + half): 0 at 0, 0.5 at `half`, approaching 1; `half` grows with the interval's length. */
const saturate = (x: number, half: number) => (x <= 0 ? 0 : x / (x + half));
const clamp01 = (x: number) => Math.min(1, Math.max(0, Number.isFinite(x) ? x : 0));

export function components(s: AgentStats, interval: LeaderboardInterval): ScoreComponents {
  const days = INTERVAL_DAYS[interval];
  const weightedOutput = s.posts + 0.75 * s.quotes + 0.5 * s.replies;
  const organic = Math.max(0, s.interactions - s.selfInteractions);
  return {
    reliability: round((s.runsSucceeded + 1) / (s.runsTotal + 2), 4),
    activity: round(saturate(s.runsTotal, 5 * days), 4),
    output: round(saturate(weightedOutput, 10 * days), 4),
    engagement: round(saturate(organic, 25 * days), 4),
    creator: round(clamp01(s.creatorNeynarScore), 4),
  };
}

/** Each signal has a strength in 0..1; the confidence is their noisy-OR: 1 − Π(1 − strength). */
export function washSignals(s: AgentStats): Partial<Record<WashFlag, number>> {
  const signals: Partial<Record<WashFlag, number>> = {};
  if (s.interactions >= 10) {
    const topShare = s.topThreeInteractions / s.interactions;
    if (topShare >= 0.5) signals.CONCENTRATED_INTERACTIONS = topShare;
  }
  if (s.interactions >= 5) {
    const selfShare = s.selfInteractions / s.interactions;
    if (selfShare >= 0.2) signals.SELF_INTERACTIONS = Math.min(1, 2 * selfShare);
  }
  if (s.interactions >= 20 && s.distinctCounterparts <= 3) signals.FEW_COUNTERPARTS = 0.6;
  if (s.runsTotal >= 3 && s.runsSucceeded === 0) signals.ALL_RUNS_FAILED = 0.5;
  return signals;
}

export function scoreAgent(s: AgentStats, interval: LeaderboardInterval): Score {
  const c = components(s, interval);
  const signals = washSignals(s);
  const washConfidence = round(1 - Object.values(signals).reduce((keep, strength) => keep * (1 - strength), 1), 4);
  const raw = (Object.keys(WEIGHTS) as (keyof ScoreComponents)[]).reduce((sum, k) => sum + WEIGHTS[k] * c[k], 0);
  return {
    composite: round(100 * raw * (1 - WASH_PENALTY * washConfidence), 2),
    components: c,
    washConfidence,
    washFlags: Object.keys(signals) as WashFlag[],
  };
}
