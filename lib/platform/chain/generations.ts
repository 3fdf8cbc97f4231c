// The platform's token generations before v4: their TokenCreated events (written out by hand from the platform SDK's
// ABIs, `CLANKERS` in clanker-sdk; a test checks each item against them), their factories per chain, and the one
// event shape the indexer stores for all of them. Each generation put the token's supply into a Uniswap V3 pool and
// handed the LP NFT to a locker. The events name neither the pool, its pair (v2 to v3.1 could pair with any token)
// nor its fee: the Uniswap V3 factory's PoolCreated in the same transaction does (poolCreatedEvent).
import { getContractAddress, encodeAbiParameters, keccak256, toEventSelector, type Address, type Hex } from "viem";
import { eventDecoder } from "./abi-decode";

/** The token object's `type` of each generation, oldest first. */
export const TOKEN_GENERATIONS = [
  "proxy",
  "clanker",
  "clanker_v2",
  "clanker_v3",
  "clanker_v3_1",
  "clanker_v4",
] as const;
export type TokenGeneration = (typeof TOKEN_GENERATIONS)[number];
export type LegacyGeneration = Exclude<TokenGeneration, "clanker_v4">;
export const LEGACY_GENERATIONS = TOKEN_GENERATIONS.filter(
  (g): g is LegacyGeneration => g !== "clanker_v4",
) as readonly LegacyGeneration[];

const input = <N extends string, T extends string>(name: N, type: T, indexed = false) =>
  ({ name, type, indexed, internalType: type }) as const;

/** v0 (`proxy`, the SocialDexDeployer): the locker is created per token and named in the event. */
export const tokenCreatedV0Event = {
  type: "event",
  name: "TokenCreated",
  anonymous: false,
  inputs: [
    input("tokenAddress", "address"),
    input("lpNftId", "uint256"),
    input("deployer", "address"),
    input("name", "string"),
    input("symbol", "string"),
    input("supply", "uint256"),
    input("_supply", "uint256"),
    input("lockerAddress", "address"),
  ],
} as const;

/** v1 (`clanker`): adds the requester's FID and cast. */
export const tokenCreatedV1Event = {
  type: "event",
  name: "TokenCreated",
  anonymous: false,
  inputs: [
    input("tokenAddress", "address"),
    input("lpNftId", "uint256"),
    input("deployer", "address"),
    input("fid", "uint256"),
    input("name", "string"),
    input("symbol", "string"),
    input("supply", "uint256"),
    input("lockerAddress", "address"),
    input("castHash", "string"),
  ],
} as const;

/** v2: v1's types with `positionId` for `lpNftId` (the same topic0: the factory tells them apart). */
export const tokenCreatedV2Event = {
  type: "event",
  name: "TokenCreated",
  anonymous: false,
  inputs: [
    input("tokenAddress", "address"),
    input("positionId", "uint256"),
    input("deployer", "address"),
    input("fid", "uint256"),
    input("name", "string"),
    input("symbol", "string"),
    input("supply", "uint256"),
    input("lockerAddress", "address"),
    input("castHash", "string"),
  ],
} as const;

/** v3: one locker for every token, so the event no longer names it. */
export const tokenCreatedV3Event = {
  type: "event",
  name: "TokenCreated",
  anonymous: false,
  inputs: [
    input("tokenAddress", "address"),
    input("positionId", "uint256"),
    input("deployer", "address"),
    input("fid", "uint256"),
    input("name", "string"),
    input("symbol", "string"),
    input("supply", "uint256"),
    input("castHash", "string"),
  ],
} as const;

/** v3.1: admins and reward recipients, the starting tick, the metadata JSON, the dev buy and the vault. */
export const tokenCreatedV3_1Event = {
  type: "event",
  name: "TokenCreated",
  anonymous: false,
  inputs: [
    input("tokenAddress", "address", true),
    input("creatorAdmin", "address", true),
    input("interfaceAdmin", "address", true),
    input("creatorRewardRecipient", "address"),
    input("interfaceRewardRecipient", "address"),
    input("positionId", "uint256"),
    input("name", "string"),
    input("symbol", "string"),
    input("startingTickIfToken0IsNewToken", "int24"),
    input("metadata", "string"),
    input("amountTokensBought", "uint256"),
    input("vaultDuration", "uint256"),
    input("vaultPercentage", "uint8"),
    input("msgSender", "address"),
  ],
} as const;

export const LEGACY_TOKEN_CREATED_EVENTS = {
  proxy: tokenCreatedV0Event,
  clanker: tokenCreatedV1Event,
  clanker_v2: tokenCreatedV2Event,
  clanker_v3: tokenCreatedV3Event,
  clanker_v3_1: tokenCreatedV3_1Event,
} as const;

/** topic0 of each generation's TokenCreated (v1 and v2 share one). */
export const LEGACY_TOKEN_CREATED_TOPICS = Object.fromEntries(
  LEGACY_GENERATIONS.map((g) => [g, toEventSelector(LEGACY_TOKEN_CREATED_EVENTS[g])]),
) as Record<LegacyGeneration, Hex>;

/** Whether a generation's event indexes tokenAddress (topic1) and the admin (topic2), as v4's does. */
export function indexesToken(generation: TokenGeneration): boolean {
  return generation === "clanker_v4" || generation === "clanker_v3_1";
}

/** A legacy factory of a chain, with the contracts its tokens name. */
export interface LegacyFactory {
  type: LegacyGeneration;
  factory: Address;
  /** The LP locker of every token (v2 on); v0 and v1 name a locker per token in the event. */
  locker?: Address;
  /** The creator vault (v3.1). */
  vault?: Address;
  /** Its deployment block, where known: its indexing starts there when that is after the chain's start. */
  startBlock?: number;
}

/**
 * The start block operators set on Base (TOKEN_INDEX_START_BLOCK_8453, docs/chain.md): about 19 September 2024,
 * before the first legacy factory (its first tokens came in November 2024). v0 to v3 carry no start block of their own,
 * for no public source gives their deployment blocks, so they start at the chain's start block.
 */
export const BASE_LEGACY_START_BLOCK = 20_000_000;

/**
 * The platform's legacy factories per chain, as clanker-sdk's CLANKERS lists them. The SDK publishes no deployment
 * blocks: a factory carries one only where a public source states it for its address (the source is named beside it).
 * A local chain standing in for Base names its factories in LEGACY_FACTORIES_8453, so they start at its block 0.
 */
export const PRODUCTION_LEGACY_FACTORIES: Record<number, readonly LegacyFactory[]> = {
  8453: [
    { type: "proxy", factory: "0x250c9FB2b411B48273f69879007803790A6AeA47" },
    { type: "clanker", factory: "0x9B84fcE5Dcd9a38d2D01d5D72373F6b6b067c3e1" },
    {
      type: "clanker_v2",
      factory: "0x732560fa1d1A76350b1A500155BA978031B53833",
      locker: "0x618A9840691334eE8d24445a4AdA4284Bf42417D",
    },
    {
      type: "clanker_v3",
      factory: "0x375C15db32D28cEcdcAB5C03Ab889bf15cbD2c5E",
      locker: "0x5eC4f99F342038c67a312a166Ff56e6D70383D86",
    },
    {
      type: "clanker_v3_1",
      factory: "0x2A787b2362021cC3eEa3C24C4748a6cD5B687382",
      locker: "0x33e2Eda238edcF470309b8c6D228986A1204c8f9",
      vault: "0x42A95190B4088C88Dd904d930c79deC1158bF09D",
      // 18 March 2025, v3.1's release month. One public source, a fee-claim app's src/sources/clanker/config.js:
      // "Factory deployed at block 27,733,337", found by searching the block where the factory's code appears.
      startBlock: 27_733_337,
    },
  ],
  // Abstract
  2741: [
    {
      type: "clanker_v3_1",
      factory: "0x043ac6264F5A45c7518DC480b348Da41bdabbac2",
      locker: "0xF5eBBd10d2faF7970dBdb9E960639ABCd612c48D",
      vault: "0x858eaD172d10b3E2Fc20F9C80726a2735c7B7a4B",
    },
  ],
  // Monad testnet
  10143: [
    {
      type: "clanker_v3_1",
      factory: "0xA0C65813DD1Cde7092922a57548Ec1eD25994318",
      locker: "0xcd89C55d36097a64f777066A6cc8F2c31B7541F7",
      vault: "0x9505A57Bf782058890f078bE301575cD75045a9b",
    },
  ],
};

/** The platform's usual pool for a legacy token: the chain's WETH at Uniswap V3's 1% fee tier (the demo seed's). */
export const LEGACY_POOL = { pair: "WETH", fee: 10_000 } as const;

/** A Uniswap V3 deployment: the factory that CREATE2s each pool, and the pool's init code hash. */
export interface UniswapV3Deployment {
  factory: Address;
  poolInitCodeHash: Hex;
}

/**
 * Uniswap V3 where legacy tokens live: its factory's PoolCreated names each token's pool, and the demo seed computes
 * pool addresses with the EVM's CREATE2 rule. The SDK publishes no Uniswap V3 of Abstract or Monad testnet: their
 * legacy tokens have no pool address.
 */
export const UNISWAP_V3: Record<number, UniswapV3Deployment> = {
  8453: {
    factory: "0x33128a8fC17869897dcE68Ed026d694621f6FDfD",
    poolInitCodeHash: "0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54",
  },
};

/** Uniswap V3's PoolCreated, as its factory emits it when a legacy factory creates a token's pool. */
export const poolCreatedEvent = {
  type: "event",
  name: "PoolCreated",
  anonymous: false,
  inputs: [
    input("token0", "address", true),
    input("token1", "address", true),
    input("fee", "uint24", true),
    input("tickSpacing", "int24"),
    input("pool", "address"),
  ],
} as const;
export const POOL_CREATED_TOPIC = toEventSelector(poolCreatedEvent);
const decodePoolCreated = eventDecoder(poolCreatedEvent);

/** A legacy token's pool: its address, the token it pairs with, and its fee tier (lowercase addresses). */
export interface LegacyPool {
  address: Address;
  pairedToken: Address;
  fee: number;
}

type PoolLog = {
  address: string;
  topics: readonly Hex[];
  data: Hex;
  transactionHash: Hex | null;
  logIndex: number | null;
};

/**
 * The pool of each legacy token in `logs` (a range's or a receipt's): the Uniswap V3 factory's PoolCreated in the
 * token's transaction, before its TokenCreated and naming the token; the nearest such one, since the factory creates
 * the pool just before it emits. Another PoolCreated of the token (a second pool someone added) is further away.
 */
export function legacyPoolsOf(
  v3: UniswapV3Deployment,
  logs: readonly PoolLog[],
  tokens: readonly { tokenAddress: Address; transactionHash: Hex; logIndex: number }[],
): (LegacyPool | null)[] {
  const factory = v3.factory.toLowerCase();
  type Created = ReturnType<typeof decodePoolCreated> & { logIndex: number };
  const byTx = new Map<string, Created[]>();
  for (const log of logs) {
    if (log.topics[0] !== POOL_CREATED_TOPIC || log.address.toLowerCase() !== factory) continue;
    if (log.transactionHash === null || log.logIndex === null) continue;
    try {
      const created = { ...decodePoolCreated(log), logIndex: log.logIndex };
      const tx = log.transactionHash.toLowerCase();
      byTx.set(tx, [...(byTx.get(tx) ?? []), created]);
    } catch {
      // The factory's own events decode; anything else names no pool.
    }
  }
  return tokens.map(({ tokenAddress, transactionHash, logIndex }) => {
    const token = tokenAddress.toLowerCase();
    let best: Created | undefined;
    for (const c of byTx.get(transactionHash.toLowerCase()) ?? [])
      if (c.logIndex < logIndex && (c.token0 === token || c.token1 === token) && (!best || c.logIndex > best.logIndex))
        best = c;
    if (!best) return null;
    return { address: best.pool, pairedToken: best.token0 === token ? best.token1 : best.token0, fee: best.fee };
  });
}

/** The Uniswap V3 pool of two tokens at a fee, as the V3 factory deploys it (PoolAddress.computeAddress). */
export function uniswapV3PoolAddress(v3: UniswapV3Deployment, tokenA: Address, tokenB: Address, fee: number): Address {
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA];
  const salt = keccak256(
    encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint24" }], [token0, token1, fee]),
  );
  return getContractAddress({ opcode: "CREATE2", from: v3.factory, salt, bytecodeHash: v3.poolInitCodeHash });
}

/** What every legacy TokenCreated says, in one shape (null: this generation's event does not carry it). */
export interface LegacyTokenCreated {
  type: LegacyGeneration;
  tokenAddress: Address;
  tokenName: string;
  tokenSymbol: string;
  /** v3.1's creatorAdmin; before it, the deployer. */
  tokenAdmin: Address;
  /** v3.1's msgSender; before it, the deployer. */
  msgSender: Address;
  /** The LP position NFT the locker holds (`lpNftId` or `positionId`). */
  lpNftId: bigint;
  /** The event's locker (v0 to v2), else the factory's (null when neither is known). */
  locker: Address | null;
  /** The factory's vault (v3.1). */
  vault: Address | null;
  /** The requester's FID (v1 to v3; 0 when none). */
  fid: bigint | null;
  castHash: string | null;
  supply: bigint | null;
  /** The metadata JSON (v3.1). */
  tokenMetadata: string | null;
  /** The starting tick if the token is token0 (v3.1). */
  startingTick: number | null;
  /** v3.1's interface side, dev buy and vault. */
  interfaceAdmin: Address | null;
  creatorRewardRecipient: Address | null;
  interfaceRewardRecipient: Address | null;
  amountTokensBought: bigint | null;
  vaultDuration: bigint | null;
  vaultPercentage: number | null;
}

const lower = (address: Address) => address.toLowerCase() as Address;

/** Each generation's decoder (abi-decode.ts: addresses lowercase). */
const decoders = {
  V0: eventDecoder(tokenCreatedV0Event),
  V1: eventDecoder(tokenCreatedV1Event),
  V2: eventDecoder(tokenCreatedV2Event),
  V3: eventDecoder(tokenCreatedV3Event),
  V3_1: eventDecoder(tokenCreatedV3_1Event),
};

/**
 * A legacy TokenCreated of `factory`'s generation, in the shared shape, its addresses lowercase. Throws when the log is not that event (another
 * generation's topic, or data that does not decode): the caller sets it aside.
 */
export function decodeLegacyTokenCreated(
  factory: LegacyFactory,
  log: { topics: readonly Hex[]; data: Hex },
): LegacyTokenCreated {
  const type = factory.type;
  if (log.topics[0] !== LEGACY_TOKEN_CREATED_TOPICS[type])
    throw new Error(`not the TokenCreated of ${type}, the generation of factory ${factory.factory}`);
  const none = {
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
  const locker = factory.locker ? lower(factory.locker) : null;
  if (type === "clanker_v3_1") {
    const a = decoders.V3_1(log);
    return {
      ...none,
      type,
      tokenAddress: a.tokenAddress,
      tokenName: a.name,
      tokenSymbol: a.symbol,
      tokenAdmin: a.creatorAdmin,
      msgSender: a.msgSender,
      lpNftId: a.positionId,
      locker,
      vault: factory.vault ? lower(factory.vault) : null,
      tokenMetadata: a.metadata,
      startingTick: a.startingTickIfToken0IsNewToken,
      interfaceAdmin: a.interfaceAdmin,
      creatorRewardRecipient: a.creatorRewardRecipient,
      interfaceRewardRecipient: a.interfaceRewardRecipient,
      amountTokensBought: a.amountTokensBought,
      vaultDuration: a.vaultDuration,
      vaultPercentage: a.vaultPercentage,
    };
  }
  const common = (a: { tokenAddress: Address; deployer: Address; name: string; symbol: string; supply: bigint }) => ({
    ...none,
    type,
    tokenAddress: a.tokenAddress,
    tokenName: a.name,
    tokenSymbol: a.symbol,
    tokenAdmin: a.deployer,
    msgSender: a.deployer,
    supply: a.supply,
  });
  if (type === "proxy") {
    const a = decoders.V0(log);
    return { ...common(a), lpNftId: a.lpNftId, locker: a.lockerAddress };
  }
  if (type === "clanker") {
    const a = decoders.V1(log);
    return { ...common(a), lpNftId: a.lpNftId, locker: a.lockerAddress, fid: a.fid, castHash: a.castHash };
  }
  if (type === "clanker_v2") {
    const a = decoders.V2(log);
    return { ...common(a), lpNftId: a.positionId, locker: a.lockerAddress, fid: a.fid, castHash: a.castHash };
  }
  const a = decoders.V3(log);
  return { ...common(a), lpNftId: a.positionId, locker, fid: a.fid, castHash: a.castHash };
}
