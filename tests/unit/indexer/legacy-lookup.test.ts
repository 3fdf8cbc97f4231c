// A legacy token indexed by address through a node that holds only its TokenCreated: the search reads the generation's
// event (v0 to v3 index nothing, so the node is asked without a token topic), and storing it reads the block's time
// and nothing else (no deploying call, no token read).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { custom, encodeAbiParameters, encodeEventTopics, getAddress, toHex, type Address, type Hex } from "viem";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { setChainTransport } from "@/lib/platform/chain";
import { tokenCreatedV3Event } from "@/lib/platform/chain/generations";
import { eventContext, indexByAddress } from "@/lib/domains/launch/indexer/lookup";
import { isIndexedFactory } from "@/lib/domains/launch/indexer/factories";

const CHAIN = 990_002;
const V3 = getAddress("0x00000000000000000000000000000000000000a3");
const V31 = getAddress("0x00000000000000000000000000000000000000b3");
const LOCKER = getAddress("0x00000000000000000000000000000000000000c3");
const DEPLOYER = getAddress("0x1111111111111111111111111111111111111111");
const TOKEN = getAddress("0x00000000000000000000000000000000000000d1");
const BLOCK = 5_000;
const TIME = 1_750_000_000;

type RawLog = { address: Address; topics: Hex[]; data: Hex; logIndex: number };
function rawLog(event: typeof tokenCreatedV3Event, args: Record<string, unknown>) {
  const topics = encodeEventTopics({ abi: [event], eventName: "TokenCreated", args } as never) as Hex[];
  const rest = event.inputs.filter((i) => !i.indexed);
  const data = encodeAbiParameters(
    rest,
    rest.map((i) => args[i.name]),
  );
  return { topics, data };
}

/** A node holding `logs` in BLOCK; it records each method asked. */
function serve(logs: RawLog[]) {
  const methods: string[] = [];
  setChainTransport(
    CHAIN,
    custom({
      async request({ method, params }: { method: string; params: unknown[] }) {
        methods.push(method);
        if (method === "eth_chainId") return toHex(CHAIN);
        if (method === "eth_blockNumber") return toHex(BLOCK + 10);
        if (method === "eth_getBlockByNumber")
          return {
            number: params[0],
            hash: `0x${"b".repeat(64)}`,
            parentHash: `0x${"c".repeat(64)}`,
            timestamp: toHex(TIME),
            transactions: [],
          };
        if (method !== "eth_getLogs") throw new Error(`unexpected ${method}`);
        const [filter] = params as [{ address: Address[]; topics: (Hex | Hex[] | null)[] }];
        const lower = filter.address.map((a) => a.toLowerCase());
        return logs
          .filter((l) => lower.includes(l.address.toLowerCase()))
          .filter((l) =>
            filter.topics.every((t, i) => t === null || (Array.isArray(t) ? t : [t]).includes(l.topics[i]!)),
          )
          .map((l) => ({
            ...l,
            blockNumber: toHex(BLOCK),
            blockHash: `0x${"b".repeat(64)}`,
            transactionHash: `0x${"e".repeat(64)}`,
            transactionIndex: "0x0",
            logIndex: toHex(l.logIndex),
            removed: false,
          }));
      },
    }),
  );
  return methods;
}

beforeEach(async () => {
  process.env[`FACTORY_ADDRESS_${CHAIN}`] = "0x00000000000000000000000000000000000000f1";
  process.env[`LEGACY_FACTORIES_${CHAIN}`] = `clanker_v3:${V3}:${LOCKER},clanker_v3_1:${V31}:${LOCKER}`;
  process.env[`WETH_ADDRESS_${CHAIN}`] = "0x4200000000000000000000000000000000000006";
  resetConfig();
  await db().deleteFrom("tokens").where("chain_id", "=", CHAIN).execute();
});

afterEach(() => {
  setChainTransport(CHAIN, undefined);
  for (const name of ["FACTORY_ADDRESS", "LEGACY_FACTORIES", "WETH_ADDRESS"]) delete process.env[`${name}_${CHAIN}`];
  delete process.env.TOKEN_INDEX_GENERATIONS;
  resetConfig();
});

const v3Args = {
  tokenAddress: TOKEN,
  positionId: 77n,
  deployer: DEPLOYER,
  fid: 42n,
  name: "Legacy",
  symbol: "LGC",
  supply: 10n ** 29n,
  castHash: "0xcast",
};

describe("a legacy token indexed by address", () => {
  it("is found by its decoded address and stored from its event and block time alone", async () => {
    const other = { ...v3Args, tokenAddress: getAddress("0x00000000000000000000000000000000000000d2") };
    const methods = serve([
      { address: V3, logIndex: 1, ...rawLog(tokenCreatedV3Event, other) },
      { address: V3, logIndex: 2, ...rawLog(tokenCreatedV3Event, v3Args) },
    ]);
    const outcome = await indexByAddress(CHAIN, TOKEN);
    expect(outcome.status).toBe("indexed");
    const row = outcome.status === "indexed" ? outcome.token : null;
    expect(row).toMatchObject({
      contract_address: TOKEN.toLowerCase(),
      type: "clanker_v3",
      factory_address: V3.toLowerCase(),
      locker_address: LOCKER.toLowerCase(),
      lp_nft_id: "77",
      requestor_fid: 42,
      cast_hash: "0xcast",
      admin: DEPLOYER.toLowerCase(),
      // No pool: a v3 token could pair with any token, and the chain names no Uniswap V3 to find it.
      pair: null,
      // No Uniswap V3 deployment is known on this chain: no pool address, rather than a wrong one.
      pool_address: null,
      block_number: BLOCK,
      log_index: 2,
    });
    expect(row!.deployed_at.getTime()).toBe(TIME * 1000);
    expect(methods).not.toContain("eth_getTransactionByBlockNumberAndIndex");
    expect(methods).not.toContain("eth_call");
    expect(methods.filter((m) => m === "eth_getBlockByNumber")).toHaveLength(1);
  });

  it("is not searched for on a generation TOKEN_INDEX_GENERATIONS leaves out", async () => {
    process.env.TOKEN_INDEX_GENERATIONS = "clanker_v3_1";
    resetConfig();
    serve([{ address: V3, logIndex: 2, ...rawLog(tokenCreatedV3Event, v3Args) }]);
    expect(isIndexedFactory(CHAIN, V3)).toBe(false);
    expect(isIndexedFactory(CHAIN, V31)).toBe(true);
    expect((await indexByAddress(CHAIN, TOKEN)).status).toBe("not_found");
  });
});

describe("eventContext of a legacy event", () => {
  it("reads the block's time and not the deploying call", async () => {
    const methods = serve([]);
    const ctx = await eventContext(CHAIN, {
      address: V31,
      blockNumber: BigInt(BLOCK),
      blockHash: `0x${"b".repeat(64)}`,
      transactionHash: `0x${"e".repeat(64)}`,
      transactionIndex: 0,
      logIndex: 0,
      type: "clanker_v3_1",
      tokenAddress: TOKEN,
      tokenName: "L",
      tokenSymbol: "L",
      tokenAdmin: DEPLOYER,
      msgSender: DEPLOYER,
      lpNftId: 1n,
      locker: LOCKER,
      vault: null,
      fid: null,
      castHash: null,
      supply: null,
      tokenMetadata: "{}",
      startingTick: -230_400,
      interfaceAdmin: DEPLOYER,
      creatorRewardRecipient: DEPLOYER,
      interfaceRewardRecipient: DEPLOYER,
      amountTokensBought: 0n,
      vaultDuration: 0n,
      vaultPercentage: 0,
      pool: null,
    });
    expect(ctx).toEqual({ chainId: CHAIN, deployedAt: new Date(TIME * 1000), deployment: null });
    expect(methods.filter((m) => m !== "eth_chainId")).toEqual(["eth_getBlockByNumber"]);
  });
});
