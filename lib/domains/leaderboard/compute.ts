// The scoring job's work: count each agent's activity in the interval, score it, and replace the
// interval's snapshot in agent_scores with the ranked result, in one transaction.
import { db, type Database } from "@/db";
import type { LeaderboardInterval } from "@/db/tables/leaderboard";
import {
  countCastsPerAgent,
  countInteractionsPerAgent,
  countRunsPerAgent,
  deleteIntervalScores,
  findCreatorScores,
  insertScores,
  lockIntervalScores,
} from "./queries";
import { INTERVAL_DAYS, scoreAgent, type AgentStats } from "./scoring";

type Counted = AgentStats & { agentId: string; lastActiveAt: Date };

function emptyStats(agentId: string, lastActiveAt: Date): Counted {
  return {
    agentId,
    lastActiveAt,
    runsTotal: 0,
    runsSucceeded: 0,
    posts: 0,
    replies: 0,
    quotes: 0,
    casts: 0,
    interactions: 0,
    selfInteractions: 0,
    topThreeInteractions: 0,
    distinctCounterparts: 0,
    creatorNeynarScore: 0,
  };
}

/** Agents with a run or a cast in (since, until], with every count the score needs. */
export async function countActivity(since: Date, until: Date, executor: Database = db()): Promise<Counted[]> {
  const [runs, casts, interactions] = await Promise.all([
    countRunsPerAgent(executor, since, until),
    countCastsPerAgent(executor, since, until),
    countInteractionsPerAgent(executor, since, until),
  ]);

  const byAgent = new Map<string, Counted>();
  const entry = (id: string, last: Date) => {
    const found = byAgent.get(id) ?? emptyStats(id, last);
    if (last > found.lastActiveAt) found.lastActiveAt = last;
    byAgent.set(id, found);
    return found;
  };
  for (const r of runs)
    Object.assign(entry(r.agent_id, r.last as Date), {
      runsTotal: Number(r.total),
      runsSucceeded: Number(r.succeeded),
    });
  for (const c of casts) {
    Object.assign(entry(c.agent_id, c.last as Date), {
      casts: Number(c.casts),
      posts: Number(c.posts),
      replies: Number(c.replies),
      quotes: Number(c.quotes),
    });
  }
  for (const i of interactions) {
    const found = byAgent.get(i.agent_id);
    if (!found) continue; // interactions alone do not put an agent on the board
    Object.assign(found, {
      interactions: i.interactions,
      distinctCounterparts: i.counterparts,
      topThreeInteractions: i.top3,
      selfInteractions: i.self,
    });
  }
  if (byAgent.size) {
    for (const a of await findCreatorScores(executor, [...byAgent.keys()]))
      byAgent.get(a.id)!.creatorNeynarScore = a.creator_neynar_score;
  }
  return [...byAgent.values()];
}

/**
 * Scores every active agent for the interval and replaces that interval's ranked snapshot.
 * `executor`: the seed passes its own connection (PGlite has only the one).
 */
export async function computeLeaderboard(interval: LeaderboardInterval, now = new Date(), executor: Database = db()) {
  const since = new Date(now.getTime() - INTERVAL_DAYS[interval] * 86_400_000);
  const scored = (await countActivity(since, now, executor))
    .map((stats) => ({ stats, score: scoreAgent(stats, interval) }))
    // Ties: more organic interactions first, then the agent id, so ranks are stable between runs.
    .sort(
      (a, b) =>
        b.score.composite - a.score.composite ||
        b.stats.interactions - b.stats.selfInteractions - (a.stats.interactions - a.stats.selfInteractions) ||
        (a.stats.agentId < b.stats.agentId ? -1 : 1),
    );
  const rows = scored.map(({ stats: s, score }, i) => ({
    interval,
    agent_id: s.agentId,
    rank: i + 1,
    composite: score.composite,
    components: JSON.stringify(score.components),
    wash_confidence: score.washConfidence,
    wash_flags: score.washFlags,
    runs_total: s.runsTotal,
    runs_succeeded: s.runsSucceeded,
    runs_failed: s.runsTotal - s.runsSucceeded,
    posts: s.posts,
    replies: s.replies,
    quotes: s.quotes,
    casts: s.casts,
    interactions: s.interactions,
    last_active_at: s.lastActiveAt,
    computed_at: now,
  }));
  await executor.transaction().execute(async (trx) => {
    // Two runs for the same interval would otherwise interleave their delete and insert.
    await lockIntervalScores(trx, interval);
    await deleteIntervalScores(trx, interval);
    await insertScores(trx, rows);
  });
  return { interval, agents: rows.length, computedAt: now.toISOString() };
}
