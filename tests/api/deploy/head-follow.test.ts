// The head follower (lib/domains/launch/indexer/head.ts) on the in-process chain: a token deployed straight at the
// factory is stored at the next poll; a poll whose head did not move asks for nothing but the head; the re-read of
// TOKEN_INDEX_REORG_DEPTH blocks comes once per that many blocks; a turn hands over to the next with no overlap.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import {
  followHeadJob,
  followHeads,
  followTurn,
  type HeadPoll,
  headFollowerRunning,
  headState,
  pollHead,
  startHeadFollower,
  stopHeadFollower,
} from "@/lib/domains/launch/indexer/head";
import { tokenIndexCheckpoint } from "@/lib/domains/launch/indexer/follow";
import { useTestChain } from "@/tests/helpers/chain";
import { deployDirect } from "@/tests/helpers/factory-deploy";
import { type ChainRequest, countChainRequests } from "@/tests/helpers/chain-requests";

const chain = useTestChain();
let calls: ChainRequest[] = [];

beforeAll(() => {
  calls = countChainRequests(chain());
});
beforeEach(async () => {
  for (const table of ["tokens", "chain_checkpoints", "kv_cache"] as const) await db().deleteFrom(table).execute();
  process.env.HEAD_FOLLOW_INTERVAL_MS = "50";
  delete process.env.TOKEN_INDEX_REORG_DEPTH;
  resetConfig();
});
afterEach(() => stopHeadFollower());

const rowOf = (token: string) =>
  db().selectFrom("tokens").selectAll().where("contract_address", "=", token.toLowerCase()).executeTakeFirst();
const mine = (blocks = 1) =>
  chain().provider.request({ method: "hardhat_mine", params: [`0x${blocks.toString(16)}`] } as never);
const methods = () => calls.map((c) => c.method);
const getLogsFrom = () =>
  calls
    .filter((c) => c.method === "eth_getLogs")
    .map((c) => Number((c.params as [{ fromBlock: string }])[0].fromBlock));

describe("the head follower", () => {
  it("stores a token deployed straight at the factory at the next poll, and reads only the head when it stays", async () => {
    const c = chain();
    const state = headState(c.chainId);
    expect(await pollHead(state)).toMatchObject({ moved: true, tokens: 0 });
    calls.length = 0;
    expect(await pollHead(state)).toMatchObject({ moved: false, tokens: 0 });
    expect(methods()).toEqual(["eth_blockNumber"]);

    const { token, block } = await deployDirect(c, "Head A");
    calls.length = 0;
    expect(await pollHead(state)).toMatchObject({ head: block, moved: true, tokens: 1 });
    // One head read (the follower is given it), one range for every factory (v4's and the earlier generations'
    // getLogs, sent together); then the token's block and call.
    expect(methods().filter((m) => m === "eth_blockNumber")).toHaveLength(1);
    expect(new Set(getLogsFrom())).toEqual(new Set([block]));
    expect(getLogsFrom().length).toBeLessThanOrEqual(2);
    expect((await rowOf(token))?.block_number).toBe(block);
    expect(await tokenIndexCheckpoint(c.chainId, c.contracts.factory)).toBe(block);
  });

  it("re-reads TOKEN_INDEX_REORG_DEPTH blocks once the head has gone that far past the last re-read", async () => {
    process.env.TOKEN_INDEX_REORG_DEPTH = "3";
    resetConfig();
    const state = headState(chain().chainId);
    const first = await pollHead(state); // a re-read: the first poll of a process
    calls.length = 0;
    for (let i = 0; i < 4; i++) {
      await mine();
      await pollHead(state);
    }
    const h = first.head;
    // Blocks h+1 and h+2 alone; at h+3 the last three blocks and the new one; then h+4 alone.
    expect([...new Set(getLogsFrom())]).toEqual([h + 1, h + 2, h, h + 4]);
  });

  it("follows every chain until told to stop, each token within a poll of its block", async () => {
    const c = chain();
    const polls: HeadPoll[] = [];
    const stop = new AbortController();
    const following = followHeads({ intervalMs: 50, signal: stop.signal, onPoll: (p) => polls.push(p) });
    const { token } = await deployDirect(c, "Head B");
    const deadline = Date.now() + 5000;
    while (!(await rowOf(token)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    const summary = await following;
    expect(await rowOf(token)).toBeDefined();
    expect(summary).toMatchObject({ tokens: 1, errors: 0 });
    expect(summary.polls).toBe(polls.length);
  });

  it("hands a turn to the next with no two polling at once and no gap longer than a poll", async () => {
    const turnMs = 1000;
    const graceMs = 600;
    const turn = Math.floor(Date.now() / turnMs) + 1;
    const polled: Array<{ turn: number; at: number }> = [];
    const onPoll = (t: number) => () => polled.push({ turn: t, at: Date.now() });
    await new Promise((r) => setTimeout(r, turn * turnMs - Date.now()));
    const a = followTurn(turn, { turnMs, graceMs, onPoll: onPoll(turn) });
    // The next turn starts late (as a cold start would), within the grace: the first keeps polling until then.
    await new Promise((r) => setTimeout(r, (turn + 1) * turnMs + 200 - Date.now()));
    const b = followTurn(turn + 1, { turnMs, graceMs, onPoll: onPoll(turn + 1) });
    expect(await a).toMatchObject({ status: "followed", errors: 0 });
    expect(await b).toMatchObject({ status: "followed", errors: 0 });
    const lastA = Math.max(...polled.filter((p) => p.turn === turn).map((p) => p.at));
    const firstB = Math.min(...polled.filter((p) => p.turn === turn + 1).map((p) => p.at));
    expect(lastA).toBeGreaterThan((turn + 1) * turnMs + 100); // past its own time, waiting for the next
    expect(firstB).toBeGreaterThanOrEqual(lastA);
    expect(firstB - lastA).toBeLessThan(500);
    // A turn whose time has passed, or that a later one superseded, does nothing.
    expect(await followTurn(turn, { turnMs, graceMs })).toEqual({ status: "late" });
    // Turns twice as long put this turn's time ahead: not late, but turn + 1 has started.
    expect(await followTurn(turn, { turnMs: 2 * turnMs })).toEqual({ status: "superseded" });
  });

  it("leaves the turns to the in-process follower where one runs, and does nothing when off", async () => {
    expect(startHeadFollower()).toBe(true);
    expect(headFollowerRunning()).toBe(true);
    const turn = Math.floor(Date.now() / 60_000);
    expect(await followHeadJob.handle({ turn }, {} as never)).toEqual({ status: "in_process" });
    await stopHeadFollower();
    expect(headFollowerRunning()).toBe(false);
    process.env.HEAD_FOLLOW_INTERVAL_MS = "0";
    resetConfig();
    expect(startHeadFollower()).toBe(false);
    expect(await followHeadJob.handle({ turn }, {} as never)).toEqual({ status: "off" });
  });
});
