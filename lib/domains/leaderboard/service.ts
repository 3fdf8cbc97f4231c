// GET /api/droid/leaderboard: one page of an interval's ranked snapshot. Rows as the interface's
// Leaderboard row table; `score` only when the caller is an admin. Each scoring run replaces the snapshot
// wholesale, so a cursor names the snapshot it pages through (`at`) and is refused once it is replaced.
import type { z } from "zod";
import { db } from "@/db";
import type { LeaderboardInterval } from "@/db/tables/leaderboard";
import { checksum } from "@/lib/core/evm";
import { encodeCursor, staleCursor } from "@/lib/core/cursor";
import { findRankedAgents, findSnapshotComputedAt } from "./queries";
import { type leaderboardResponse, MAX_OFFSET, type LeaderboardCursor } from "./schemas";
import type { ScoreComponents, WashFlag } from "./scoring";

// The platform's default (its API reference); the interface document states none.
export const DEFAULT_INTERVAL: LeaderboardInterval = "24h";

/**
 * Without `interval` the cursor's interval is kept (a client paging on needs to send only the cursor),
 * else the default. A cursor made for another interval than the one asked for is ignored: page one.
 */
export function resolvePage(query: { interval?: LeaderboardInterval; cursor?: LeaderboardCursor }): LeaderboardCursor {
  const cursor = query.cursor;
  const interval = query.interval ?? cursor?.interval ?? DEFAULT_INTERVAL;
  return cursor && cursor.interval === interval ? cursor : { interval, offset: 0 };
}

/** When the interval's snapshot was computed (epoch ms), or undefined when there is none. */
async function snapshotAt(interval: LeaderboardInterval): Promise<number | undefined> {
  return (await findSnapshotComputedAt(db(), interval))?.getTime();
}

/**
 * A page of another snapshot than the cursor's would skip or repeat rows: the client is told to start
 * again from page one instead.
 */
function checkSnapshot(cursorAt: number | undefined, currentAt: number | undefined) {
  if (cursorAt === undefined || cursorAt === currentAt) return;
  const when = currentAt === undefined ? "cleared" : `re-scored at ${new Date(currentAt).toISOString()}`;
  throw staleCursor(`the leaderboard was ${when}`);
}

export { runSeries } from "./runs";

export async function listLeaderboard(
  query: { interval?: LeaderboardInterval; limit: number; cursor?: LeaderboardCursor },
  includeScore: boolean,
): Promise<z.input<typeof leaderboardResponse>> {
  const { interval, offset, at } = resolvePage(query);
  // Ranks are 1..N without gaps, so the page is a range of the (interval, rank) index.
  const rows = await findRankedAgents(db(), interval, offset, query.limit + 1);
  // Every row of a snapshot carries its computedAt; an empty page needs it read apart.
  const currentAt = rows.length
    ? rows[0].computed_at.getTime()
    : at !== undefined
      ? await snapshotAt(interval)
      : undefined;
  checkSnapshot(at, currentAt);
  const page = rows.slice(0, query.limit);
  const more = rows.length > query.limit && offset + query.limit <= MAX_OFFSET;
  return {
    data: page.map((r) => ({
      rank: r.rank,
      agentId: r.agent_id,
      agentName: r.name,
      fid: r.fid,
      token: {
        chainId: r.token_chain_id,
        address: checksum(r.token_address),
        name: r.token_name,
        symbol: r.token_symbol,
      },
      runs: { total: r.runs_total, succeeded: r.runs_succeeded, failed: r.runs_failed },
      actions: { posts: r.posts, replies: r.replies, quotes: r.quotes },
      castMetrics: { casts: r.casts, interactions: r.interactions },
      creator: { fid: r.creator_fid, neynarScore: r.creator_neynar_score },
      lastActiveAt: r.last_active_at.toISOString(),
      computedAt: r.computed_at.toISOString(),
      ...(includeScore
        ? {
            score: {
              composite: r.composite,
              // Stored from the Score the run computed (compute.ts).
              components: r.components as ScoreComponents,
              washConfidence: r.wash_confidence,
              washFlags: r.wash_flags as WashFlag[],
            },
          }
        : {}),
    })),
    cursor: more ? encodeCursor({ offset: offset + query.limit, interval, at: currentAt }) : null,
  };
}
