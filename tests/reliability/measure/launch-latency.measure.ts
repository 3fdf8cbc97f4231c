// Block-to-served latency of tokens deployed straight at the factory, for `npm run reliability`: the local chain mines
// a block every LATENCY_BLOCK_MS (2 s, Base's pace), users deploy through the factory at a steady rate, and the head
// follower runs as on a self-hosted server (HEAD_FOLLOW_INTERVAL_MS, default 1 s). For each token: the time from its
// block being mined to its first sight in GET /api/tokens (polled every LATENCY_LIST_POLL_MS) and on an open
// GET /api/tokens/stream. Also the RPC requests per minute the follower sends, idle (blocks, no tokens) and under the
// load. Passing: every token served, p95 within 5 s on both. Figures to RELIABILITY_OUT/launch-latency.json and,
// with RELIABILITY_OUT set, to docs/BENCH.md's "Launch latency" section.
import { execSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseEventLogs } from "viem";
import { expect, it } from "vitest";
import { config, resetConfig } from "@/lib/core/config";
import { tokenFactoryAbi } from "@/lib/platform/chain";
import { startHeadFollower, stopHeadFollower } from "@/lib/domains/launch/indexer/head";
import { GET as listTokens } from "@/app/api/tokens/route";
import { GET as streamTokens } from "@/app/api/tokens/stream/route";
import { SseReader } from "@/tests/api/stream/sse";
import { useTestChain } from "@/tests/helpers/chain";
import { type ChainRequest, countChainRequests } from "@/tests/helpers/chain-requests";
import { sendDirectDeploy } from "@/tests/helpers/factory-deploy";
import { call } from "@/tests/helpers/http";
import { type LaunchLatency, writeLaunchLatency } from "./launch-latency";

const chain = useTestChain();
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const BLOCK_MS = env("LATENCY_BLOCK_MS", 2000);
const TOKENS = env("LATENCY_TOKENS", 60);
const DEPLOY_EVERY_MS = env("LATENCY_DEPLOY_EVERY_MS", 1000);
const IDLE_MS = env("LATENCY_IDLE_MS", 30_000);
const LIST_POLL_MS = env("LATENCY_LIST_POLL_MS", 100);
const SERVED_TIMEOUT_MS = 30_000;
const BOUND_P95_MS = 5000;
/** Users' wallets in turn (hardhat accounts 2..9): no account has two deploys in one block. */
const ACCOUNTS = [2, 3, 4, 5, 6, 7, 8, 9];

function commitOf(): string | null {
  try {
    return execSync("git rev-parse --short HEAD", { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(xs: number[], p: number): number | null {
  if (!xs.length) return null;
  const sorted = xs.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const summary = (xs: number[]) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95), p99: percentile(xs, 99) });

/** Requests per minute by method over [from, to). */
function perMinute(requests: ChainRequest[], from: number, to: number) {
  const minutes = (to - from) / 60_000;
  const counts: Record<string, number> = {};
  for (const r of requests) if (r.at >= from && r.at < to) counts[r.method] = (counts[r.method] ?? 0) + 1;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    total: Math.round(total / minutes),
    byMethod: Object.fromEntries(Object.entries(counts).map(([m, n]) => [m, Math.round(n / minutes)])),
  };
}

it("serves tokens deployed straight at the factory within 5 s of their block (p95)", async () => {
  const c = chain();
  const request = (method: string, params: unknown[] = []) =>
    (c.provider.request as (a: { method: string; params: unknown[] }) => Promise<unknown>)({ method, params });
  Object.assign(process.env, { STREAM_POLL_MS: process.env.STREAM_POLL_MS ?? "500" });
  resetConfig();
  const requests = countChainRequests(c);
  await request("evm_setAutomine", [false]);
  const minedAt = new Map<number, number>();
  let mining = true;
  const miner = (async () => {
    for (let next = Date.now() + BLOCK_MS; mining; next += BLOCK_MS) {
      await sleep(next - Date.now());
      await request("evm_mine");
      minedAt.set(Number(await request("eth_blockNumber")), Date.now());
    }
  })();

  const { body } = (await streamTokens(new Request("http://localhost:3000/api/tokens/stream") as never, {
    params: Promise.resolve({}),
  })) as Response;
  const stream = new SseReader(body!);
  const onStream = new Map<string, number>();
  let streaming = true;
  const watching = stream
    .until(() => {
      for (const f of stream.of("token")) {
        const address = (JSON.parse(f.data!) as { contract_address: string }).contract_address.toLowerCase();
        if (!onStream.has(address)) onStream.set(address, Date.now());
      }
      return !streaming;
    }, 3_600_000)
    .catch(() => {});

  startHeadFollower();
  const deploys: Array<{ hash: `0x${string}`; token?: string; block?: number }> = [];
  try {
    await sleep(3 * BLOCK_MS); // the first poll walks from the start block
    const idleFrom = Date.now();
    await sleep(IDLE_MS);
    const idleTo = Date.now();

    const loadFrom = Date.now();
    const receipts: Promise<void>[] = [];
    const onList = new Map<string, number>();
    // Until the last deploy is sent, then SERVED_TIMEOUT_MS more (a loaded machine sends them late).
    let listDeadline = Number.POSITIVE_INFINITY;
    // GET /api/tokens, newest first, from the first deploy until every token is listed or the time is up.
    const lister = (async () => {
      for (;;) {
        const listed = await call(listTokens as never, "/api/tokens?limit=20&chainId=8453");
        const now = Date.now();
        const data = (listed.body as { data?: { contract_address: string }[] }).data ?? [];
        for (const t of data)
          if (!onList.has(t.contract_address.toLowerCase())) onList.set(t.contract_address.toLowerCase(), now);
        const all = deploys.length === TOKENS && deploys.every((d) => d.token && onList.has(d.token));
        if (all || now > listDeadline) return;
        await sleep(LIST_POLL_MS);
      }
    })();
    for (let i = 0; i < TOKENS; i++) {
      const sentAt = Date.now();
      const hash = await sendDirectDeploy(c, `Latency ${i} ${sentAt}`, ACCOUNTS[i % ACCOUNTS.length]);
      const d: (typeof deploys)[number] = { hash };
      deploys.push(d);
      receipts.push(
        c.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 100 }).then((r) => {
          d.block = Number(r.blockNumber);
          const [created] = parseEventLogs({ abi: tokenFactoryAbi, eventName: "TokenCreated", logs: r.logs });
          d.token = created?.args.tokenAddress.toLowerCase();
        }),
      );
      await sleep(sentAt + DEPLOY_EVERY_MS - Date.now());
    }
    listDeadline = Date.now() + SERVED_TIMEOUT_MS;
    await Promise.all(receipts);
    await lister;
    const loadTo = Date.now();
    const streamDeadline = Date.now() + 5000;
    while (deploys.some((d) => d.token && !onStream.has(d.token)) && Date.now() < streamDeadline) await sleep(50);

    const listMs: number[] = [];
    const streamMs: number[] = [];
    const failures: string[] = [];
    for (const d of deploys) {
      const mined = d.block === undefined ? undefined : minedAt.get(d.block);
      if (!d.token || mined === undefined) {
        failures.push(`${d.hash}: no receipt or block time`);
        continue;
      }
      const listed = onList.get(d.token);
      if (listed === undefined) failures.push(`${d.token}: not listed in GET /api/tokens`);
      else listMs.push(listed - mined);
      const streamed = onStream.get(d.token);
      if (streamed === undefined) failures.push(`${d.token}: not received on the stream`);
      else streamMs.push(streamed - mined);
    }
    const list = summary(listMs);
    const streamed = summary(streamMs);
    if (list.p95 === null || list.p95 > BOUND_P95_MS) failures.push(`GET /api/tokens p95 ${list.p95} ms > 5000 ms`);
    if (streamed.p95 === null || streamed.p95 > BOUND_P95_MS) failures.push(`stream p95 ${streamed.p95} ms > 5000 ms`);
    const figures: LaunchLatency = {
      at: new Date().toISOString(),
      commit: commitOf(),
      blockMs: BLOCK_MS,
      intervalMs: config().HEAD_FOLLOW_INTERVAL_MS,
      streamPollMs: config().STREAM_POLL_MS,
      tokens: TOKENS,
      deployEveryMs: DEPLOY_EVERY_MS,
      listMs: list,
      streamMs: streamed,
      maxListMs: Math.max(...listMs),
      rpcPerMinute: { idle: perMinute(requests, idleFrom, idleTo), load: perMinute(requests, loadFrom, loadTo) },
      passed: failures.length === 0,
      failures,
    };
    console.log(JSON.stringify(figures, null, 2));
    const out = process.env.RELIABILITY_OUT;
    if (out) {
      mkdirSync(out, { recursive: true });
      writeFileSync(path.join(out, "launch-latency.json"), `${JSON.stringify(figures, null, 2)}\n`);
      writeLaunchLatency(figures);
    }
    expect(failures).toEqual([]);
  } finally {
    await stopHeadFollower();
    streaming = false;
    await stream.close();
    await watching;
    mining = false;
    await miner;
    await request("evm_setAutomine", [true]);
  }
}, 600_000);
