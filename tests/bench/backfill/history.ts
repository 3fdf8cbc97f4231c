// A synthetic history of the platform's TokenCreated events on Base, across every generation, derived lazily and
// deterministically from a seed: token i's block, transaction, log and deploying call are computed from (seed, i) on
// demand, so a million tokens are never held at once. Logs are ABI-encoded with the platform SDK's own ABIs, each
// generation's event at its Base factory (clanker-sdk's CLANKERS), and each deploying transaction calls that
// factory's deployToken with the configuration the event reports. Each v0 to v3.1 transaction also holds the
// Uniswap V3 factory's PoolCreated of the token's pool, before its TokenCreated, and the Uniswap V3 factory creates
// pools of its own in other transactions (noise), as on Base.
import { CLANKERS } from "clanker-sdk";
import {
  type Abi,
  type AbiEvent,
  type AbiFunction,
  type AbiParameter,
  type Address,
  encodeAbiParameters,
  getAbiItem,
  type Hex,
  toEventSelector,
  toFunctionSelector,
} from "viem";
import { encodeLockerData, encodePoolData, type FeePlan, type RewardEntry } from "@/lib/domains/launch/deploy/config";
import { sniperAuctionDataParams } from "@/lib/platform/chain/abis";
import { mix32, Prng } from "@/dev/seed/prng";
import { tokenDescription, tokenName, tokenSymbol } from "@/dev/seed/vocabulary";

export const BASE_CHAIN_ID = 8453;
/** Base's first block time; blocks are 2 s apart. */
const GENESIS_TIME = 1_686_789_347;
const WETH: Address = "0x4200000000000000000000000000000000000006";
/** Paired tokens besides WETH (USDC, DEGEN, CLANKER on Base), one token in twelve. */
const OTHER_PAIRS: Address[] = [
  "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  "0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed",
  "0x1bc0c42215582d5A085795f4baDbaC3ff36d1Bcb",
];
const SUPPLY = 100_000_000_000n * 10n ** 18n;
/** Base's Uniswap V3 factory: it creates the v0 to v3.1 tokens' pools, and every other V3 pool of Base. */
export const UNISWAP_V3_FACTORY: Address = "0x33128a8fC17869897dcE68Ed026d694621f6FDfD";
export const POOL_CREATED_TOPIC = toEventSelector("PoolCreated(address,address,uint24,int24,address)");
/** Uniswap V3's fee tiers and their tick spacing. */
const TICK_SPACING: Record<number, number> = { 10000: 200, 3000: 60, 500: 10, 100: 1 };
/** Pools the Uniswap V3 factory creates outside the platform's transactions, per v0 to v3.1 token. */
const NOISE_PER_LEGACY_TOKEN = 0.3;

export type Generation = "clanker_v0" | "clanker_v1" | "clanker_v2" | "clanker_v3" | "clanker_v3_1" | "clanker_v4";
export const GENERATIONS: readonly Generation[] = [
  "clanker_v0",
  "clanker_v1",
  "clanker_v2",
  "clanker_v3",
  "clanker_v3_1",
  "clanker_v4",
];

/** Where each generation's tokens sit: a block span of Base and its share of the tokens (a launch rush for v4). */
type Era = { generation: Generation; fromBlock: number; toBlock: number; share: number };
const ERAS: readonly Era[] = [
  { generation: "clanker_v0", fromBlock: 21_000_000, toBlock: 21_600_000, share: 0.005 },
  { generation: "clanker_v1", fromBlock: 21_600_000, toBlock: 22_400_000, share: 0.02 },
  { generation: "clanker_v2", fromBlock: 22_400_000, toBlock: 23_200_000, share: 0.075 },
  { generation: "clanker_v3", fromBlock: 23_200_000, toBlock: 27_733_337, share: 0.3 },
  // From the v3.1 factory's deployment block (generations.ts): the indexer reads it from there on.
  { generation: "clanker_v3_1", fromBlock: 27_733_337, toBlock: 31_000_000, share: 0.15 },
  // 1.25 tokens a block at a million tokens: a 10,000-block range then holds more logs than a provider returns.
  { generation: "clanker_v4", fromBlock: 31_000_000, toBlock: 31_040_000, share: 0.05 },
  { generation: "clanker_v4", fromBlock: 31_040_000, toBlock: 38_000_000, share: 0.4 },
];
export const FIRST_BLOCK = ERAS[0]!.fromBlock;
export const HEAD_BLOCK = ERAS[ERAS.length - 1]!.toBlock + 20;
const isLegacy = (g: Generation) => g !== "clanker_v4";

type Sdk = { address: Address; abi: Abi; related?: Record<string, Address> };
const sdk = (g: Generation) => (CLANKERS as unknown as Record<Generation, Sdk>)[g];
export const factoryOf = (g: Generation): Address => sdk(g).address;
const eventOf = (g: Generation) => getAbiItem({ abi: sdk(g).abi, name: "TokenCreated" }) as AbiEvent;
/** TokenCreated's topic of each generation (they differ: each generation's event has its own members). */
export const TOPIC_OF = Object.fromEntries(GENERATIONS.map((g) => [g, toEventSelector(eventOf(g))])) as Record<
  Generation,
  Hex
>;

/** Each generation's TokenCreated, read once: its factory, its indexed members and the others. */
type EventLayout = { address: Address; indexed: AbiEvent["inputs"]; rest: AbiEvent["inputs"]; restTypes: string[] };
const EVENT_LAYOUT = Object.fromEntries(
  GENERATIONS.map((g): [Generation, EventLayout] => {
    const { inputs } = eventOf(g);
    const rest = inputs.filter((input) => !input.indexed);
    const address = factoryOf(g).toLowerCase() as Address;
    return [g, { address, indexed: inputs.filter((input) => input.indexed), rest, restTypes: rest.map((i) => i.type) }];
  }),
) as Record<Generation, EventLayout>;

/** Each generation's deployToken, the overload of one argument where there are two (v3's), and its selector. */
const DEPLOY_OF = Object.fromEntries(
  GENERATIONS.map((g) => {
    const deploy = sdk(g).abi.filter(
      (item): item is AbiFunction => item.type === "function" && item.name === "deployToken",
    );
    const fn = deploy.length > 1 ? deploy.find((f) => f.inputs.length === 1)! : deploy[0]!;
    return [g, { selector: toFunctionSelector(fn), encode: sequenceEncoder(fn.inputs) }];
  }),
) as Record<Generation, { selector: Hex; encode: (args: readonly unknown[]) => string }>;

/** A PoolCreated's members, token0 and token1 sorted as the factory sorts them. */
export type PoolCreated = { token0: Address; token1: Address; fee: number; tickSpacing: number; pool: Address };

/** One token of the history: where its event sits and what it says. */
export type SyntheticToken = {
  index: number;
  generation: Generation;
  blockNumber: number;
  /** Position among the block's tokens. */
  inBlock: number;
  transactionIndex: number;
  logIndex: number;
  transactionHash: Hex;
  tokenAddress: Address;
  from: Address;
  args: Record<string, unknown>;
  /** The token's pool (v0 to v3.1), created in its transaction 4 logs before its TokenCreated. */
  pool?: PoolCreated;
  /** The deploying call's arguments (the factory's deployToken), built when a transaction is asked for. */
  callArgs: () => readonly unknown[];
};

const SALT_TX = 0x5ca1ab1e;
const SALT_BLOCK = 0x0b10c4ed;
const SALT_TOKEN = 0x70c3e2;
const SALT_FEE = 0x0f3e;
const SALT_POOL = 0x9001;
const SALT_NOISE = 0x4015e;
const SALT_NOISE_TX = 0x4015e7;

/** A pool of the Uniswap V3 factory in a transaction of its own (noise to the platform's indexer). */
export type NoisePool = {
  index: number;
  blockNumber: number;
  inBlock: number;
  transactionIndex: number;
  logIndex: number;
  transactionHash: Hex;
  from: Address;
  pool: PoolCreated;
};

type Span = { fromBlock: number; toBlock: number; count: number };

/** Block of the j-th item of a span: monotone, jittered within its slot, so blocks hold 0, 1 or more items. */
function placedBlock(span: Span, j: number, salt: number): number {
  const jitter = mix32((j ^ salt) >>> 0) / 4294967296;
  return span.fromBlock + Math.floor(((j + jitter) * (span.toBlock - span.fromBlock)) / span.count);
}

/** Positions j of a span's items whose block is in [from, to], in order. */
function* placedIn(span: Span, from: number, to: number, salt: number): Generator<number> {
  if (span.count === 0 || to < span.fromBlock || from >= span.toBlock) return;
  const perItem = (span.toBlock - span.fromBlock) / span.count;
  const first = Math.max(0, Math.floor((from - span.fromBlock) / perItem) - 1);
  const last = Math.min(span.count - 1, Math.ceil((to - span.fromBlock + 1) / perItem));
  for (let j = first; j <= last; j++) {
    const block = placedBlock(span, j, salt);
    if (block >= from && block <= to) yield j;
  }
}

/** Items of a span before the j-th in the j-th's block. */
function placedInBlock(span: Span, j: number, block: number, salt: number): number {
  let inBlock = 0;
  while (j - inBlock - 1 >= 0 && placedBlock(span, j - inBlock - 1, salt) === block) inBlock += 1;
  return inBlock;
}

/** The inverse of mix32 (murmur3's finaliser). */
export function unmix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7ed1b41d);
  x ^= (x >>> 13) ^ (x >>> 26);
  x = Math.imul(x, 0xa5cb9243);
  x ^= x >>> 16;
  return x >>> 0;
}

/** The members every transaction's answer holds alike, after its nonce; and their JSON text. */
const FRAME_CONSTANTS = {
  gas: "0x7a1200",
  maxFeePerGas: "0x1dcd6500",
  maxPriorityFeePerGas: "0xf4240",
  gasPrice: "0x1dcd6500",
  chainId: `0x${BASE_CHAIN_ID.toString(16)}`,
  accessList: [],
  v: "0x1",
  yParity: "0x1",
  r: `0x${"1".repeat(64)}`,
  s: `0x${"2".repeat(64)}`,
};
const FRAME_CONSTANTS_JSON = JSON.stringify(FRAME_CONSTANTS).slice(1, -1);

/**
 * Tokens kept once built (2.6 kB each): eth_getLogs builds a token, the calls for its transaction follow soon after,
 * and a range the provider refused is asked again in halves.
 */
const TOKEN_CACHE = 50_000;

export class History {
  readonly eras: Array<Era & { firstToken: number; count: number }>;
  private readonly tokenCache = new Map<number, SyntheticToken>();
  /** Each kept token's TokenCreated once built (it goes with its token out of the cache). */
  private readonly logs = new WeakMap<SyntheticToken, RpcLog>();
  private readonly logTexts = new WeakMap<RpcLog, string>();
  /** The Uniswap V3 factory's other pools, from the first legacy block to the last era's end. */
  readonly noise: Span;

  constructor(
    readonly tokens: number,
    readonly seed: string,
  ) {
    let first = 0;
    this.eras = ERAS.map((era, i) => {
      const count = i === ERAS.length - 1 ? tokens - first : Math.round(era.share * tokens);
      const placed = { ...era, firstToken: first, count };
      first += count;
      return placed;
    });
    const legacy = this.eras.filter((e) => isLegacy(e.generation)).reduce((n, e) => n + e.count, 0);
    const toBlock = ERAS[ERAS.length - 1]!.toBlock;
    this.noise = { fromBlock: FIRST_BLOCK, toBlock, count: Math.round(NOISE_PER_LEGACY_TOKEN * legacy) };
  }

  get head(): number {
    return HEAD_BLOCK;
  }

  /** Tokens of each generation. */
  countsByGeneration(): Record<Generation, number> {
    const counts = Object.fromEntries(GENERATIONS.map((g) => [g, 0])) as Record<Generation, number>;
    for (const era of this.eras) counts[era.generation] += era.count;
    return counts;
  }

  /** Indexes of the tokens whose block is in [from, to], in chain order. */
  *indexesIn(from: number, to: number): Generator<number> {
    for (const era of this.eras) for (const j of placedIn(era, from, to, SALT_BLOCK)) yield era.firstToken + j;
  }

  /** Indexes of the noise pools whose block is in [from, to], in chain order. */
  noiseIn(from: number, to: number): Generator<number> {
    return placedIn(this.noise, from, to, SALT_NOISE);
  }

  eraOf(index: number) {
    const era = this.eras.find((e) => index >= e.firstToken && index < e.firstToken + e.count);
    if (!era) throw new RangeError(`token ${index} is not in a history of ${this.tokens}`);
    return era;
  }

  blockHash(block: number): Hex {
    const rng = new Prng(`${this.seed}/block/${block}`);
    return `${rng.hex(28)}${tail(block, SALT_BLOCK)}` as Hex;
  }

  /** The block a hash names, when it is one of this history's. */
  blockOfHash(hash: string): number | null {
    const block = untail(hash, SALT_BLOCK);
    return block !== null && block <= HEAD_BLOCK && this.blockHash(block) === hash.toLowerCase() ? block : null;
  }

  blockTimestamp(block: number): number {
    return GENESIS_TIME + 2 * block;
  }

  transactionHash(index: number): Hex {
    return `${new Prng(`${this.seed}/tx/${index}`).hex(28)}${tail(index, SALT_TX)}` as Hex;
  }

  tokenOfTransaction(hash: string): number | null {
    const index = untail(hash, SALT_TX);
    return index !== null && index < this.tokens && this.transactionHash(index) === hash.toLowerCase() ? index : null;
  }

  /** A creator's address: a few thousand creators deploy most tokens, as on the platform. */
  private creator(rng: Prng): Address {
    const id = rng.chance(0.6) ? rng.int(Math.max(1, this.tokens >> 6)) : rng.int(Math.max(1, this.tokens >> 2));
    return `0x${new Prng(`${this.seed}/creator/${id}`).hex(20).slice(2)}` as Address;
  }

  token(index: number): SyntheticToken {
    const cached = this.tokenCache.get(index);
    if (cached) return cached;
    const token = this.buildToken(index);
    this.tokenCache.set(index, token);
    if (this.tokenCache.size > TOKEN_CACHE) this.tokenCache.delete(this.tokenCache.keys().next().value!);
    return token;
  }

  private buildToken(index: number): SyntheticToken {
    const era = this.eraOf(index);
    const j = index - era.firstToken;
    const blockNumber = placedBlock(era, j, SALT_BLOCK);
    const inBlock = placedInBlock(era, j, blockNumber, SALT_BLOCK);
    const rng = new Prng(`${this.seed}/token/${index}`);
    const tokenAddress = `0x${rng.hex(16).slice(2)}${tail(index, SALT_TOKEN)}` as Address;
    const text = tokenText(rng, era.generation);
    const from = this.creator(rng);
    const fid = rng.chance(0.7) ? BigInt(rng.between(2, 1_100_000)) : 0n;
    const castHash = fid && rng.chance(0.8) ? rng.hex(20) : "";
    const fee = poolFeeOf(index, era.generation);
    // A multiple of the pool's tick spacing, as the factories require.
    const drawn = -230_400 + 200 * rng.between(-40, 60);
    const tick = drawn - (drawn % TICK_SPACING[fee]!);
    const pairedToken = rng.chance(1 / 12) ? rng.pick(OTHER_PAIRS) : WETH;
    // v0 and v1 pair with WETH whatever is drawn.
    const poolPair = era.generation === "clanker_v0" || era.generation === "clanker_v1" ? WETH : pairedToken;
    const salt = rng.hex(32) as Hex;
    const positionId = BigInt(1_000_000 + index);
    const related = sdk(era.generation).related ?? {};
    const { args, callArgs } = GENERATION_SHAPES[era.generation]({
      rng,
      tokenAddress,
      from,
      text,
      fid,
      castHash,
      tick,
      fee,
      pairedToken,
      salt,
      positionId,
      related,
    });
    return {
      index,
      generation: era.generation,
      blockNumber,
      inBlock,
      transactionIndex: 3 + 4 * inBlock,
      logIndex: 11 + 9 * inBlock,
      transactionHash: this.transactionHash(index),
      tokenAddress,
      from,
      args,
      pool: isLegacy(era.generation)
        ? poolOf(tokenAddress, poolPair, fee, derivedAddress(index, SALT_POOL))
        : undefined,
      callArgs,
    };
  }

  /** The token's address alone (the first draw of token()). */
  tokenAddress(index: number): Address {
    return `0x${new Prng(`${this.seed}/token/${index}`).hex(16).slice(2)}${tail(index, SALT_TOKEN)}` as Address;
  }

  /** The j-th pool the Uniswap V3 factory creates outside the platform: a pool of other tokens, now and then another
   * pool of an earlier v0 to v3.1 token (another pair or fee tier than its own). */
  noisePool(j: number): NoisePool {
    const blockNumber = placedBlock(this.noise, j, SALT_NOISE);
    const inBlock = placedInBlock(this.noise, j, blockNumber, SALT_NOISE);
    const rng = new Prng(`${this.seed}/noise/${j}`);
    const transactionHash = `${rng.hex(28)}${tail(j, SALT_NOISE_TX)}` as Hex;
    const from = `0x${rng.hex(20).slice(2)}` as Address;
    const earlier = this.legacyTokensBefore(blockNumber);
    let pool: PoolCreated;
    if (earlier > 0 && rng.chance(0.1)) {
      const index = rng.int(earlier);
      const fee = poolFeeOf(index, this.eraOf(index).generation) === 10_000 ? 3_000 : 10_000;
      pool = poolOf(this.tokenAddress(index), rng.pick([WETH, OTHER_PAIRS[0]!]), fee, derivedAddress(j, SALT_NOISE));
    } else {
      const pair = rng.chance(0.6) ? WETH : rng.chance(0.6) ? OTHER_PAIRS[0]! : rng.pick(OTHER_PAIRS);
      const fee = rng.pick([10_000, 10_000, 3_000, 3_000, 3_000, 500, 500, 100]);
      pool = poolOf(`0x${rng.hex(20).slice(2)}` as Address, pair, fee, derivedAddress(j, SALT_NOISE));
    }
    return {
      index: j,
      blockNumber,
      inBlock,
      // Between the platform's transactions of the block, in block order: tokens sit at 3 + 4k, logs 7 + 9k to 11 + 9k.
      transactionIndex: 1 + 4 * inBlock,
      logIndex: 3 + 9 * inBlock,
      transactionHash,
      from,
      pool,
    };
  }

  noiseOfTransaction(hash: string): number | null {
    const j = untail(hash, SALT_NOISE_TX);
    if (j === null || j >= this.noise.count) return null;
    return `${new Prng(`${this.seed}/noise/${j}`).hex(28)}${tail(j, SALT_NOISE_TX)}` === hash.toLowerCase() ? j : null;
  }

  /** How many v0 to v3.1 tokens surely sit before `block`: a prefix of the indexes (eras are in chain order). */
  private legacyTokensBefore(block: number): number {
    let n = 0;
    for (const era of this.eras) {
      if (!isLegacy(era.generation) || era.count === 0 || block <= era.fromBlock) break;
      if (block >= era.toBlock) n += era.count;
      else
        return n + Math.max(0, Math.floor((block - era.fromBlock) / ((era.toBlock - era.fromBlock) / era.count)) - 1);
    }
    return n;
  }

  /**
   * The logs of [from, to] in chain order, built only for the (address, topic0) pairs `wanted` accepts: TokenCreated
   * at each generation's factory, and PoolCreated at the Uniswap V3 factory (the tokens' and the noise's).
   */
  *logsIn(from: number, to: number, wanted: (address: string, topic0: Hex) => boolean): Generator<RpcLog> {
    const pools = wanted(UNISWAP_V3_FACTORY.toLowerCase(), POOL_CREATED_TOPIC);
    const noise = pools ? [...this.noiseIn(from, to)].map((j) => this.noisePool(j)) : [];
    let n = 0;
    for (const index of this.indexesIn(from, to)) {
      const generation = this.eraOf(index).generation;
      const created = wanted(factoryOf(generation).toLowerCase(), TOPIC_OF[generation]);
      if (!created && !(pools && isLegacy(generation))) continue;
      const token = this.token(index);
      for (; n < noise.length && chainOrder(noise[n]!, token) < 0; n++) yield this.noiseLog(noise[n]!);
      if (pools && token.pool) yield this.poolLog(token);
      if (created) yield this.log(token);
    }
    for (; n < noise.length; n++) yield this.noiseLog(noise[n]!);
  }

  /** The token's PoolCreated (v0 to v3.1), 4 logs before its TokenCreated. */
  poolLog(token: SyntheticToken): RpcLog {
    if (!token.pool) throw new Error(`${token.generation} creates its pool without the Uniswap V3 factory`);
    return this.poolCreatedLog(
      token.pool,
      token.blockNumber,
      token.transactionHash,
      token.transactionIndex,
      token.logIndex - 4,
    );
  }

  noiseLog(noise: NoisePool): RpcLog {
    const { pool, blockNumber, transactionHash, transactionIndex, logIndex } = noise;
    return this.poolCreatedLog(pool, blockNumber, transactionHash, transactionIndex, logIndex);
  }

  private poolCreatedLog(pool: PoolCreated, block: number, hash: Hex, txIndex: number, logIndex: number): RpcLog {
    return {
      address: UNISWAP_V3_FACTORY.toLowerCase() as Address,
      topics: [
        POOL_CREATED_TOPIC,
        `0x${staticWord("address", pool.token0)}`,
        `0x${staticWord("address", pool.token1)}`,
        `0x${word(BigInt(pool.fee))}`,
      ],
      data: `0x${word(BigInt(pool.tickSpacing))}${staticWord("address", pool.pool)}`,
      blockNumber: hex(block),
      blockHash: this.blockHash(block),
      transactionHash: hash,
      transactionIndex: hex(txIndex),
      logIndex: hex(logIndex),
      removed: false,
    };
  }

  /** The noise pool's transaction: the Uniswap V3 factory's createPool(tokenA, tokenB, fee). */
  noiseTransaction(noise: NoisePool): Record<string, unknown> {
    const { pool } = noise;
    const input = `0xa1671295${staticWord("address", pool.token0)}${staticWord("address", pool.token1)}${word(BigInt(pool.fee))}`;
    return {
      ...this.transactionFrame(noise.from, noise.blockNumber, noise.transactionIndex, noise.index % 997),
      hash: noise.transactionHash,
      to: UNISWAP_V3_FACTORY.toLowerCase(),
      input,
    };
  }

  noiseReceipt(noise: NoisePool): Record<string, unknown> {
    return {
      ...this.receiptFrame(noise.from, noise.blockNumber, noise.transactionIndex),
      transactionHash: noise.transactionHash,
      to: UNISWAP_V3_FACTORY.toLowerCase(),
      logs: [this.noiseLog(noise)],
    };
  }

  /** The token's TokenCreated as eth_getLogs answers it. */
  log(token: SyntheticToken): RpcLog {
    let log = this.logs.get(token);
    if (!log) this.logs.set(token, (log = this.buildLog(token)));
    return log;
  }

  private buildLog(token: SyntheticToken): RpcLog {
    const { address, indexed, rest, restTypes } = EVENT_LAYOUT[token.generation];
    const topics = [
      TOPIC_OF[token.generation],
      ...indexed.map((input) => `0x${staticWord(input.type, token.args[input.name!])}` as Hex),
    ];
    return {
      address,
      topics,
      data: encodeWords(
        restTypes,
        rest.map((input) => token.args[input.name!]),
      ),
      blockNumber: hex(token.blockNumber),
      blockHash: this.blockHash(token.blockNumber),
      transactionHash: token.transactionHash,
      transactionIndex: hex(token.transactionIndex),
      logIndex: hex(token.logIndex),
      removed: false,
    };
  }

  /** The deploying transaction as eth_getTransactionBy* answers it. */
  transaction(token: SyntheticToken): Record<string, unknown> {
    const input = deployInput(token);
    return {
      ...this.transactionFrame(token.from, token.blockNumber, token.transactionIndex, token.index % 997),
      hash: token.transactionHash,
      to: factoryOf(token.generation).toLowerCase(),
      input,
    };
  }

  /**
   * The deploying transaction's JSON text, as JSON.stringify writes transaction(token): its members in the same order,
   * every value a string of hex digits or a constant (none to escape). Stringifying took a fifth of a call's CPU.
   */
  transactionJson(token: SyntheticToken): string {
    const block = token.blockNumber;
    return (
      `{"type":"0x2","blockHash":"${this.blockHash(block)}","blockNumber":"${hex(block)}",` +
      `"transactionIndex":"${hex(token.transactionIndex)}","from":"${token.from.toLowerCase()}","value":"0x0",` +
      `"nonce":"${hex(token.index % 997)}",${FRAME_CONSTANTS_JSON},"hash":"${token.transactionHash}",` +
      `"to":"${EVENT_LAYOUT[token.generation].address}","input":"${deployInput(token)}"}`
    );
  }

  /** A log's JSON text, kept with a kept token's TokenCreated (a range refused in full is asked again in halves). */
  logJson(log: RpcLog): string {
    let json = this.logTexts.get(log);
    if (json === undefined) this.logTexts.set(log, (json = JSON.stringify(log)));
    return json;
  }

  /** What a transaction's answer holds besides its hash, recipient and input. */
  private transactionFrame(from: Address, block: number, index: number, nonce: number): Record<string, unknown> {
    return {
      type: "0x2",
      blockHash: this.blockHash(block),
      blockNumber: hex(block),
      transactionIndex: hex(index),
      from: from.toLowerCase(),
      value: "0x0",
      nonce: hex(nonce),
      ...FRAME_CONSTANTS,
    };
  }

  receipt(token: SyntheticToken): Record<string, unknown> {
    return {
      ...this.receiptFrame(token.from, token.blockNumber, token.transactionIndex),
      transactionHash: token.transactionHash,
      to: factoryOf(token.generation).toLowerCase(),
      logs: token.pool ? [this.poolLog(token), this.log(token)] : [this.log(token)],
    };
  }

  /** What a receipt holds besides its transaction's hash, recipient and logs. */
  private receiptFrame(from: Address, block: number, index: number): Record<string, unknown> {
    return {
      transactionIndex: hex(index),
      blockHash: this.blockHash(block),
      blockNumber: hex(block),
      from: from.toLowerCase(),
      cumulativeGasUsed: "0x5b8d80",
      gasUsed: "0x4c4b40",
      effectiveGasPrice: "0x1dcd6500",
      contractAddress: null,
      logsBloom: `0x${"0".repeat(512)}`,
      status: "0x1",
      type: "0x2",
    };
  }

  /** The block's transactions in order: its tokens' and its noise pools'. */
  transactionsOf(
    block: number,
  ): Array<{ index: number; hash: Hex; body: () => Record<string, unknown>; json: () => string }> {
    const tokens = [...this.indexesIn(block, block)].map((i) => this.token(i));
    const noise = [...this.noiseIn(block, block)].map((j) => this.noisePool(j));
    return [
      ...tokens.map((t) => ({
        index: t.transactionIndex,
        hash: t.transactionHash,
        body: () => this.transaction(t),
        json: () => this.transactionJson(t),
      })),
      ...noise.map((p) => ({
        index: p.transactionIndex,
        hash: p.transactionHash,
        body: () => this.noiseTransaction(p),
        json: () => JSON.stringify(this.noiseTransaction(p)),
      })),
    ].sort((a, b) => a.index - b.index);
  }

  block(number: number, full: boolean): Record<string, unknown> {
    const txs = this.transactionsOf(number);
    return {
      number: hex(number),
      hash: this.blockHash(number),
      parentHash: this.blockHash(number - 1),
      timestamp: hex(this.blockTimestamp(number)),
      nonce: "0x0000000000000000",
      sha3Uncles: "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347",
      logsBloom: `0x${"0".repeat(512)}`,
      transactionsRoot: this.blockHash(number + 1_000_000_000),
      stateRoot: this.blockHash(number + 2_000_000_000),
      receiptsRoot: this.blockHash(number + 3_000_000_000),
      miner: "0x4200000000000000000000000000000000000011",
      difficulty: "0x0",
      totalDifficulty: "0x1",
      extraData: "0x",
      size: "0x2a3f",
      gasLimit: "0x7270e00",
      gasUsed: "0x1c9c380",
      baseFeePerGas: "0x2faf080",
      mixHash: this.blockHash(number + 4_000_000_000),
      uncles: [],
      transactions: txs.map((t) => (full ? t.body() : t.hash)),
    };
  }
}

export type RpcLog = {
  address: Address;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  transactionHash: Hex;
  transactionIndex: Hex;
  logIndex: Hex;
  removed: false;
};

/**
 * ABI encoding of an event's data (head and tail): the few types TokenCreated uses. viem's encodeAbiParameters took
 * a quarter of a millisecond a log, minutes of the provider's CPU over a million tokens.
 */
export function encodeWords(types: readonly string[], values: readonly unknown[]): Hex {
  const heads: string[] = [];
  const tails: string[] = [];
  let offset = types.length * 32;
  for (let i = 0; i < types.length; i++) {
    const type = types[i]!;
    const value = values[i];
    if (type === "string" || type === "bytes" || type.endsWith("[]")) {
      const body = dynamicBody(type, value);
      heads.push(word(BigInt(offset)));
      tails.push(body);
      offset += body.length / 2;
    } else heads.push(staticWord(type, value));
  }
  return `0x${heads.join("")}${tails.join("")}`;
}

function dynamicBody(type: string, value: unknown): string {
  if (type.endsWith("[]")) {
    const items = value as unknown[];
    return word(BigInt(items.length)) + items.map((v) => staticWord(type.slice(0, -2), v)).join("");
  }
  const body =
    type === "string"
      ? Buffer.from(value as string, "utf8").toString("hex")
      : Buffer.from((value as string).slice(2), "hex").toString("hex");
  return uintWord(body.length / 2) + body.padEnd(Math.ceil(body.length / 64) * 64, "0");
}

const MOD_256 = 1n << 256n;
const word = (n: bigint) => (n < 0n ? n + MOD_256 : n).toString(16).padStart(64, "0");
function staticWord(type: string, value: unknown): string {
  if (type === "address") return (value as string).slice(2).toLowerCase().padStart(64, "0");
  if (type === "bytes32") return (value as string).slice(2).toLowerCase();
  if (type === "bool") return word(value ? 1n : 0n);
  if (/^u?int\d+$/.test(type)) return word(BigInt(value as number | bigint));
  throw new Error(`encodeWords: ${type} is not handled`);
}

const hex = (n: number): Hex => `0x${n.toString(16)}`;

/**
 * The deploying transaction's input: deployToken's selector and arguments, ABI-encoded as viem's encodeFunctionData
 * encodes them (tests/dev/backfill-provider.test.ts compares the two). viem took most of the fake provider's CPU: it
 * validates and checksums every address with keccak.
 */
export function deployInput(token: SyntheticToken): Hex {
  const deploy = DEPLOY_OF[token.generation];
  return `${deploy.selector}${deploy.encode(token.callArgs())}` as Hex;
}

/** An ABI parameter's encoder, built once per parameter: whether it is dynamic, its head size if not, its encoding. */
type Encoder = { dynamic: boolean; size: number; encode: (value: unknown) => string };

/** Heads then tails of values of these parameters (a tuple's members, a call's arguments, an array's items). */
function encodeSequence(encoders: readonly Encoder[], values: readonly unknown[]): string {
  let headSize = 0;
  for (const e of encoders) headSize += e.dynamic ? 32 : e.size;
  let heads = "";
  let tails = "";
  for (let i = 0; i < encoders.length; i++) {
    const e = encoders[i]!;
    const encoded = e.encode(values[i]);
    if (e.dynamic) {
      heads += uintWord(headSize + tails.length / 2);
      tails += encoded;
    } else heads += encoded;
  }
  return heads + tails;
}

/** The encoder of a sequence of parameters, as viem's encodeAbiParameters reads them: the types deployToken takes. */
function sequenceEncoder(params: readonly AbiParameter[]): (values: readonly unknown[]) => string {
  const encoders = params.map(encoderOf);
  return (values) => encodeSequence(encoders, values);
}

function encoderOf(p: AbiParameter): Encoder {
  const type = p.type;
  if (type === "tuple") {
    const components = (p as { components: readonly AbiParameter[] }).components;
    const encoders = components.map(encoderOf);
    const names = components.map((c) => c.name!);
    return {
      dynamic: encoders.some((e) => e.dynamic),
      size: encoders.reduce((n, e) => n + e.size, 0),
      encode: (value) =>
        encodeSequence(
          encoders,
          Array.isArray(value) ? value : names.map((name) => (value as Record<string, unknown>)[name]),
        ),
    };
  }
  if (type.endsWith("[]")) {
    const item = encoderOf({ ...p, type: type.slice(0, -2) } as AbiParameter);
    return {
      dynamic: true,
      size: 32,
      encode: (value) => {
        const items = value as readonly unknown[];
        return (
          uintWord(items.length) +
          encodeSequence(
            items.map(() => item),
            items,
          )
        );
      },
    };
  }
  const encode = staticEncoder(type);
  if (encode) return { dynamic: false, size: 32, encode };
  if (type === "string" || type === "bytes") return { dynamic: true, size: 32, encode: (v) => dynamicBody(type, v) };
  throw new Error(`deployInput: ${type} is not handled`);
}

function staticEncoder(type: string): ((value: unknown) => string) | null {
  if (type === "address") return (v) => (v as string).slice(2).toLowerCase().padStart(64, "0");
  if (/^bytes\d+$/.test(type)) return (v) => (v as string).slice(2).padEnd(64, "0");
  if (type === "bool") return (v) => uintWord(v ? 1 : 0);
  if (/^u?int\d+$/.test(type))
    return (v) => (typeof v === "number" && v >= 0 ? uintWord(v) : word(BigInt(v as number | bigint)));
  return null;
}

const uintWord = (n: number) => n.toString(16).padStart(64, "0");

/**
 * The fee tier of a token's pool: v3.1's factory fixes 10,000; v0 to v3 take it as a deploy parameter, 10,000 for
 * most tokens and another tier for one in sixteen.
 */
function poolFeeOf(index: number, generation: Generation): number {
  if (generation === "clanker_v3_1" || generation === "clanker_v4") return 10_000;
  const draw = mix32((index ^ SALT_FEE) >>> 0) % 64;
  return draw < 60 ? 10_000 : draw < 62 ? 3_000 : draw < 63 ? 500 : 100;
}

function poolOf(token: Address, paired: Address, fee: number, pool: Address): PoolCreated {
  const [token0, token1] = token.toLowerCase() < paired.toLowerCase() ? [token, paired] : [paired, token];
  return { token0, token1, fee, tickSpacing: TICK_SPACING[fee]!, pool };
}

/** A pool's address, derived from its number without keccak: distinct per number (its last word is a bijection). */
function derivedAddress(n: number, salt: number): Address {
  let body = "";
  for (let k = 1; k <= 4; k++)
    body += mix32((n * 4 + k + salt) >>> 0)
      .toString(16)
      .padStart(8, "0");
  return `0x${body}${tail(n, salt)}` as Address;
}

/** Whether a noise pool sits before a token in its block's order (negative) or after it. */
const chainOrder = (noise: NoisePool, token: SyntheticToken) =>
  noise.blockNumber === token.blockNumber ? noise.inBlock - token.inBlock - 0.5 : noise.blockNumber - token.blockNumber;
/** The last four bytes of a derived hash: a bijection of the number, so the hash names it back. */
const tail = (n: number, salt: number) =>
  mix32((n ^ salt) >>> 0)
    .toString(16)
    .padStart(8, "0");
function untail(hash: string, salt: number): number | null {
  if (!/^0x[0-9a-fA-F]+$/.test(hash) || hash.length < 10) return null;
  return (unmix32(Number.parseInt(hash.slice(-8), 16)) ^ salt) >>> 0;
}

type TokenText = { name: string; symbol: string; image: string; metadata: string; context: string };

/** Realistic text, now and then hostile: emoji, control characters, over-long names, metadata that is not JSON. */
function tokenText(rng: Prng, generation: Generation): TokenText {
  let name = tokenName(rng);
  let symbol = tokenSymbol(rng, name);
  const odd = rng.float();
  if (odd < 0.02) name = `${name} 🚀`;
  else if (odd < 0.025) name = `${name}\u0000\u0007${"!".repeat(rng.int(300))}`;
  else if (odd < 0.03) symbol = `$${symbol}🔥`;
  const image = rng.chance(0.85) ? `ipfs://bafkrei${rng.hex(26).slice(2)}` : "";
  const description = tokenDescription(rng, name);
  const socials = rng.chance(0.5)
    ? [
        { platform: "x", url: `https://x.com/${symbol.toLowerCase()}` },
        { platform: "telegram", url: `https://t.me/${symbol.toLowerCase()}` },
      ].slice(0, rng.between(1, 2))
    : [];
  const metadata = rng.chance(0.01)
    ? `{"description": "${description}"` // cut short: not JSON
    : JSON.stringify({ description, socialMediaUrls: socials, auditUrls: [] });
  const interfaces = ["clanker.world", "Bankr", "Clanker", "SDK"];
  const context = JSON.stringify(
    generation === "clanker_v4" && rng.chance(0.6)
      ? {
          interface: rng.pick(interfaces),
          platform: "farcaster",
          messageId: rng.hex(20),
          id: String(rng.between(2, 1e6)),
        }
      : { interface: rng.pick(interfaces), platform: "", messageId: "", id: "" },
  );
  return { name, symbol, image, metadata, context };
}

type Shape = {
  rng: Prng;
  tokenAddress: Address;
  from: Address;
  text: TokenText;
  fid: bigint;
  castHash: string;
  tick: number;
  /** The pool's fee tier (v0 to v3 take it as a parameter). */
  fee: number;
  pairedToken: Address;
  salt: Hex;
  positionId: bigint;
  related: Record<string, Address>;
};
type Shaped = { args: Record<string, unknown>; callArgs: () => readonly unknown[] };

/**
 * v4's pool, locker and MEV module data, encoded once per kind: the pool's by its fee plan (static or dynamic, each
 * a constant), the locker's by its number of rewards (every reward takes "Both"), the module's a constant.
 */
const V4_DATA = new Map<string, Hex>();
const onceFor = (key: string, encode: () => Hex): Hex => {
  let data = V4_DATA.get(key);
  if (data === undefined) V4_DATA.set(key, (data = encode()));
  return data;
};
const v4PoolData = (dynamic: boolean, fees: FeePlan) => onceFor(`pool/${dynamic}`, () => encodePoolData(fees));
const v4LockerData = (rewards: RewardEntry[]) =>
  onceFor(`locker/${rewards.map((r) => r.rewardsToken).join()}`, () => encodeLockerData(rewards));
const v4MevModuleData = () =>
  onceFor("mev", () =>
    encodeAbiParameters(sniperAuctionDataParams, [{ startingFee: 666_777, endingFee: 41_673, secondsToDecay: 15n }]),
  );

/** Each generation's event members and deployToken arguments, from the same draws. */
const GENERATION_SHAPES: Record<Generation, (s: Shape) => Shaped> = {
  clanker_v0: (s) => ({
    args: {
      tokenAddress: s.tokenAddress,
      lpNftId: s.positionId,
      deployer: s.from,
      name: s.text.name,
      symbol: s.text.symbol,
      supply: SUPPLY,
      _supply: SUPPLY,
      lockerAddress: `0x${s.rng.hex(20).slice(2)}`,
    },
    callArgs: () => [s.text.name, s.text.symbol, SUPPLY, s.tick, s.fee, s.salt, s.from],
  }),
  clanker_v1: (s) => ({
    args: {
      tokenAddress: s.tokenAddress,
      lpNftId: s.positionId,
      deployer: s.from,
      fid: s.fid,
      name: s.text.name,
      symbol: s.text.symbol,
      supply: SUPPLY,
      lockerAddress: `0x${s.rng.hex(20).slice(2)}`,
      castHash: s.castHash,
    },
    callArgs: () => [
      s.text.name,
      s.text.symbol,
      SUPPLY,
      s.tick,
      s.fee,
      s.salt,
      s.from,
      s.fid,
      s.text.image,
      s.castHash,
    ],
  }),
  clanker_v2: (s) => ({
    args: {
      tokenAddress: s.tokenAddress,
      positionId: s.positionId,
      deployer: s.from,
      fid: s.fid,
      name: s.text.name,
      symbol: s.text.symbol,
      supply: SUPPLY,
      lockerAddress: s.related.locker,
      castHash: s.castHash,
    },
    callArgs: () => [
      s.text.name,
      s.text.symbol,
      SUPPLY,
      s.fee,
      s.salt,
      s.from,
      s.fid,
      s.text.image,
      s.castHash,
      { tick: s.tick, pairedToken: s.pairedToken, devBuyFee: 10_000 },
    ],
  }),
  clanker_v3: (s) => ({
    args: {
      tokenAddress: s.tokenAddress,
      positionId: s.positionId,
      deployer: s.from,
      fid: s.fid,
      name: s.text.name,
      symbol: s.text.symbol,
      supply: SUPPLY,
      castHash: s.castHash,
    },
    callArgs: () => [
      {
        _name: s.text.name,
        _symbol: s.text.symbol,
        _supply: SUPPLY,
        _fee: s.fee,
        _salt: s.salt,
        _deployer: s.from,
        _fid: s.fid,
        _image: s.text.image,
        _castHash: s.castHash,
        _poolConfig: { tick: s.tick, pairedToken: s.pairedToken, devBuyFee: 10_000 },
      },
    ],
  }),
  clanker_v3_1: (s) => {
    const interfaceAdmin = s.rng.chance(0.5) ? (`0x${s.rng.hex(20).slice(2)}` as Address) : s.from;
    const vaulted = s.rng.chance(0.1);
    const rewards = {
      creatorReward: 80n,
      creatorAdmin: s.from,
      creatorRewardRecipient: s.from,
      interfaceAdmin,
      interfaceRewardRecipient: interfaceAdmin,
    };
    return {
      args: {
        tokenAddress: s.tokenAddress,
        creatorAdmin: s.from,
        interfaceAdmin,
        creatorRewardRecipient: s.from,
        interfaceRewardRecipient: interfaceAdmin,
        positionId: s.positionId,
        name: s.text.name,
        symbol: s.text.symbol,
        startingTickIfToken0IsNewToken: s.tick,
        metadata: s.text.metadata,
        amountTokensBought: s.rng.chance(0.2) ? BigInt(s.rng.between(1, 1e9)) * 10n ** 18n : 0n,
        vaultDuration: vaulted ? 2_592_000n : 0n,
        vaultPercentage: vaulted ? 10 : 0,
        msgSender: s.from,
      },
      callArgs: () => [
        {
          tokenConfig: {
            name: s.text.name,
            symbol: s.text.symbol,
            salt: s.salt,
            image: s.text.image,
            metadata: s.text.metadata,
            context: s.text.context,
            originatingChainId: 8453n,
          },
          vaultConfig: { vaultPercentage: vaulted ? 10 : 0, vaultDuration: vaulted ? 2_592_000n : 0n },
          poolConfig: { pairedToken: s.pairedToken, tickIfToken0IsNewToken: s.tick },
          initialBuyConfig: { pairedTokenPoolFee: 10_000, pairedTokenSwapAmountOutMinimum: 0n },
          rewardsConfig: rewards,
        },
      ],
    };
  },
  clanker_v4: (s) => {
    const dynamic = s.rng.chance(0.2);
    const hook = dynamic ? s.related.feeDynamicHookV2! : s.related.feeStaticHookV2!;
    const fees: FeePlan = dynamic
      ? { type: "dynamic", baseFee: 5_000, maxLpFee: 50_000 }
      : { type: "static", tokenFee: 10_000, pairedFee: 10_000 };
    const split = s.rng.chance(0.3);
    const other = `0x${s.rng.hex(20).slice(2)}` as Address;
    const admins = split ? [s.from, other] : [s.from];
    const poolId = s.rng.hex(32);
    const deployment = () => {
      const poolData = v4PoolData(dynamic, fees);
      const rewards: RewardEntry[] = admins.map((admin) => ({ admin, recipient: admin, bps: 0, rewardsToken: "Both" }));
      const config = {
        tokenConfig: {
          tokenAdmin: s.from,
          name: s.text.name,
          symbol: s.text.symbol,
          salt: s.salt,
          image: s.text.image,
          metadata: s.text.metadata,
          context: s.text.context,
          originatingChainId: 8453n,
        },
        poolConfig: { hook, pairedToken: s.pairedToken, tickIfToken0IsClanker: s.tick, tickSpacing: 200, poolData },
        lockerConfig: {
          locker: s.related.locker!,
          rewardAdmins: admins,
          rewardRecipients: admins,
          rewardBps: split ? [8_000, 2_000] : [10_000],
          tickLower: [s.tick],
          tickUpper: [887_200],
          positionBps: [10_000],
          lockerData: v4LockerData(rewards),
        },
        mevModuleConfig: { mevModule: s.related.mevModuleV2!, mevModuleData: v4MevModuleData() },
        extensionConfigs: [],
      };
      return [config];
    };
    return {
      args: {
        msgSender: s.from,
        tokenAddress: s.tokenAddress,
        tokenAdmin: s.from,
        tokenImage: s.text.image,
        tokenName: s.text.name,
        tokenSymbol: s.text.symbol,
        tokenMetadata: s.text.metadata,
        tokenContext: s.text.context,
        startingTick: s.tick,
        poolHook: hook,
        poolId,
        pairedToken: s.pairedToken,
        locker: s.related.locker!,
        mevModule: s.related.mevModuleV2!,
        extensionsSupply: 0n,
        extensions: [] as Address[],
      },
      callArgs: deployment,
    };
  },
};
