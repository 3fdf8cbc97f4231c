// The head follower: a token deployed by anyone is listed and streamed seconds after its block, not at the minute
// indexer's next run. Every HEAD_FOLLOW_INTERVAL_MS it reads each chain's head (one eth_blockNumber); only when the
// head moved does the one follower walk the TokenCreated stream from its checkpoint to that head (one eth_getLogs for
// every factory, then each new token's block time and deploying call). A block is read at the head, and once more
// when the head has gone TOKEN_INDEX_REORG_DEPTH blocks past the last re-read, so a reorg within that depth is read
// again as the minute run reads it. The minute indexer (token-index) stays the safety net. Self-hosted, a loop runs
// beside the job worker; on Vercel the follow-head schedule's job follows for its minute, then hands over to the next
// one (docs/indexing.md "Following the head").
import { z } from "zod";
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { remember } from "@/lib/core/remember";
import { configuredChainIds, getLatestBlockNumber } from "@/lib/platform/chain";
import { followStream } from "@/lib/platform/chain/follower";
import { defineJob } from "@/lib/platform/jobs/define";
import { defineSchedule } from "@/lib/platform/jobs/schedule";
import { kv } from "@/lib/platform/kv";
import { nudgeTokenStream } from "@/lib/domains/stream/service";
import { tokenCreatedFollowOptions, tokenCreatedStream } from "./follow";

/** One chain as its follower knows it: the head it walked to, and the head of its last re-read. */
export type HeadState = { chainId: number; walkedTo: number; rereadAt: number };

export type HeadPoll = { chainId: number; head: number; moved: boolean; tokens: number };

export const headState = (chainId: number): HeadState => ({
  chainId,
  walkedTo: -1,
  rereadAt: Number.NEGATIVE_INFINITY,
});

/** One poll of one chain: reads the head and, when it moved, follows TokenCreated up to it. */
export async function pollHead(state: HeadState): Promise<HeadPoll> {
  const { chainId } = state;
  const head = Number(await getLatestBlockNumber(chainId));
  if (head <= state.walkedTo) return { chainId, head, moved: false, tokens: 0 };
  const stream = tokenCreatedStream(chainId);
  if (!stream.sources.length) return { chainId, head, moved: true, tokens: 0 };
  const depth = config().TOKEN_INDEX_REORG_DEPTH;
  const reread = head - state.rereadAt >= Math.max(1, depth);
  const walk = await followStream(stream, {
    ...tokenCreatedFollowOptions(),
    reorgDepth: reread ? depth : 0,
    toBlock: head,
    head,
  });
  // A walk cut short (far behind: TOKEN_INDEX_MAX_RANGES) goes on at the next poll even if the head stays.
  if (walk.complete) state.walkedTo = head;
  if (reread) state.rereadAt = head;
  if (walk.stored > 0) nudgeTokenStream();
  return { chainId, head, moved: true, tokens: walk.stored };
}

export type HeadFollowSummary = { polls: number; moves: number; tokens: number; errors: number };

export type HeadFollowOptions = {
  intervalMs: number;
  /** Stop polling at this time (ms since the epoch); default never. */
  until?: number;
  signal?: AbortSignal;
  /** Asked before each poll: true ends the follow (another invocation takes over). */
  handedOver?: () => Promise<boolean>;
  chainIds?: number[];
  /** Told of each poll (tests, the latency bench). */
  onPoll?: (poll: HeadPoll) => void;
};

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });

/** Follows every chain's head (each chain in a loop of its own) until `until`, the signal, or a hand-over. */
export async function followHeads(options: HeadFollowOptions): Promise<HeadFollowSummary> {
  const until = options.until ?? Number.POSITIVE_INFINITY;
  const summary: HeadFollowSummary = { polls: 0, moves: 0, tokens: 0, errors: 0 };
  let over = false;
  const going = () => !over && !options.signal?.aborted && Date.now() < until;
  const follow = async (chainId: number) => {
    const state = headState(chainId);
    let failures = 0;
    while (going()) {
      if (options.handedOver && (await options.handedOver())) over = true;
      if (!going()) break;
      const started = Date.now();
      try {
        const poll = await pollHead(state);
        summary.polls += 1;
        if (poll.moved) summary.moves += 1;
        summary.tokens += poll.tokens;
        options.onPoll?.(poll);
        failures = 0;
      } catch (error) {
        // The RPC or the database away: keep trying, more slowly; the minute indexer still runs.
        summary.errors += 1;
        failures += 1;
        log.warn("head follower poll failed", { chainId, failures, error });
      }
      const wait = failures ? Math.min(30_000, options.intervalMs * 2 ** failures) : options.intervalMs;
      await pause(Math.min(until - Date.now(), started + wait - Date.now()), options.signal);
    }
  };
  await Promise.all((options.chainIds ?? configuredChainIds()).map(follow));
  return summary;
}

// --- Self-hosted: one loop per server process, beside the job worker. ---

const holder = remember(
  "launch.head-follower",
  (): { run?: { stop: AbortController; done: Promise<unknown> } } => ({}),
);

/** Starts following every chain's head in this process, unless it runs already or HEAD_FOLLOW_INTERVAL_MS is 0. */
export function startHeadFollower(): boolean {
  if (holder.run) return true;
  const intervalMs = config().HEAD_FOLLOW_INTERVAL_MS;
  if (!intervalMs) return false;
  const stop = new AbortController();
  const done = followHeads({ intervalMs, signal: stop.signal }).catch((error) =>
    log.error("head follower stopped", { error }),
  );
  holder.run = { stop, done };
  log.info("head follower started", { intervalMs, chains: configuredChainIds() });
  return true;
}

export async function stopHeadFollower(): Promise<void> {
  const run = holder.run;
  if (!run) return;
  run.stop.abort();
  await run.done;
  if (holder.run === run) holder.run = undefined;
}

export const headFollowerRunning = () => Boolean(holder.run);

// --- Vercel: a turn per minute, each handed to the next. ---

/** How long a turn may follow past its minute while the next turn has not started (QStash late, a cold start). */
export const HANDOVER_GRACE_MS = 20_000;
const TURN_KEY = "head-follow:turn";
const RELEASED_KEY = "head-follow:released";
const KEY_TTL_SECONDS = 600;

export type TurnResult =
  | { status: "off" | "in_process" | "late" | "superseded" }
  | ({ status: "followed"; waitedMs: number } & HeadFollowSummary);

/**
 * Follows during turn `turn` (turns of `turnMs`, from the epoch): from when the previous turn lets go (it saw this
 * one start, or its grace ran out) to when the next turn starts (or this turn's grace runs out). So two turns never
 * poll at once, and a late next turn leaves no gap shorter than the grace. A turn that starts after its own time, or
 * finds a later turn started, does nothing.
 */
export async function followTurn(
  turn: number,
  options: { turnMs?: number; graceMs?: number; onPoll?: (poll: HeadPoll) => void } = {},
): Promise<TurnResult> {
  const { turnMs = 60_000, graceMs = HANDOVER_GRACE_MS } = options;
  const intervalMs = config().HEAD_FOLLOW_INTERVAL_MS;
  if (!intervalMs) return { status: "off" };
  if (headFollowerRunning()) return { status: "in_process" };
  const start = turn * turnMs;
  const end = start + turnMs;
  if (Date.now() >= end) return { status: "late" };
  const store = await kv();
  const current = await store.get<number>(TURN_KEY);
  if (current !== null && current >= turn) return { status: "superseded" };
  await store.set(TURN_KEY, turn, KEY_TTL_SECONDS);
  const began = Date.now();
  // The previous turn polls until it sees this one (within one interval) or its grace ends.
  if (current === turn - 1)
    while (Date.now() < start + graceMs && ((await store.get<number>(RELEASED_KEY)) ?? -1) < turn - 1)
      await pause(Math.min(250, intervalMs));
  const waitedMs = Date.now() - began;
  try {
    const summary = await followHeads({
      intervalMs,
      until: end + graceMs,
      onPoll: options.onPoll,
      handedOver: async () => Date.now() >= end && ((await store.get<number>(TURN_KEY)) ?? turn) > turn,
    });
    return { status: "followed", waitedMs, ...summary };
  } finally {
    await store.set(RELEASED_KEY, turn, KEY_TTL_SECONDS);
  }
}

export const followHeadJob = defineJob({
  name: "follow-head",
  schema: z.object({ turn: z.number().int().min(0) }),
  // A turn retried later is a late turn: the next one follows instead.
  maxAttempts: 1,
  handle: ({ turn }) => followTurn(turn),
});

export const followHeadSchedule = defineSchedule({
  name: "follow-head",
  everySeconds: 60,
  job: followHeadJob,
  payload: (minuteStart: Date) => ({ turn: Math.floor(minuteStart.getTime() / 60_000) }),
});
