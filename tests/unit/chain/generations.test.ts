// The legacy generations: each hand-written TokenCreated against the platform SDK's ABI, each generation decoded from
// logs encoded with the SDK's ABIs, the factory table against CLANKERS, pool addresses against real Base pools, and
// readTokenCreatedLogs reading every generation of a chain's factories through one RPC.
import { afterEach, describe, expect, it } from "vitest";
import { CLANKERS } from "clanker-sdk";
import {
  custom,
  encodeAbiParameters,
  encodeEventTopics,
  getAbiItem,
  getAddress,
  toEventSelector,
  toHex,
  type Abi,
  type AbiEvent,
  type Address,
  type Hex,
} from "viem";
import {
  blockTimeOf,
  chainSettings,
  readTokenCreatedLogs,
  setChainTransport,
  TOKEN_CREATED_TOPIC,
  tokenFactoryAbi,
} from "@/lib/platform/chain";
import {
  BASE_LEGACY_START_BLOCK,
  decodeLegacyTokenCreated,
  LEGACY_GENERATIONS,
  LEGACY_TOKEN_CREATED_EVENTS,
  LEGACY_TOKEN_CREATED_TOPICS,
  legacyPoolsOf,
  poolCreatedEvent,
  PRODUCTION_LEGACY_FACTORIES,
  UNISWAP_V3,
  uniswapV3PoolAddress,
  type LegacyFactory,
  type LegacyGeneration,
} from "@/lib/platform/chain/generations";
import { FIXED_BLOCK_TIMES } from "@/lib/platform/chain/settings";

const vars = (env: Record<string, string>) => env as NodeJS.ProcessEnv;
const sdkTokenCreated = (abi: Abi) => getAbiItem({ abi, name: "TokenCreated" }) as AbiEvent;
const LEGACY_SDK = Object.values(CLANKERS).filter((c) => c.type !== "clanker_v4");
const sdkOf = (type: LegacyGeneration) => LEGACY_SDK.find((c) => c.type === type)!;

/** A raw log of `event` with `args`, encoded from the SDK's ABI item (topics for indexed inputs, data for the rest). */
function sdkLog(event: AbiEvent, args: Record<string, unknown>, address: Address, logIndex = 0) {
  const topics = encodeEventTopics({ abi: [event], eventName: event.name, args } as never) as Hex[];
  const rest = event.inputs.filter((i) => !i.indexed);
  const data = encodeAbiParameters(
    rest,
    rest.map((i) => args[i.name!]),
  );
  return {
    address,
    topics,
    data,
    blockNumber: 100n,
    blockHash: `0x${"b".repeat(64)}` as Hex,
    transactionHash: `0x${"a".repeat(63)}${logIndex}` as Hex,
    transactionIndex: 0,
    logIndex,
  };
}

const TOKEN = getAddress("0x1bc0c42215582d5a085795f4badbac3ff36d1bcb");
const DEPLOYER = getAddress("0x1111111111111111111111111111111111111111");
const LOCKER = getAddress("0x2222222222222222222222222222222222222222");
const factory = (type: LegacyGeneration) => PRODUCTION_LEGACY_FACTORIES[8453]!.find((f) => f.type === type)!;

describe("hand-written legacy ABIs", () => {
  it("match the SDK's TokenCreated of each generation: same inputs, same topic0", () => {
    for (const type of LEGACY_GENERATIONS) {
      const sdk = sdkTokenCreated(sdkOf(type).abi as Abi);
      const ours = LEGACY_TOKEN_CREATED_EVENTS[type];
      const shape = (e: AbiEvent) => e.inputs.map((i) => ({ name: i.name, type: i.type, indexed: Boolean(i.indexed) }));
      expect(shape(ours as AbiEvent), type).toEqual(shape(sdk));
      expect(LEGACY_TOKEN_CREATED_TOPICS[type], type).toBe(toEventSelector(sdk));
    }
    // v1 and v2 share a topic; every other generation has its own, and none is v4's.
    const topics = LEGACY_GENERATIONS.map((g) => LEGACY_TOKEN_CREATED_TOPICS[g]);
    expect(new Set(topics).size).toBe(4);
    expect(LEGACY_TOKEN_CREATED_TOPICS.clanker).toBe(LEGACY_TOKEN_CREATED_TOPICS.clanker_v2);
    expect(topics).not.toContain(TOKEN_CREATED_TOPIC);
  });

  it("list every legacy factory of CLANKERS, with its locker and vault, and nothing else", () => {
    const fromSdk = LEGACY_SDK.map((c) => {
      const related = (c as { related?: { locker?: string; vault?: string } }).related;
      return { chainId: c.chainId, type: c.type, factory: c.address, locker: related?.locker, vault: related?.vault };
    });
    const ours = Object.entries(PRODUCTION_LEGACY_FACTORIES).flatMap(([chainId, list]) =>
      list.map((f) => ({
        chainId: Number(chainId),
        type: f.type,
        factory: f.factory,
        locker: f.locker,
        vault: f.vault,
      })),
    );
    const byKey = (a: { chainId: number; factory: string }, b: { chainId: number; factory: string }) =>
      `${a.chainId}${a.factory}`.localeCompare(`${b.chainId}${b.factory}`);
    expect(ours.sort(byKey)).toEqual(fromSdk.sort(byKey));
  });
});

describe("decodeLegacyTokenCreated", () => {
  const base = {
    tokenAddress: TOKEN,
    deployer: DEPLOYER,
    name: "tokenbot",
    symbol: "CLANKER",
    supply: 10n ** 29n,
    castHash: "0xcast",
  };
  const empty = {
    vault: null,
    fid: null,
    castHash: null,
    supply: null,
    tokenMetadata: null,
    startingTick: null,
    interfaceAdmin: null,
    creatorRewardRecipient: null,
    interfaceRewardRecipient: null,
    amountTokensBought: null,
    vaultDuration: null,
    vaultPercentage: null,
  };
  // Decoded addresses are lowercase (abi-decode.ts).
  const common = {
    tokenAddress: TOKEN.toLowerCase(),
    tokenName: "tokenbot",
    tokenSymbol: "CLANKER",
    tokenAdmin: DEPLOYER,
  };

  it("v0 (proxy): the LP NFT and the token's own locker from the event", () => {
    const log = sdkLog(
      sdkTokenCreated(sdkOf("proxy").abi as Abi),
      { ...base, lpNftId: 1_223_215n, _supply: 10n ** 29n, lockerAddress: LOCKER },
      factory("proxy").factory,
    );
    expect(decodeLegacyTokenCreated(factory("proxy"), log)).toEqual({
      ...empty,
      ...common,
      type: "proxy",
      msgSender: DEPLOYER,
      lpNftId: 1_223_215n,
      locker: LOCKER,
      supply: 10n ** 29n,
    });
  });

  it("v1 (clanker) and v2: the FID and the cast; v2's positionId is the LP NFT", () => {
    for (const type of ["clanker", "clanker_v2"] as const) {
      const id = type === "clanker" ? { lpNftId: 7n } : { positionId: 7n };
      const log = sdkLog(
        sdkTokenCreated(sdkOf(type).abi as Abi),
        { ...base, ...id, fid: 42n, lockerAddress: LOCKER },
        factory(type).factory,
      );
      expect(decodeLegacyTokenCreated(factory(type), log), type).toEqual({
        ...empty,
        ...common,
        type,
        msgSender: DEPLOYER,
        lpNftId: 7n,
        locker: LOCKER,
        fid: 42n,
        castHash: "0xcast",
        supply: 10n ** 29n,
      });
    }
  });

  it("v3: the factory's locker, the event naming none", () => {
    const log = sdkLog(
      sdkTokenCreated(sdkOf("clanker_v3").abi as Abi),
      { ...base, positionId: 9n, fid: 0n },
      factory("clanker_v3").factory,
    );
    expect(decodeLegacyTokenCreated(factory("clanker_v3"), log)).toEqual({
      ...empty,
      ...common,
      type: "clanker_v3",
      msgSender: DEPLOYER,
      lpNftId: 9n,
      locker: "0x5ec4f99f342038c67a312a166ff56e6d70383d86",
      fid: 0n,
      castHash: "0xcast",
      supply: 10n ** 29n,
    });
  });

  it("v3.1: admins, tick, metadata, dev buy and vault; the factory's locker and vault", () => {
    const admin = getAddress("0x3333333333333333333333333333333333333333");
    const sender = getAddress("0x4444444444444444444444444444444444444444");
    const args = {
      tokenAddress: TOKEN,
      creatorAdmin: admin,
      interfaceAdmin: DEPLOYER,
      creatorRewardRecipient: admin,
      interfaceRewardRecipient: DEPLOYER,
      positionId: 11n,
      name: "tokenbot",
      symbol: "CLANKER",
      startingTickIfToken0IsNewToken: -230_400,
      metadata: '{"description":"d"}',
      amountTokensBought: 5n,
      vaultDuration: 2_592_000n,
      vaultPercentage: 30,
      msgSender: sender,
    };
    const log = sdkLog(sdkTokenCreated(sdkOf("clanker_v3_1").abi as Abi), args, factory("clanker_v3_1").factory);
    expect(decodeLegacyTokenCreated(factory("clanker_v3_1"), log)).toEqual({
      ...empty,
      ...common,
      type: "clanker_v3_1",
      tokenAdmin: admin,
      msgSender: sender,
      lpNftId: 11n,
      locker: "0x33e2eda238edcf470309b8c6d228986a1204c8f9",
      vault: "0x42a95190b4088c88dd904d930c79dec1158bf09d",
      tokenMetadata: '{"description":"d"}',
      startingTick: -230_400,
      interfaceAdmin: DEPLOYER,
      creatorRewardRecipient: admin,
      interfaceRewardRecipient: DEPLOYER,
      amountTokensBought: 5n,
      vaultDuration: 2_592_000n,
      vaultPercentage: 30,
    });
  });

  it("throws on another generation's event, and on data that does not decode", () => {
    const v3 = sdkLog(
      sdkTokenCreated(sdkOf("clanker_v3").abi as Abi),
      { ...base, positionId: 9n, fid: 0n },
      factory("clanker_v2").factory,
    );
    expect(() => decodeLegacyTokenCreated(factory("clanker_v2"), v3)).toThrow(/not the TokenCreated of clanker_v2/);
    expect(() => decodeLegacyTokenCreated(factory("clanker_v3"), { ...v3, data: "0x1234" })).toThrow();
  });
});

describe("legacyPoolsOf", () => {
  const v3 = UNISWAP_V3[8453]!;
  const token = "0x1bc0c42215582d5a085795f4badbac3ff36d1bcb";
  const weth = "0x4200000000000000000000000000000000000006";
  const tx = `0x${"ab".repeat(32)}` as const;
  const word = (value: string | number) => `0x${BigInt(value).toString(16).padStart(64, "0")}` as const;
  const created = (
    at: number,
    pool: string,
    fee = 10_000,
    token0 = token,
    token1 = weth,
    address: string = v3.factory,
  ) => ({
    address,
    topics: encodeEventTopics({
      abi: [poolCreatedEvent],
      eventName: "PoolCreated",
      args: { token0, token1, fee },
    }) as Hex[],
    data: `0x${word(200).slice(2)}${word(pool).slice(2)}` as Hex,
    transactionHash: tx,
    logIndex: at,
  });
  const find = (logs: ReturnType<typeof created>[], logIndex = 10) =>
    legacyPoolsOf(v3, logs, [{ tokenAddress: token, transactionHash: tx, logIndex }])[0];

  it("takes the factory's PoolCreated nearest before the token's TokenCreated, with the other token as the pair", () => {
    const pool = "0x00000000000000000000000000000000000000aa";
    expect(find([created(3, "0x00000000000000000000000000000000000000bb", 500), created(6, pool)])).toEqual({
      address: pool,
      pairedToken: weth,
      fee: 10_000,
    });
    const usdc = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
    expect(find([created(6, pool, 3_000, usdc, token)])).toEqual({ address: pool, pairedToken: usdc, fee: 3_000 });
  });

  it("ignores PoolCreated from another contract, after the token, of another token or another transaction", () => {
    const pool = "0x00000000000000000000000000000000000000aa";
    const other = "0x00000000000000000000000000000000000000cc";
    expect(find([created(6, pool, 10_000, token, weth, other)])).toBeNull();
    expect(find([created(12, pool)])).toBeNull();
    expect(find([created(6, pool, 10_000, other, weth)])).toBeNull();
    expect(find([{ ...created(6, pool), transactionHash: `0x${"cd".repeat(32)}` }])).toBeNull();
    expect(find([{ ...created(6, pool), data: "0x1234" }])).toBeNull();
  });
});

describe("uniswapV3PoolAddress", () => {
  // Real Base pools (WETH, 1%) of tokens the legacy factories launched, as public pool lists name them.
  it.each([
    ["CLANKER", "0x1bc0c42215582d5A085795f4baDbaC3ff36d1Bcb", "0xC1a6FBeDAe68E1472DbB91FE29B51F7a0Bd44F97"],
    ["BNKR", "0x22aF33FE49fD1Fa80c7149773dDe5890D3c76F3b", "0xAEC085E5A5CE8d96A7bDd3eB3A62445d4f6CE703"],
    ["DRB", "0x3ec2156D4c0A9CBdAB4a016633b7BcF6a8d68Ea2", "0x5116773e18A9C7bB03EBB961b38678E45E238923"],
  ] as const)("computes the %s/WETH pool on Base, in either token order", (_, token, pool) => {
    const weth = "0x4200000000000000000000000000000000000006";
    expect(uniswapV3PoolAddress(UNISWAP_V3[8453]!, token, weth, 10_000)).toBe(pool);
    expect(uniswapV3PoolAddress(UNISWAP_V3[8453]!, weth, token, 10_000)).toBe(pool);
    expect(uniswapV3PoolAddress(UNISWAP_V3[8453]!, token, weth, 3_000)).not.toBe(pool);
  });
});

describe("legacy factories of a chain (chainSettings)", () => {
  it("are the platform's own where the v4 factory is, none where another factory is configured", () => {
    expect(chainSettings(8453, vars({})).legacyFactories.map((f) => f.type)).toEqual(LEGACY_GENERATIONS);
    const prod = { FACTORY_ADDRESS_8453: "0xe85a59c628f7d27878aceb4bf3b35733630083a9" };
    expect(chainSettings(8453, vars(prod)).legacyFactories).toHaveLength(5);
    const other = { FACTORY_ADDRESS_8453: "0x00000000000000000000000000000000000000f1" };
    expect(chainSettings(8453, vars(other)).legacyFactories).toEqual([]);
    expect(chainSettings(84532, vars({})).legacyFactories).toEqual([]);
  });

  it("are LEGACY_FACTORIES_<chainId> when set, and a bad entry names the variable", () => {
    const env = {
      FACTORY_ADDRESS_8453: "0x00000000000000000000000000000000000000f1",
      LEGACY_FACTORIES_8453: ` clanker_v3_1:0x00000000000000000000000000000000000000a1:0x00000000000000000000000000000000000000b1, proxy:0x00000000000000000000000000000000000000a2`,
    };
    expect(chainSettings(8453, vars(env)).legacyFactories).toEqual([
      {
        type: "clanker_v3_1",
        factory: getAddress("0x00000000000000000000000000000000000000a1"),
        locker: getAddress("0x00000000000000000000000000000000000000b1"),
      },
      { type: "proxy", factory: getAddress("0x00000000000000000000000000000000000000a2") },
    ]);
    for (const bad of ["clanker_v4:0x00000000000000000000000000000000000000a1", "proxy", "proxy:0x12"])
      expect(() => chainSettings(8453, vars({ LEGACY_FACTORIES_8453: bad })), bad).toThrow(/LEGACY_FACTORIES_8453/);
  });
});

describe("readTokenCreatedLogs over every generation", () => {
  const CHAIN = 990_001;
  const V4 = getAddress("0x00000000000000000000000000000000000000f1");
  const V0 = getAddress("0x00000000000000000000000000000000000000a0");
  const V2 = getAddress("0x00000000000000000000000000000000000000a2");
  const V31 = getAddress("0x00000000000000000000000000000000000000a3");
  type Filter = { address: Address[]; topics: (Hex | Hex[] | null)[] };

  afterEach(() => {
    setChainTransport(CHAIN, undefined);
    delete process.env[`FACTORY_ADDRESS_${CHAIN}`];
    delete process.env[`LEGACY_FACTORIES_${CHAIN}`];
  });

  /** A node that answers eth_getLogs from `logs` as a node filters them (address, then topic positions). */
  function serve(logs: ReturnType<typeof sdkLog>[]) {
    const filters: Filter[] = [];
    setChainTransport(
      CHAIN,
      custom({
        async request({ method, params }: { method: string; params: [Filter] }) {
          if (method === "eth_chainId") return toHex(CHAIN);
          if (method !== "eth_getLogs") throw new Error(`unexpected ${method}`);
          const [filter] = params;
          filters.push(filter);
          const lower = filter.address.map((a) => a.toLowerCase());
          return logs
            .filter((l) => lower.includes(l.address.toLowerCase()))
            .filter((l) =>
              filter.topics.every(
                (want, i) => want === null || (Array.isArray(want) ? want : [want]).includes(l.topics[i]!),
              ),
            )
            .map((l) => ({
              ...l,
              blockNumber: toHex(l.blockNumber),
              transactionIndex: toHex(l.transactionIndex),
              logIndex: toHex(l.logIndex),
              removed: false,
            }));
        },
      }),
    );
    return filters;
  }

  const v4Log = (token: Address, logIndex: number) => {
    const event = getAbiItem({ abi: tokenFactoryAbi, name: "TokenCreated" }) as AbiEvent;
    return sdkLog(
      event,
      {
        msgSender: DEPLOYER,
        tokenAddress: token,
        tokenAdmin: DEPLOYER,
        tokenImage: "",
        tokenName: "V4",
        tokenSymbol: "V4",
        tokenMetadata: "{}",
        tokenContext: "{}",
        startingTick: -230_400,
        poolHook: LOCKER,
        poolId: `0x${"c".repeat(64)}`,
        pairedToken: LOCKER,
        locker: LOCKER,
        mevModule: LOCKER,
        extensionsSupply: 0n,
        extensions: [],
      },
      V4,
      logIndex,
    );
  };
  const v0Log = (token: Address, logIndex: number, from = V0) =>
    sdkLog(
      sdkTokenCreated(sdkOf("proxy").abi as Abi),
      {
        ...{ deployer: DEPLOYER, name: "V0", symbol: "V0", supply: 1n, _supply: 1n },
        tokenAddress: token,
        lpNftId: 1n,
        lockerAddress: LOCKER,
      },
      from,
      logIndex,
    );
  const v2Log = (token: Address, logIndex: number) =>
    sdkLog(
      sdkTokenCreated(sdkOf("clanker_v2").abi as Abi),
      {
        tokenAddress: token,
        positionId: 2n,
        deployer: DEPLOYER,
        fid: 5n,
        name: "V2",
        symbol: "V2",
        supply: 1n,
        lockerAddress: LOCKER,
        castHash: "",
      },
      V2,
      logIndex,
    );
  const v31Log = (token: Address, logIndex: number) =>
    sdkLog(
      sdkTokenCreated(sdkOf("clanker_v3_1").abi as Abi),
      {
        tokenAddress: token,
        creatorAdmin: DEPLOYER,
        interfaceAdmin: DEPLOYER,
        creatorRewardRecipient: DEPLOYER,
        interfaceRewardRecipient: DEPLOYER,
        positionId: 3n,
        name: "V31",
        symbol: "V31",
        startingTickIfToken0IsNewToken: -230_400,
        metadata: "{}",
        amountTokensBought: 0n,
        vaultDuration: 0n,
        vaultPercentage: 0,
        msgSender: DEPLOYER,
      },
      V31,
      logIndex,
    );
  const token = (n: number) => getAddress(`0x${n.toString(16).padStart(40, "0")}`);

  function configure() {
    process.env[`FACTORY_ADDRESS_${CHAIN}`] = V4;
    process.env[`LEGACY_FACTORIES_${CHAIN}`] = `proxy:${V0},clanker_v2:${V2}:${LOCKER},clanker_v3_1:${V31}:${LOCKER}`;
  }

  it("decodes each factory's logs as its generation, in block and log order, and sets aside another generation's", async () => {
    configure();
    // v0's factory emitting v4's TokenCreated is not asked for (its topic is not v0's), so never read as v4; a log with
    // v0's topic that does not decode is set aside.
    const filters = serve([
      v31Log(token(4), 4),
      v4Log(token(1), 1),
      v0Log(token(2), 2),
      v2Log(token(3), 3),
      { ...v4Log(token(5), 5), address: V0 },
      { ...v0Log(token(6), 6), data: "0x1234" },
    ]);
    const { events, undecodable } = await readTokenCreatedLogs(CHAIN, {
      fromBlock: 0,
      toBlock: 200,
      factories: [V4, V0, V2, V31],
    });
    expect(events.map((e) => [e.type ?? "clanker_v4", e.tokenAddress, e.logIndex])).toEqual([
      ["clanker_v4", token(1), 1],
      ["proxy", token(2), 2],
      ["clanker_v2", token(3), 3],
      ["clanker_v3_1", token(4), 4],
    ]);
    expect(undecodable).toMatchObject([{ address: V0, logIndex: 6 }]);
    // One read for the factories whose event indexes the token (v4, v3.1), one for those whose does not.
    expect(filters).toHaveLength(2);
    expect(filters[0]!.topics).toEqual([[TOKEN_CREATED_TOPIC, LEGACY_TOKEN_CREATED_TOPICS.clanker_v3_1], null, null]);
    expect(filters[1]!.topics).toEqual([[LEGACY_TOKEN_CREATED_TOPICS.proxy, LEGACY_TOKEN_CREATED_TOPICS.clanker_v2]]);
  });

  it("finds one token across generations: by topic where indexed, by its decoded address where not", async () => {
    configure();
    const filters = serve([v0Log(token(2), 2), v0Log(token(7), 7), v31Log(token(4), 4), v31Log(token(8), 8)]);
    for (const [wanted, type] of [
      [token(7), "proxy"],
      [token(8), "clanker_v3_1"],
    ] as const) {
      const { events } = await readTokenCreatedLogs(CHAIN, {
        fromBlock: 0,
        toBlock: 200,
        factories: [V4, V0, V2, V31],
        tokenAddress: wanted,
      });
      expect(events.map((e) => [e.type, e.tokenAddress])).toEqual([[type, wanted]]);
    }
    expect(filters[0]!.topics[1]).toBe(
      encodeEventTopics({ abi: tokenFactoryAbi, eventName: "TokenCreated", args: { tokenAddress: token(7) } })[1],
    );
    expect(filters[1]!.topics).toHaveLength(1);
  });

  it("reads only the generations of the factories asked", async () => {
    configure();
    const filters = serve([v0Log(token(2), 2)]);
    const { events } = await readTokenCreatedLogs(CHAIN, { fromBlock: 0, toBlock: 200, factories: [V0] });
    expect(events).toHaveLength(1);
    expect(filters).toEqual([
      expect.objectContaining({ address: [V0], topics: [[LEGACY_TOKEN_CREATED_TOPICS.proxy]] }),
    ]);
  });
});

describe("the legacy factories' deployment blocks", () => {
  // v4 went live on Base in June 2025: every earlier factory was deployed before it.
  const V4_RELEASE = Date.parse("2025-06-01T00:00:00Z") / 1000;

  it("are whole blocks on Base between the chain's start block and v4's release, in generation order", () => {
    const known = PRODUCTION_LEGACY_FACTORIES[8453]!.filter((f) => f.startBlock !== undefined);
    expect(known.length).toBeGreaterThan(0);
    for (const f of known) {
      expect(Number.isSafeInteger(f.startBlock), f.type).toBe(true);
      expect(f.startBlock!, f.type).toBeGreaterThan(BASE_LEGACY_START_BLOCK);
      expect(blockTimeOf(FIXED_BLOCK_TIMES[8453]!, f.startBlock!), f.type).toBeLessThan(V4_RELEASE);
    }
    // Listed oldest first (v0, v1, v2, v3, v3.1): each known block after the ones before it.
    const blocks = known.map((f) => f.startBlock!);
    expect(blocks).toEqual([...blocks].sort((a, b) => a - b));
    expect(new Set(blocks).size).toBe(blocks.length);
  });

  it("do not reach the local chain: LEGACY_FACTORIES_<chainId> entries carry none", () => {
    const settings = chainSettings(
      8453,
      vars({ LEGACY_FACTORIES_8453: "clanker_v3_1:0x2A787b2362021cC3eEa3C24C4748a6cD5B687382" }),
    );
    expect(settings.legacyFactories).toEqual([
      { type: "clanker_v3_1", factory: "0x2A787b2362021cC3eEa3C24C4748a6cD5B687382" },
    ]);
  });
});

// The factory entries tests read must exist.
it("has a Base entry for every legacy generation", () => {
  const types = PRODUCTION_LEGACY_FACTORIES[8453]!.map((f: LegacyFactory) => f.type);
  expect(types).toEqual(LEGACY_GENERATIONS);
});
