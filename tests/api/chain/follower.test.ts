// The one log follower over a JSON-RPC endpoint that refuses like the real providers: more than N logs in a
// answer ("query returned more than 10000 results"), ranges wider than its limit, and 429 rate limits. The follower
// halves, backs off and still stores every block exactly once; it resumes from its checkpoint after a stop or a
// crash inside a range; a backfill keeps its own progress and joins the stream's checkpoint. And the migration that
// made the one checkpoint store copies the three old tables, both ways.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Kysely, sql } from "kysely";
import {
  type Address,
  type Hex,
  HttpRequestError,
  numberToHex,
  pad,
  ResponseBodyTooLargeError,
  RpcRequestError,
} from "viem";
import { db, type Database } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { getPublicClient, resetChainClients } from "@/lib/platform/chain/clients";
import { getBlockHeader } from "@/lib/platform/chain/reads";
import { ChainUnavailableError, withChainErrors } from "@/lib/platform/chain/errors";
import { classifyRangeError, type EventStream, followStream } from "@/lib/platform/chain/follower";
import { backfillStream, readCheckpoint } from "@/lib/platform/checkpoints";
import * as migration from "@/db/migrations/20261129170000_chain_checkpoints";
import { startFakeServer, type FakeServer } from "@/tests/helpers/fake-server";

const CHAIN = 777_001;
const EMITTER = "0x00000000000000000000000000000000000000e1" as Address;
const TOPIC = `0x${"ab".repeat(32)}` as Hex;
const HEAD = 1000;
/** The provider's limits: results per answer, blocks per range, and every RATE_EVERYth getLogs refused twice. */
const MAX_LOGS = 40;
const MAX_RANGE = 300;
const RATE_EVERY = 7;

let rpc: FakeServer;
let getLogs: Array<{ from: number; to: number; answer: "logs" | "too_many" | "range" | "429" }> = [];
let logsSeen = 0;

/** One log in every block from 1 to HEAD: a range of n blocks holds n logs. */
function logsIn(from: number, to: number) {
  const logs = [];
  for (let b = Math.max(1, from); b <= Math.min(to, HEAD); b++)
    logs.push({
      address: EMITTER,
      topics: [TOPIC],
      data: "0x",
      blockNumber: numberToHex(b),
      blockHash: pad(numberToHex(b), { size: 32 }),
      transactionHash: pad(numberToHex(b + 1_000_000), { size: 32 }),
      transactionIndex: "0x0",
      logIndex: "0x0",
      removed: false,
    });
  return logs;
}

function answer(call: { id: number; method: string; params?: Array<{ fromBlock: Hex; toBlock: Hex }> }) {
  if (call.method === "eth_chainId") return { jsonrpc: "2.0", id: call.id, result: numberToHex(CHAIN) };
  if (call.method === "eth_blockNumber") return { jsonrpc: "2.0", id: call.id, result: numberToHex(HEAD) };
  if (call.method === "eth_getBlockByNumber") {
    const n = Number((call.params as unknown as [Hex])[0]);
    const hash = pad(numberToHex(n), { size: 32 });
    const block = { number: numberToHex(n), hash, parentHash: hash, timestamp: numberToHex(1_700_000_000 + n) };
    return { jsonrpc: "2.0", id: call.id, result: { ...block, transactions: [], logsBloom: null, nonce: null } };
  }
  if (call.method !== "eth_getLogs") return { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: "nope" } };
  const from = Number(call.params![0]!.fromBlock);
  const to = Number(call.params![0]!.toBlock);
  if (to - from + 1 > MAX_RANGE) {
    getLogs.push({ from, to, answer: "range" });
    return {
      jsonrpc: "2.0",
      id: call.id,
      error: { code: -32000, message: `exceed maximum block range: ${MAX_RANGE}` },
    };
  }
  const logs = logsIn(from, to);
  if (logs.length > MAX_LOGS) {
    getLogs.push({ from, to, answer: "too_many" });
    return { jsonrpc: "2.0", id: call.id, error: { code: -32005, message: "query returned more than 10000 results" } };
  }
  getLogs.push({ from, to, answer: "logs" });
  return { jsonrpc: "2.0", id: call.id, result: logs };
}

beforeAll(async () => {
  rpc = await startFakeServer((req) => {
    const body = JSON.parse(req.body);
    const calls = Array.isArray(body) ? body : [body];
    // Rate limits: every RATE_EVERYth getLogs and the retry right after it (viem retries once by itself).
    if (calls.some((c) => c.method === "eth_getLogs")) {
      logsSeen += 1;
      const n = logsSeen % RATE_EVERY;
      if (n === 0 || n === 1) {
        if (logsSeen > 1) {
          getLogs.push({ from: -1, to: -1, answer: "429" });
          return { status: 429, headers: { "retry-after": "0" }, json: { error: "Too Many Requests" } };
        }
      }
    }
    const answers = calls.map(answer);
    return { json: Array.isArray(body) ? answers : answers[0] };
  });
  process.env[`RPC_URL_${CHAIN}`] = rpc.url;
  resetConfig();
  resetChainClients();
  await sql`CREATE TABLE follower_rows (block integer PRIMARY KEY)`.execute(db());
});
afterAll(async () => {
  delete process.env[`RPC_URL_${CHAIN}`];
  resetConfig();
  resetChainClients();
  await rpc.close();
});
beforeEach(async () => {
  getLogs = [];
  logsSeen = 0;
  await sql`DELETE FROM follower_rows`.execute(db());
  await db().deleteFrom("chain_checkpoints").execute();
});

type Rows = { blocks: number[] };

/** A stream of the fake chain's logs; `crashAt` throws inside the transaction of the range holding that block. */
function stream(name: string, options: { crashAt?: number } = {}): EventStream<Rows> {
  const client = getPublicClient(CHAIN);
  return {
    stream: name,
    chainId: CHAIN,
    sources: [{ address: EMITTER, startBlock: 1 }],
    async read({ fromBlock, toBlock, addresses }) {
      const logs = await withChainErrors(CHAIN, () =>
        client.getLogs({ address: addresses, fromBlock: BigInt(fromBlock), toBlock: BigInt(toBlock) }),
      );
      return { blocks: logs.map((l) => Number(l.blockNumber)) };
    },
    eventsOf: ({ blocks }) => blocks.map(() => ({ address: EMITTER })),
    async store(trx: Database, { blocks }) {
      for (const block of blocks) await sql`INSERT INTO follower_rows (block) VALUES (${block})`.execute(trx);
      if (options.crashAt !== undefined && blocks.includes(options.crashAt)) throw new Error("killed mid-range");
      return { stored: blocks.length, setAside: [] };
    },
  };
}

async function storedBlocks(): Promise<number[]> {
  const { rows } = await sql<{ block: number }>`SELECT block FROM follower_rows ORDER BY block`.execute(db());
  return rows.map((r) => r.block);
}
const every = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("the log follower", () => {
  it("halves on too many results and on a range limit, backs off on 429, and stores every block exactly once", async () => {
    const sizes: number[] = [];
    const run = await followStream(stream("fake-a"), {
      maxBlockRange: 2000,
      onProgress: (p) => sizes.push(p.rangeSize),
    });
    expect(run).toMatchObject({ head: HEAD, target: HEAD, fromBlock: 1, toBlock: HEAD, complete: true, events: HEAD });
    expect(await storedBlocks()).toEqual(every(1, HEAD)); // the primary key refuses a block stored twice
    expect(await readCheckpoint({ stream: "fake-a", chainId: CHAIN, address: EMITTER })).toBe(HEAD);
    const kinds = new Set(getLogs.map((g) => g.answer));
    expect([...kinds].sort()).toEqual(["429", "logs", "range", "too_many"]);
    // Every answered range holds at most MAX_LOGS blocks, and they tile 1..HEAD with no overlap.
    const answered = getLogs.filter((g) => g.answer === "logs");
    expect(answered.every((g) => g.to - g.from + 1 <= MAX_LOGS)).toBe(true);
    expect(answered.flatMap((g) => every(g.from, g.to))).toEqual(every(1, HEAD));
    // It grew back after ranges that passed, and the size it learnt is kept for the next run.
    expect(Math.max(...sizes.slice(1))).toBeGreaterThan(Math.min(...sizes));
    expect(getLogs.filter((g) => g.answer === "too_many").length).toBeLessThan(answered.length);
  });

  it("stops after maxRanges and resumes at the checkpoint; a crash inside a range leaves it to the next run", async () => {
    const first = await followStream(stream("fake-b"), { maxBlockRange: 20, maxRanges: 3 });
    expect(first).toMatchObject({ fromBlock: 1, toBlock: 60, ranges: 3, complete: false });
    expect(await readCheckpoint({ stream: "fake-b", chainId: CHAIN, address: EMITTER })).toBe(60);
    // A run killed inside the range holding block 75: its rows roll back with the checkpoint that did not move.
    await expect(followStream(stream("fake-b", { crashAt: 75 }), { maxBlockRange: 20 })).rejects.toThrow(
      "killed mid-range",
    );
    expect(await readCheckpoint({ stream: "fake-b", chainId: CHAIN, address: EMITTER })).toBe(60);
    expect(await storedBlocks()).toEqual(every(1, 60));
    const rest = await followStream(stream("fake-b"), { maxBlockRange: 20 });
    expect(rest).toMatchObject({ fromBlock: 61, toBlock: HEAD, complete: true });
    expect(await storedBlocks()).toEqual(every(1, HEAD));
    // Nothing left: no range read.
    expect((await followStream(stream("fake-b"), { maxBlockRange: 20 })).ranges).toBe(0);
  });

  it("keeps a reorg margin (confirmations) and re-reads reorgDepth blocks below the checkpoint", async () => {
    const kept = await followStream(stream("fake-c"), { maxBlockRange: 40, confirmations: 5 });
    expect(kept).toMatchObject({ target: HEAD - 5, toBlock: HEAD - 5 });
    await sql`DELETE FROM follower_rows WHERE block > ${HEAD - 10}`.execute(db());
    const again = await followStream(stream("fake-c"), { maxBlockRange: 40, reorgDepth: 5 });
    expect(again.fromBlock).toBe(HEAD - 5 - 5 + 1);
    expect((await storedBlocks()).slice(-10)).toEqual(every(HEAD - 9, HEAD));
  });

  it("a backfill keeps its own progress, resumes from it, joins the stream's checkpoint and forgets its progress", async () => {
    const key = { stream: "fake-d", chainId: CHAIN, address: EMITTER };
    await followStream(stream("fake-d"), { maxBlockRange: 40, toBlock: 600 }); // the minute indexer got to 600
    await sql`DELETE FROM follower_rows`.execute(db());
    const part = await followStream(stream("fake-d"), {
      maxBlockRange: 40,
      toBlock: 800,
      maxRanges: 4,
      backfill: { fromBlock: 1 },
    });
    expect(part).toMatchObject({ fromBlock: 1, complete: false });
    const progress = await readCheckpoint({ ...key, stream: backfillStream("fake-d") });
    expect(progress).toBe(part.toBlock);
    expect(await readCheckpoint(key)).toBe(600); // below the stream's checkpoint: it does not move
    const rest = await followStream(stream("fake-d"), { maxBlockRange: 40, toBlock: 800, backfill: { fromBlock: 1 } });
    expect(rest).toMatchObject({ fromBlock: progress! + 1, toBlock: 800, complete: true });
    expect(await storedBlocks()).toEqual(every(1, 800));
    expect(await readCheckpoint(key)).toBe(800); // joined at 600 and carried on
    expect(await readCheckpoint({ ...key, stream: backfillStream("fake-d") })).toBeNull();
  });

  it("reads the providers' refusals as viem surfaces them", () => {
    const rpcError = (code: number, message: string) =>
      new ChainUnavailableError(CHAIN, "rpc_error", "the RPC failed", {
        cause: new RpcRequestError({ body: {}, url: rpc.url, error: { code, message } }),
      });
    const tooLarge = { kind: "too_large" };
    expect(classifyRangeError(rpcError(-32005, "query returned more than 10000 results"))).toEqual(tooLarge); // Infura
    expect(
      classifyRangeError(
        rpcError(-32602, "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range"),
      ),
    ).toEqual(tooLarge); // Alchemy
    expect(classifyRangeError(rpcError(-32000, "block range is too wide"))).toEqual(tooLarge); // Ankr
    expect(classifyRangeError(rpcError(-32602, "eth_getLogs is limited to a 10,000 range"))).toEqual(tooLarge); // QuickNode
    expect(classifyRangeError(rpcError(-32005, "daily request count exceeded, request rate limited"))).toEqual({
      kind: "rate_limited",
      retryAfterMs: null,
    });
    expect(classifyRangeError(rpcError(-32007, "10/second request limit reached"))).toMatchObject({
      kind: "rate_limited",
    });
    const http429 = new HttpRequestError({ url: rpc.url, status: 429, headers: new Headers({ "retry-after": "3" }) });
    expect(classifyRangeError(new ChainUnavailableError(CHAIN, "rpc_error", "x", { cause: http429 }))).toEqual({
      kind: "rate_limited",
      retryAfterMs: 3000,
    });
    // An answer over viem's body limit (thousands of logs with long texts), wrapped as viem's transport wraps it.
    const body = new HttpRequestError({ url: rpc.url, cause: new ResponseBodyTooLargeError({ maxSize: 1, size: 2 }) });
    expect(classifyRangeError(new ChainUnavailableError(CHAIN, "rpc_error", "x", { cause: body }))).toEqual(tooLarge);
    expect(classifyRangeError(rpcError(-32000, "header not found"))).toBeNull();
    expect(classifyRangeError(new Error("query returned more than 10000 results"))).toBeNull(); // not the RPC's answer
  });
});

describe("JSON-RPC batching (RPC_BATCH_SIZE)", () => {
  it("sends the block headers read in one tick as one HTTP request, at most RPC_BATCH_SIZE calls each", async () => {
    const before = rpc.requests.length;
    const blocks = every(1, 150).map(BigInt);
    const headers = await Promise.all(blocks.map((b) => getBlockHeader(CHAIN, b)));
    expect(headers.map((h) => Number(h!.timestamp))).toEqual(blocks.map((b) => 1_700_000_000 + Number(b)));
    const sent = rpc.requests.slice(before).map((r) => JSON.parse(r.body));
    expect(sent.map((body) => (Array.isArray(body) ? body.length : 1)).sort()).toEqual([100, 50]);
  });
});

describe("the checkpoint store's migration", () => {
  it("copies the three old tables into chain_checkpoints, and back", async () => {
    const any = db() as unknown as Kysely<any>;
    const at = new Date("2026-11-01T00:00:00Z");
    await any
      .insertInto("chain_checkpoints")
      .values([
        { stream: "token-created", chain_id: 8453, address: "0xf1", block: 10, updated_at: at },
        { stream: "fee-claims", chain_id: 8453, address: "0xf2", block: 20, updated_at: at },
        { stream: "airdrop-claims", chain_id: 8453, address: "0xf3", block: 30, updated_at: at },
      ])
      .execute();
    await migration.down(any);
    const old = async (table: string) => (await sql.raw(`SELECT * FROM ${table}`).execute(any)).rows;
    expect(await old("token_index_checkpoints")).toMatchObject([{ chain_id: 8453, factory: "0xf1" }]);
    await any.insertInto("token_index_checkpoints").values({ chain_id: 1, factory: "0xa1", last_block: 5 }).execute();
    await any.insertInto("fee_claim_checkpoints").values({ chain_id: 1, fee_locker: "0xa2", last_block: 6 }).execute();
    await any.insertInto("airdrop_claim_checkpoints").values({ chain_id: 1, airdrop: "0xa3", last_block: 7 }).execute();
    await migration.up(any);
    const rows = await any
      .selectFrom("chain_checkpoints")
      .select(["stream", "chain_id", "address", "block", "updated_at"])
      .orderBy("stream")
      .orderBy("chain_id")
      .execute();
    expect(rows.map((r) => [r.stream, r.chain_id, r.address, Number(r.block)])).toEqual([
      ["airdrop-claims", 1, "0xa3", 7],
      ["airdrop-claims", 8453, "0xf3", 30],
      ["fee-claims", 1, "0xa2", 6],
      ["fee-claims", 8453, "0xf2", 20],
      ["token-created", 1, "0xa1", 5],
      ["token-created", 8453, "0xf1", 10],
    ]);
    expect(rows.find((r) => r.address === "0xf1")!.updated_at).toEqual(at);
    for (const table of ["token_index_checkpoints", "fee_claim_checkpoints", "airdrop_claim_checkpoints"])
      await expect(sql.raw(`SELECT 1 FROM ${table}`).execute(any)).rejects.toThrow();
  });
});
