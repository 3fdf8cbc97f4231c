// The backfill bench's fake provider: a synthetic history whose logs the platform SDK's ABIs decode, derived the same
// from the same seed, answered over JSON-RPC with a public provider's limits (log cap, block range, batch size,
// requests a second) and counted per method.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLANKERS } from "clanker-sdk";
import { type Abi, decodeEventLog, decodeFunctionData, encodeFunctionData, type Hex } from "viem";
import { deployInput, FIRST_BLOCK, GENERATIONS, History } from "@/tests/bench/backfill/history";
import { type FakeProvider, startFakeProvider } from "@/tests/bench/backfill/provider";

const abiOf = (generation: string) => (CLANKERS as unknown as Record<string, { abi: Abi }>)[generation]!.abi;

async function rpc(url: string, body: unknown): Promise<{ status: number; headers: Headers; json: any }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: await res.json() };
}
const call = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: "2.0", id, method, params });
const hex = (n: number) => `0x${n.toString(16)}`;

describe("the synthetic history", () => {
  const history = new History(20_000, "7");

  it("places every token once, in chain order, across every generation", () => {
    const indexes = [...history.indexesIn(FIRST_BLOCK, history.head)];
    expect(indexes).toEqual(Array.from({ length: 20_000 }, (_, i) => i));
    const counts = history.countsByGeneration();
    expect(Object.keys(counts)).toEqual([...GENERATIONS]);
    expect(Object.values(counts).every((n) => n > 0)).toBe(true);
    const blocks = indexes.map((i) => history.token(i).blockNumber);
    expect(blocks.every((b, i) => i === 0 || b >= blocks[i - 1]!)).toBe(true);
  });

  it("derives the same token from the same seed, and another from another seed", () => {
    expect(history.log(history.token(1234))).toEqual(new History(20_000, "7").log(history.token(1234)));
    expect(new History(20_000, "8").token(1234).tokenAddress).not.toBe(history.token(1234).tokenAddress);
  });

  it("encodes each generation's TokenCreated and deploying call as the SDK's ABIs read them", () => {
    for (const era of history.eras) {
      const token = history.token(era.firstToken + 3);
      const log = history.log(token);
      const decoded = decodeEventLog({ abi: abiOf(token.generation), topics: log.topics as [Hex], data: log.data });
      expect(decoded.eventName).toBe("TokenCreated");
      const args = decoded.args as unknown as Record<string, unknown>;
      expect(String(args.tokenAddress).toLowerCase()).toBe(token.tokenAddress);
      expect(args.name ?? args.tokenName).toBe(token.args.name ?? token.args.tokenName);
      const tx = history.transaction(token) as { input: Hex; to: string };
      const deploy = decodeFunctionData({ abi: abiOf(token.generation), data: tx.input });
      expect(deploy.functionName).toBe("deployToken");
      expect(JSON.stringify(deploy.args, (_, v) => (typeof v === "bigint" ? String(v) : v))).toContain(
        JSON.stringify(String(args.name ?? args.tokenName))
          .slice(1, -1)
          .slice(0, 8),
      );
    }
  });

  it("encodes every generation's deploying call byte for byte as viem's encodeFunctionData", () => {
    // A fresh history: the one above caches the tokens it built.
    const sampled = new History(200_000, "3");
    for (const era of sampled.eras) {
      const step = Math.max(1, Math.floor(era.count / 300));
      let compared = 0;
      for (let j = 0; j < era.count && compared < 300; j += step, compared++) {
        const token = sampled.token(era.firstToken + j);
        const viem = encodeFunctionData({
          abi: abiOf(token.generation),
          functionName: "deployToken",
          args: token.callArgs(),
        } as never);
        expect(deployInput(token), `${token.generation} token ${token.index}`).toBe(viem);
        expect((sampled.transaction(token) as { input: Hex }).input).toBe(viem);
        expect(sampled.transactionJson(token)).toBe(JSON.stringify(sampled.transaction(token)));
        expect(sampled.logJson(sampled.log(token))).toBe(JSON.stringify(sampled.log(token)));
      }
      expect(compared).toBeGreaterThanOrEqual(Math.min(300, era.count));
    }
  });

  it("names a block and a transaction back from their hashes", () => {
    const token = history.token(777);
    expect(history.blockOfHash(history.blockHash(token.blockNumber))).toBe(token.blockNumber);
    expect(history.tokenOfTransaction(token.transactionHash)).toBe(777);
    expect(history.blockOfHash(`0x${"ab".repeat(32)}`)).toBeNull();
  });
});

describe("the fake provider", () => {
  let provider: FakeProvider;
  beforeAll(async () => {
    provider = await startFakeProvider({
      tokens: 20_000,
      seed: "7",
      limits: { latencyMs: 0, maxLogs: 200, maxBlockRange: 10_000, requestsPerSecond: 1_000, maxBatch: 100 },
    });
  });
  afterAll(() => provider.close());

  it("answers the chain id, the head and block times", async () => {
    const { json } = await rpc(provider.url, [
      call("eth_chainId", [], 1),
      call("eth_blockNumber", [], 2),
      call("eth_getBlockByNumber", [hex(FIRST_BLOCK + 10), false], 3),
    ]);
    expect(json[0].result).toBe("0x2105");
    expect(Number(json[1].result)).toBe(provider.history.head);
    expect(Number(json[2].result.timestamp)).toBe(provider.history.blockTimestamp(FIRST_BLOCK + 10));
  });

  it("serves eth_getLogs by factory and topic over a range, and the deploying transaction by position", async () => {
    const v4 = provider.history.eras.find((e) => e.generation === "clanker_v4")!;
    const first = provider.history.token(v4.firstToken);
    const address = (CLANKERS as any).clanker_v4.address;
    const { json } = await rpc(
      provider.url,
      call("eth_getLogs", [
        {
          address: [address],
          topics: [[provider.history.log(first).topics[0]]],
          fromBlock: hex(first.blockNumber),
          toBlock: hex(first.blockNumber + 999),
        },
      ]),
    );
    expect(json.result.length).toBeGreaterThan(0);
    expect(json.result[0]).toEqual(provider.history.log(first));
    const other = await rpc(
      provider.url,
      call("eth_getLogs", [
        {
          address: (CLANKERS as any).clanker_v0.address,
          fromBlock: hex(first.blockNumber),
          toBlock: hex(first.blockNumber + 999),
        },
      ]),
    );
    expect(other.json.result).toEqual([]);
    const tx = await rpc(
      provider.url,
      call("eth_getTransactionByBlockHashAndIndex", [json.result[0].blockHash, json.result[0].transactionIndex]),
    );
    expect(tx.json.result.hash).toBe(first.transactionHash);
    expect(tx.json.result.to).toBe(address.toLowerCase());
  });

  it("writes its answers' text as JSON.stringify writes them, results spliced in", async () => {
    const history = provider.history;
    const tokens = history.eras.map((era) => history.token(era.firstToken + 5));
    const calls = tokens.map((t, i) =>
      call("eth_getTransactionByBlockHashAndIndex", [history.blockHash(t.blockNumber), hex(t.transactionIndex)], i),
    );
    const res = await fetch(provider.url, {
      method: "POST",
      body: JSON.stringify([...calls, call("eth_mine", [], 99)]),
    });
    const expected = [
      ...tokens.map((t, i) => ({ jsonrpc: "2.0", id: i, result: history.transaction(t) })),
      {
        jsonrpc: "2.0",
        id: 99,
        error: { code: -32601, message: "the method eth_mine does not exist/is not available" },
      },
    ];
    expect(await res.text()).toBe(JSON.stringify(expected));
    const v4 = history.token(history.eras.find((e) => e.generation === "clanker_v4")!.firstToken);
    const filter = { fromBlock: hex(v4.blockNumber), toBlock: hex(v4.blockNumber + 99) };
    const logs = await fetch(provider.url, { method: "POST", body: JSON.stringify(call("eth_getLogs", [filter], 7)) });
    const served = [...history.logsIn(v4.blockNumber, v4.blockNumber + 99, () => true)];
    expect(served.length).toBeGreaterThan(0);
    expect(await logs.text()).toBe(JSON.stringify({ jsonrpc: "2.0", id: 7, result: served }));
  });

  it("refuses a range over the limit and more logs than the cap, as public providers do", async () => {
    const tooWide = await rpc(
      provider.url,
      call("eth_getLogs", [{ fromBlock: hex(FIRST_BLOCK), toBlock: hex(FIRST_BLOCK + 10_000) }]),
    );
    expect(tooWide.json.error.code).toBe(-32614);
    // The v4 launch rush holds 250 tokens in 10,000 blocks at this size.
    const rush = provider.history.eras.find((e) => e.generation === "clanker_v4")!;
    const tooMany = await rpc(
      provider.url,
      call("eth_getLogs", [{ fromBlock: hex(rush.fromBlock), toBlock: hex(rush.fromBlock + 9_999) }]),
    );
    expect(tooMany.json.error).toMatchObject({ code: -32005, message: expect.stringMatching(/more than 200 results/) });
  });

  it("answers a batch of 100 calls and refuses one of 101", async () => {
    const hundred = await rpc(
      provider.url,
      Array.from({ length: 100 }, (_, i) => call("eth_chainId", [], i)),
    );
    expect(hundred.json).toHaveLength(100);
    const more = await rpc(
      provider.url,
      Array.from({ length: 101 }, (_, i) => call("eth_chainId", [], i)),
    );
    expect(more.json.error.code).toBe(-32600);
    expect((await rpc(provider.url, call("eth_mine"))).json.error.code).toBe(-32601);
  });

  it("counts requests, batches and calls per method", () => {
    const counts = provider.counts();
    expect(counts.calls.eth_chainId).toBeGreaterThanOrEqual(101);
    expect(counts.batches).toBeGreaterThanOrEqual(3);
    expect(counts.errors["-32005"]).toBe(1);
    expect(counts.logsServed).toBeGreaterThan(0);
  });
});

describe("the provider's rate limit", () => {
  it("answers 429 with Retry-After past its requests a second, and waits its latency", async () => {
    const provider = await startFakeProvider({ tokens: 100, limits: { latencyMs: 25, requestsPerSecond: 5 } });
    try {
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 8 }, () => rpc(provider.url, call("eth_blockNumber"))));
      expect(performance.now() - started).toBeGreaterThanOrEqual(24);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(3);
      expect(refused[0]!.headers.get("retry-after")).toBe("1");
      expect(provider.counts()).toMatchObject({ requests: 8, rateLimited: 3 });
    } finally {
      await provider.close();
    }
  });
});
