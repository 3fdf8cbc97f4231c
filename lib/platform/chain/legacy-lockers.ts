// The LP lockers of the platform's generations before v4 (v0 to v3.1, on Base): their claim events, their reward
// recipients, and what the LP position held when the token was deployed. The ABIs are the public contracts':
// clanker-devco/contracts LpLocker and LpMetaLocker (v0, v1: one locker per token), LpLockerv2 0.0.2 (v2, v3: one
// locker), and clanker-devco/v3.1-contracts LpLockerv2 (v3.1), as clanker-sdk's v3 build carries it. A v4 token's
// deposit is read the same way, from its locker's TokenRewardAdded.
import {
  decodeEventLog,
  encodeEventTopics,
  formatLog,
  getAbiItem,
  toEventSelector,
  toHex,
  zeroAddress,
  type Address,
  type ContractFunctionParameters,
  type Hex,
  type Log,
} from "viem";
import { checksum } from "@/lib/core/evm";
import { erc20ReadAbi } from "./abis";
import { getPublicClient } from "./clients";
import { ChainUnavailableError, toChainError, withChainErrors } from "./errors";
import { locationOf, type BlockRange, type EventLocation, type UndecodableLog } from "./events";
import { LEGACY_GENERATIONS, PRODUCTION_LEGACY_FACTORIES, type LegacyGeneration } from "./generations";

export const isLegacyTokenType = (type: string): type is LegacyGeneration =>
  (LEGACY_GENERATIONS as readonly string[]).includes(type);

/** The lockers v2 to v3.1 tokens share on the chain (v0 and v1 tokens have a locker each, named in TokenCreated). */
export function sharedLegacyLockers(chainId: number): Address[] {
  return (PRODUCTION_LEGACY_FACTORIES[chainId] ?? []).flatMap((f) => (f.locker ? [f.locker] : []));
}

/** Uniswap V3's NonfungiblePositionManager, which holds every legacy LP position (the SDK's UNISWAP_V3_BASE). */
export const LEGACY_POSITION_MANAGERS: Record<number, Address> = {
  8453: "0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1",
};

const splitClaimInputs = [
  { indexed: true, name: "claimer", type: "address" },
  { indexed: true, name: "token0", type: "address" },
  { indexed: true, name: "token1", type: "address" },
  { indexed: false, name: "amount0", type: "uint256" },
  { indexed: false, name: "amount1", type: "uint256" },
  // Named the other way round on the contracts: the values are the totals of token0, then of token1.
  { indexed: false, name: "totalAmount1", type: "uint256" },
  { indexed: false, name: "totalAmount0", type: "uint256" },
] as const;

/** v0 and v1 (LpLocker, LpMetaLocker) and the first LpLockerv2: the claimer's part, then the totals. */
const claimedFeesEvent = { type: "event", name: "ClaimedFees", anonymous: false, inputs: splitClaimInputs } as const;

/** The LpLockerv2 0.0.2 of v2 and v3 as published last: ClaimedFees renamed, the same members. */
const claimedRewardsV2Event = {
  type: "event",
  name: "ClaimedRewards",
  anonymous: false,
  inputs: splitClaimInputs,
} as const;

/** v3.1: the position and each party's part. */
const claimedRewardsEvent = {
  type: "event",
  name: "ClaimedRewards",
  anonymous: false,
  inputs: [
    { indexed: true, name: "lpTokenId", type: "uint256" },
    { indexed: true, name: "creatorRecipient", type: "address" },
    { indexed: true, name: "interfaceRecipient", type: "address" },
    { indexed: false, name: "teamRecipient", type: "address" },
    { indexed: false, name: "token0", type: "address" },
    { indexed: false, name: "token1", type: "address" },
    { indexed: false, name: "creatorReward0", type: "uint256" },
    { indexed: false, name: "creatorReward1", type: "uint256" },
    { indexed: false, name: "interfaceReward0", type: "uint256" },
    { indexed: false, name: "interfaceReward1", type: "uint256" },
    { indexed: false, name: "teamReward0", type: "uint256" },
    { indexed: false, name: "teamReward1", type: "uint256" },
  ],
} as const;

export const CLAIMED_FEES_TOPIC = toEventSelector(claimedFeesEvent);
export const CLAIMED_REWARDS_V2_TOPIC = toEventSelector(claimedRewardsV2Event);
export const CLAIMED_REWARDS_TOPIC = toEventSelector(claimedRewardsEvent);
const LEGACY_CLAIM_TOPICS = [CLAIMED_FEES_TOPIC, CLAIMED_REWARDS_V2_TOPIC, CLAIMED_REWARDS_TOPIC];

const recipient = [
  { name: "admin", type: "address" },
  { name: "recipient", type: "address" },
] as const;

export const legacyLockerAbi = [
  // v3.1
  {
    type: "function",
    name: "tokenRewards",
    stateMutability: "view",
    inputs: [{ name: "lpTokenId", type: "uint256" }],
    outputs: [
      { name: "lpTokenId", type: "uint256" },
      { name: "creatorReward", type: "uint256" },
      { name: "creator", type: "tuple", components: recipient },
      { name: "interfacer", type: "tuple", components: recipient },
    ],
  },
  // v2, v3 as published last
  {
    type: "function",
    name: "_userRewardRecipientForToken",
    stateMutability: "view",
    inputs: [{ name: "lpTokenId", type: "uint256" }],
    outputs: [
      { name: "recipient", type: "address" },
      { name: "lpTokenId", type: "uint256" },
    ],
  },
  // the first LpLockerv2 (and v0's meta locker)
  {
    type: "function",
    name: "_userFeeRecipientForToken",
    stateMutability: "view",
    inputs: [{ name: "lpTokenId", type: "uint256" }],
    outputs: [
      { name: "recipient", type: "address" },
      { name: "lpTokenId", type: "uint256" },
    ],
  },
  // v0, v1: the locker's owner collects its fees
  { type: "function", name: "owner", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "address" }] },
] as const;

const positionManagerAbi = [
  {
    type: "function",
    name: "ownerOf",
    stateMutability: "view",
    inputs: [{ name: "tokenId", type: "uint256" }],
    outputs: [{ name: "", type: "address" }],
  },
  {
    type: "event",
    name: "IncreaseLiquidity",
    anonymous: false,
    inputs: [
      { indexed: true, name: "tokenId", type: "uint256" },
      { indexed: false, name: "liquidity", type: "uint128" },
      { indexed: false, name: "amount0", type: "uint256" },
      { indexed: false, name: "amount1", type: "uint256" },
    ],
  },
] as const;

/** The v4 lockers' TokenRewardAdded as clanker-sdk's ClankerLpLocker ABIs have it (no member indexed). */
const tokenRewardAddedEvent = {
  type: "event",
  name: "TokenRewardAdded",
  anonymous: false,
  inputs: [
    { indexed: false, name: "token", type: "address" },
    {
      indexed: false,
      name: "poolKey",
      type: "tuple",
      components: [
        { name: "currency0", type: "address" },
        { name: "currency1", type: "address" },
        { name: "fee", type: "uint24" },
        { name: "tickSpacing", type: "int24" },
        { name: "hooks", type: "address" },
      ],
    },
    { indexed: false, name: "poolSupply", type: "uint256" },
    { indexed: false, name: "positionId", type: "uint256" },
    { indexed: false, name: "numPositions", type: "uint256" },
    { indexed: false, name: "rewardBps", type: "uint16[]" },
    { indexed: false, name: "rewardAdmins", type: "address[]" },
    { indexed: false, name: "rewardRecipients", type: "address[]" },
    { indexed: false, name: "tickLower", type: "int24[]" },
    { indexed: false, name: "tickUpper", type: "int24[]" },
    { indexed: false, name: "positionBps", type: "uint16[]" },
  ],
} as const;

/** The same event with `token` indexed (the local chain's locker): the topic is the same, the layout is not. */
const tokenRewardAddedIndexedEvent = {
  ...tokenRewardAddedEvent,
  inputs: [{ ...tokenRewardAddedEvent.inputs[0], indexed: true }, ...tokenRewardAddedEvent.inputs.slice(1)],
} as const;

export type LegacyClaimRole = "creator" | "interface" | "team";

/** One recipient's part of a claim, in the position's two tokens (token0 < token1, as Uniswap orders them). */
export interface LegacyPayout {
  role: LegacyClaimRole;
  recipient: Address;
  amount0: bigint;
  amount1: bigint;
}

export interface LegacyClaimEvent extends EventLocation {
  /** `split`: the claimer's part and the totals (v0 to v3); `rewards`: v3.1's parties. */
  shape: "split" | "rewards";
  /** v3.1 names the LP position; the split claims do not (null). */
  lpNftId: bigint | null;
  /** The zero address when a v0/v1 locker without a team fee paid the recipient directly (its event leaves them out). */
  token0: Address;
  token1: Address;
  /**
   * A split claim: the claimer's part (the team's recipient is not named). v3.1: the creator's, and the interface's and
   * the team's when they received something.
   */
  payouts: LegacyPayout[];
}

type AnyLog = Pick<
  Log,
  "address" | "topics" | "data" | "blockNumber" | "blockHash" | "transactionHash" | "transactionIndex" | "logIndex"
>;

/** A legacy locker's claim event from one log; null for another event. Throws when the topic matches but the log does not decode. */
export function decodeLegacyClaim(log: AnyLog): LegacyClaimEvent | null {
  const topic = log.topics[0];
  if (!topic || !LEGACY_CLAIM_TOPICS.includes(topic)) return null;
  const topics = log.topics as [Hex, ...Hex[]];
  const place = locationOf(log);
  if (topic !== CLAIMED_REWARDS_TOPIC) {
    const event = topic === CLAIMED_FEES_TOPIC ? claimedFeesEvent : claimedRewardsV2Event;
    const a = decodeEventLog({ abi: [event], topics, data: log.data, strict: true }).args;
    return {
      ...place,
      shape: "split",
      lpNftId: null,
      token0: checksum(a.token0),
      token1: checksum(a.token1),
      payouts: [{ role: "creator", recipient: checksum(a.claimer), amount0: a.amount0, amount1: a.amount1 }],
    };
  }
  const a = decodeEventLog({ abi: [claimedRewardsEvent], topics, data: log.data, strict: true }).args;
  const payouts: LegacyPayout[] = [
    {
      role: "creator",
      recipient: checksum(a.creatorRecipient),
      amount0: a.creatorReward0,
      amount1: a.creatorReward1,
    },
    {
      role: "interface",
      recipient: checksum(a.interfaceRecipient),
      amount0: a.interfaceReward0,
      amount1: a.interfaceReward1,
    },
    { role: "team", recipient: checksum(a.teamRecipient), amount0: a.teamReward0, amount1: a.teamReward1 },
  ];
  return {
    ...place,
    shape: "rewards",
    lpNftId: a.lpTokenId,
    token0: checksum(a.token0),
    token1: checksum(a.token1),
    payouts: payouts.filter((p) => p.role === "creator" || p.amount0 > 0n || p.amount1 > 0n),
  };
}

/**
 * The legacy claim events in the range, from `lockers` or (without) from any contract: v0 and v1 lockers are
 * one per token, so the caller keeps the events of lockers it knows. Logs with the topics that do not decode are
 * returned apart.
 */
export async function readLegacyClaimLogs(
  chainId: number,
  query: BlockRange & { lockers?: readonly Address[] },
): Promise<{ events: LegacyClaimEvent[]; undecodable: UndecodableLog[] }> {
  const client = getPublicClient(chainId);
  const logs = await withChainErrors(chainId, () =>
    client.request({
      method: "eth_getLogs",
      params: [
        {
          address: query.lockers ? [...query.lockers] : undefined,
          topics: [LEGACY_CLAIM_TOPICS],
          fromBlock: toHex(BigInt(query.fromBlock)),
          toBlock: toHex(BigInt(query.toBlock)),
        },
      ],
    }),
  );
  const events: LegacyClaimEvent[] = [];
  const undecodable: UndecodableLog[] = [];
  for (const raw of logs) {
    const log = formatLog(raw);
    try {
      const event = decodeLegacyClaim(log);
      if (event) events.push(event);
    } catch (error) {
      undecodable.push({ ...locationOf(log), error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { events, undecodable };
}

export type LegacyRewardRecipient = { role: "creator" | "interface"; recipient: Address; admin: Address | null };

export interface LegacyLockerReading {
  /** Who the locker pays now: v3.1 its creator and interface, v2/v3 its fee recipient, v0/v1 its owner. */
  recipients: LegacyRewardRecipient[];
  /** The LP position NFT's owner (the locker while it is locked); null when the position manager did not answer. */
  positionOwner: Address | null;
  /** The token's total supply (wei); null when it does not answer as an ERC-20. */
  totalSupply: bigint | null;
}

type Outcome<T> = { status: "success"; result: T } | { status: "failure"; error: Error };

/**
 * The locker's reward recipients for the position, the position's owner and the token's supply, in one multicall. A
 * call that reverts leaves its part out (an address that is not such a locker); an RPC failure is a
 * ChainUnavailableError.
 */
export async function readLegacyLocker(
  chainId: number,
  q: { type: LegacyGeneration; locker: Address; lpNftId: bigint; token: Address },
): Promise<LegacyLockerReading> {
  const client = getPublicClient(chainId);
  const manager = LEGACY_POSITION_MANAGERS[chainId];
  const locker = (functionName: (typeof legacyLockerAbi)[number]["name"], args?: readonly [bigint]) =>
    ({ address: q.locker, abi: legacyLockerAbi, functionName, args }) as ContractFunctionParameters;
  // v2 and v3: the getter's name changed between the locker's published versions; one of the two answers.
  const recipientCalls =
    q.type === "clanker_v3_1"
      ? [locker("tokenRewards", [q.lpNftId])]
      : q.type === "clanker_v2" || q.type === "clanker_v3"
        ? [locker("_userRewardRecipientForToken", [q.lpNftId]), locker("_userFeeRecipientForToken", [q.lpNftId])]
        : [locker("owner")];
  const supplyCall = { address: q.token, abi: erc20ReadAbi, functionName: "totalSupply" } as const;
  const contracts: ContractFunctionParameters[] = [
    supplyCall,
    // Without a known position manager the supply is read twice rather than the list changing shape.
    manager ? { address: manager, abi: positionManagerAbi, functionName: "ownerOf", args: [q.lpNftId] } : supplyCall,
    ...recipientCalls,
  ];
  const results = (await withChainErrors(chainId, () =>
    client.multicall({ allowFailure: true, contracts }),
  )) as Outcome<unknown>[];
  throwIfUnavailable(chainId, results);
  const [supply, owner, ...answers] = results;
  const answered = answers.map((a) => (a.status === "success" ? recipientsOf(q.type, a.result) : []));
  return {
    recipients: answered.find((r) => r.length > 0) ?? [],
    positionOwner: manager && owner?.status === "success" ? checksum(owner.result as Address) : null,
    totalSupply: supply?.status === "success" ? (supply.result as bigint) : null,
  };
}

function recipientsOf(type: LegacyGeneration, result: unknown): LegacyRewardRecipient[] {
  const real = (r: LegacyRewardRecipient) => r.recipient !== zeroAddress;
  if (type === "clanker_v3_1") {
    type Party = { admin: Address; recipient: Address };
    const [, , creator, interfacer] = result as readonly [bigint, bigint, Party, Party];
    return [
      { role: "creator" as const, recipient: checksum(creator.recipient), admin: checksum(creator.admin) },
      { role: "interface" as const, recipient: checksum(interfacer.recipient), admin: checksum(interfacer.admin) },
    ].filter(real);
  }
  const address =
    type === "clanker_v2" || type === "clanker_v3" ? (result as readonly [Address, bigint])[0] : (result as Address);
  return [{ role: "creator" as const, recipient: checksum(address), admin: null }].filter(real);
}

/** With allowFailure, a transport failure shows as every call failing; it must still be a ChainUnavailableError. */
function throwIfUnavailable(chainId: number, results: readonly { status: string; error?: unknown }[]) {
  for (const result of results) {
    if (result.status !== "failure") continue;
    const mapped = toChainError(result.error, chainId);
    if (mapped instanceof ChainUnavailableError) throw mapped;
  }
}

export type LpDeposit = {
  /** The LP position (a legacy token's Uniswap V3 NFT, a v4 token's locker position). */
  positionId: bigint;
  /** The token's amount put into the pool when it was deployed (wei). */
  tokenAmount: bigint;
};

/**
 * What the token's LP received in its deploy block, from that block's events alone (one eth_getLogs of one block):
 * a legacy position's IncreaseLiquidity at the position manager (the token's side of it), a v4 token's
 * TokenRewardAdded at its locker (`poolSupply`). Null when the block holds no such event for the token.
 */
export async function readLpDeposit(
  chainId: number,
  q: { token: Address; block: number } & ({ lpNftId: bigint; pairedToken: Address } | { v4Locker: Address }),
): Promise<LpDeposit | null> {
  const client = getPublicClient(chainId);
  const block = toHex(BigInt(q.block));
  if ("v4Locker" in q) {
    const raw = await withChainErrors(chainId, () =>
      client.request({
        method: "eth_getLogs",
        params: [
          { address: q.v4Locker, topics: [toEventSelector(tokenRewardAddedEvent)], fromBlock: block, toBlock: block },
        ],
      }),
    );
    for (const log of raw.map((l) => formatLog(l))) {
      const args = decodeOrNull(tokenRewardAddedEvent, log) ?? decodeOrNull(tokenRewardAddedIndexedEvent, log);
      if (args && args.token.toLowerCase() === q.token.toLowerCase())
        return { positionId: args.positionId, tokenAmount: args.poolSupply };
    }
    return null;
  }
  const manager = LEGACY_POSITION_MANAGERS[chainId];
  if (!manager) return null;
  const topics = encodeEventTopics({
    abi: positionManagerAbi,
    eventName: "IncreaseLiquidity",
    args: { tokenId: q.lpNftId },
  });
  const raw = await withChainErrors(chainId, () =>
    client.request({ method: "eth_getLogs", params: [{ address: manager, topics, fromBlock: block, toBlock: block }] }),
  );
  const tokenIsToken0 = q.token.toLowerCase() < q.pairedToken.toLowerCase();
  let amount = 0n;
  let seen = false;
  for (const log of raw.map((l) => formatLog(l))) {
    const args = decodeOrNull(getAbiItem({ abi: positionManagerAbi, name: "IncreaseLiquidity" }), log);
    if (!args) continue;
    amount += tokenIsToken0 ? args.amount0 : args.amount1;
    seen = true;
  }
  return seen ? { positionId: q.lpNftId, tokenAmount: amount } : null;
}

/** The args of `event` in the log, or null when the log is not that event as its ABI says. */
function decodeOrNull<
  const E extends typeof tokenRewardAddedEvent | typeof tokenRewardAddedIndexedEvent | (typeof positionManagerAbi)[1],
>(event: E, log: AnyLog) {
  try {
    return decodeEventLog({ abi: [event], topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: true })
      .args as E extends typeof tokenRewardAddedEvent | typeof tokenRewardAddedIndexedEvent
      ? { token: Address; poolSupply: bigint; positionId: bigint }
      : { amount0: bigint; amount1: bigint };
  } catch {
    return null;
  }
}

/** The token's total supply (wei), or null when it does not answer as an ERC-20. */
export async function readTotalSupply(chainId: number, token: Address): Promise<bigint | null> {
  const client = getPublicClient(chainId);
  try {
    return await withChainErrors(chainId, () =>
      client.readContract({ address: token, abi: erc20ReadAbi, functionName: "totalSupply" }),
    );
  } catch (error) {
    if (error instanceof ChainUnavailableError) throw error;
    return null;
  }
}
