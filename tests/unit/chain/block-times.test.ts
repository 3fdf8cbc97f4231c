// A range's block times and reads: on a chain of fixed block time (Base) one header proves the rule and the other
// blocks' times follow from their numbers; where the header disproves it (a local chain at the same id) each block is
// read once. Reads go in full batches, a few in flight, and a read refused for the rate is tried again alone.
import { afterEach, describe, expect, it } from "vitest";
import { custom, HttpRequestError, toHex, zeroAddress, type Hash } from "viem";
import { resetChainClients, setChainTransport, type TokenCreatedEvent } from "@/lib/platform/chain";
import { readInBatches } from "@/lib/platform/chain/batched";
import { blockTimeOf, chainSettings, FIXED_BLOCK_TIMES } from "@/lib/platform/chain/settings";
import { rangeContexts } from "@/lib/domains/launch/indexer/lookup";

const BASE = 8453;
const rule = FIXED_BLOCK_TIMES[BASE]!;

/** A node whose block n is at `timeOf(n)`; it records the blocks asked for. */
function serve(timeOf: (n: number) => number) {
  const asked: number[] = [];
  setChainTransport(
    BASE,
    custom({
      async request({ method, params }: { method: string; params: unknown[] }) {
        if (method !== "eth_getBlockByNumber") throw new Error(`unexpected ${method}`);
        const n = Number(params[0]);
        asked.push(n);
        const hash = toHex(n, { size: 32 });
        return { number: toHex(n), hash, parentHash: hash, timestamp: toHex(timeOf(n)), transactions: [] };
      },
    }),
  );
  resetChainClients();
  return asked;
}

/** A legacy event in `block` (its row needs its block's time and nothing else). */
const eventIn = (block: number, logIndex = 0) =>
  ({
    type: "clanker_v3",
    address: zeroAddress,
    blockNumber: BigInt(block),
    blockHash: toHex(block, { size: 32 }) as Hash,
    transactionHash: toHex(block * 10 + logIndex, { size: 32 }) as Hash,
    transactionIndex: logIndex,
    logIndex,
  }) as unknown as TokenCreatedEvent;

afterEach(() => {
  setChainTransport(BASE, undefined);
  resetChainClients();
});

describe("a range's block times", () => {
  it("on Base: one header read proves the 2 s rule, the other blocks' times follow from their numbers", async () => {
    const asked = serve((n) => blockTimeOf(rule, n));
    const events = [eventIn(30_000_000), eventIn(30_000_000, 1), eventIn(30_004_321), eventIn(30_009_999)];
    const contexts = await rangeContexts(BASE, events);
    expect(asked).toEqual([30_000_000]);
    expect(contexts.map((c) => c.deployedAt.getTime() / 1000)).toEqual(
      events.map((e) => rule.genesisTime + 2 * Number(e.blockNumber)),
    );
  });

  it("where the header disproves the rule (a local chain at Base's id), each block is read once", async () => {
    const asked = serve((n) => 1_800_000_000 + n);
    const contexts = await rangeContexts(BASE, [eventIn(10), eventIn(10, 1), eventIn(12), eventIn(17)]);
    expect(asked.sort((a, b) => a - b)).toEqual([10, 12, 17]);
    expect(contexts.map((c) => c.deployedAt.getTime() / 1000)).toEqual([
      1_800_000_010, 1_800_000_010, 1_800_000_012, 1_800_000_017,
    ]);
  });
});

describe("readInBatches", () => {
  it("keeps at most three batches of RPC_BATCH_SIZE in flight and tries a rate-limited read again alone", async () => {
    let inFlight = 0;
    let most = 0;
    const tries = new Map<number, number>();
    const reads = Array.from({ length: 1000 }, (_, i) => async () => {
      most = Math.max(most, ++inFlight);
      tries.set(i, (tries.get(i) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight -= 1;
      if (i === 7 && tries.get(i) === 1)
        throw new HttpRequestError({ url: "http://rpc", status: 429, headers: new Headers({ "Retry-After": "0" }) });
    });
    await readInBatches(reads);
    expect(most).toBe(300);
    expect(tries.get(7)).toBe(2);
    expect([...tries.entries()].filter(([i, n]) => i !== 7 && n !== 1)).toEqual([]);
  });

  it("stops at an error that is not the rate's, and throws it", async () => {
    const reads = Array.from({ length: 10 }, (_, i) => async () => {
      if (i === 3) throw new Error("reverted");
    });
    await expect(readInBatches(reads)).rejects.toThrow("reverted");
  });
});

describe("chainSettings", () => {
  /** The end of a synchronous run: chainSettings looks at the variables again after it. */
  const nextRun = () => new Promise<void>((resolve) => queueMicrotask(resolve));

  it("keeps its reading until a variable it read changes, looked at once per synchronous run", async () => {
    const env = { RPC_URL_10: "http://127.0.0.1:1" } as Record<string, string> as NodeJS.ProcessEnv;
    const first = chainSettings(10, env);
    expect(chainSettings(10, env)).toBe(first);
    env.UNRELATED = "1";
    await nextRun();
    expect(chainSettings(10, env)).toBe(first);
    env.RPC_URL_10 = "http://127.0.0.1:2";
    expect(chainSettings(10, env)).toBe(first);
    await nextRun();
    expect(chainSettings(10, env)).not.toBe(first);
    expect(chainSettings(10, env).rpcUrl).toBe("http://127.0.0.1:2");
    env.FACTORY_ADDRESS_10 = `0x${"ab".repeat(20)}`;
    await nextRun();
    expect(chainSettings(10, env).contracts.factory?.toLowerCase()).toBe(`0x${"ab".repeat(20)}`);
  });
});
