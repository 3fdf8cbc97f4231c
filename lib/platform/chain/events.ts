// Decoding of the events the service indexes: TokenCreated (factory), ClaimTokens (fee locker) and the
// presale contract's events. Decoders are pure and accept raw logs; the getters fetch a block range.
import {
  decodeEventLog,
  encodeEventTopics,
  formatLog,
  getAbiItem,
  getAddress,
  toEventSelector,
  type Address,
  type Hash,
  type Hex,
  type Log,
  toHex,
} from "viem";
import { feeLockerAbi, tokenFactoryAbi } from "./abis";
import { presaleEventsAbi } from "./abi-presale";
import { getPublicClient } from "./clients";
import { withChainErrors } from "./errors";

/** Where a decoded event sits on chain. */
export interface EventLocation {
  address: Address;
  blockNumber: bigint;
  blockHash: Hash;
  transactionHash: Hash;
  /** The transaction's position in its block (getTransactionCall reads it by position). */
  transactionIndex: number;
  logIndex: number;
}

export interface TokenCreatedEvent extends EventLocation {
  msgSender: Address;
  tokenAddress: Address;
  tokenAdmin: Address;
  tokenImage: string;
  tokenName: string;
  tokenSymbol: string;
  tokenMetadata: string;
  tokenContext: string;
  startingTick: number;
  poolHook: Address;
  poolId: Hex;
  pairedToken: Address;
  locker: Address;
  mevModule: Address;
  extensionsSupply: bigint;
  extensions: readonly Address[];
}

export const TOKEN_CREATED_TOPIC = toEventSelector(getAbiItem({ abi: tokenFactoryAbi, name: "TokenCreated" }));
export const CLAIM_TOKENS_TOPIC = toEventSelector(getAbiItem({ abi: feeLockerAbi, name: "ClaimTokens" }));

type AnyLog = Pick<
  Log,
  "address" | "topics" | "data" | "blockNumber" | "blockHash" | "transactionHash" | "transactionIndex" | "logIndex"
>;
/** Block ranges for log queries; numbers are accepted for convenience. */
export type BlockRange = { fromBlock: bigint | number; toBlock: bigint | number };

export function locationOf(log: AnyLog): EventLocation {
  if (
    log.blockNumber === null ||
    log.blockHash === null ||
    log.transactionHash === null ||
    log.transactionIndex === null ||
    log.logIndex === null
  ) {
    throw new Error("cannot decode a pending log");
  }
  return {
    address: getAddress(log.address),
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    transactionHash: log.transactionHash,
    transactionIndex: log.transactionIndex,
    logIndex: log.logIndex,
  };
}

/** TokenCreated from one log, or null when the log is another event. */
export function decodeTokenCreated(log: AnyLog): TokenCreatedEvent | null {
  if (log.topics[0] !== TOKEN_CREATED_TOPIC) return null;
  const { args } = decodeEventLog({
    abi: tokenFactoryAbi,
    eventName: "TokenCreated",
    topics: log.topics as [Hex, ...Hex[]],
    data: log.data,
  });
  return { ...locationOf(log), ...args };
}

/**
 * Every TokenCreated in a transaction (a presale or a batch can create several). A log with the topic that does not
 * decode is left out: any contract can emit the topic, and the follower sets aside a factory's own.
 */
export function findTokenCreated(receipt: { logs: readonly AnyLog[] }): TokenCreatedEvent[] {
  return receipt.logs.flatMap((log) => {
    try {
      return decodeTokenCreated(log) ?? [];
    } catch {
      return [];
    }
  });
}

/** A log with TokenCreated's topic that does not decode as TokenCreated: where it is, and why. */
export interface UndecodableLog extends EventLocation {
  error: string;
}

export type TokenCreatedQuery = BlockRange & {
  factories: readonly Address[];
  tokenAddress?: Address;
  tokenAdmin?: Address;
};

/**
 * TokenCreated logs emitted by `factories` in the range (optionally for one token or one admin): those that decode,
 * and those that do not (set aside by the indexer, never a stop for the rest).
 */
export async function readTokenCreatedLogs(
  chainId: number,
  query: TokenCreatedQuery,
): Promise<{ events: TokenCreatedEvent[]; undecodable: UndecodableLog[] }> {
  if (query.factories.length === 0) return { events: [], undecodable: [] };
  const client = getPublicClient(chainId);
  const topics = encodeEventTopics({
    abi: tokenFactoryAbi,
    eventName: "TokenCreated",
    args: { tokenAddress: query.tokenAddress, tokenAdmin: query.tokenAdmin },
  });
  const logs = await withChainErrors(chainId, () =>
    client.request({
      method: "eth_getLogs",
      params: [
        {
          address: [...query.factories],
          topics,
          fromBlock: toHex(BigInt(query.fromBlock)),
          toBlock: toHex(BigInt(query.toBlock)),
        },
      ],
    }),
  );
  const events: TokenCreatedEvent[] = [];
  const undecodable: UndecodableLog[] = [];
  for (const raw of logs) {
    const log = formatLog(raw);
    try {
      const event = decodeTokenCreated(log);
      if (event) events.push(event);
    } catch (error) {
      undecodable.push({ ...locationOf(log), error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { events, undecodable };
}

/** The TokenCreated events that decode (readTokenCreatedLogs without the undecodable ones). */
export async function getTokenCreatedLogs(chainId: number, query: TokenCreatedQuery): Promise<TokenCreatedEvent[]> {
  return (await readTokenCreatedLogs(chainId, query)).events;
}

export interface FeeClaimEvent extends EventLocation {
  feeOwner: Address;
  token: Address;
  amountClaimed: bigint;
}

export function decodeFeeClaim(log: AnyLog): FeeClaimEvent | null {
  if (log.topics[0] !== CLAIM_TOKENS_TOPIC) return null;
  const { args } = decodeEventLog({
    abi: feeLockerAbi,
    eventName: "ClaimTokens",
    topics: log.topics as [Hex, ...Hex[]],
    data: log.data,
  });
  return { ...locationOf(log), ...args };
}

/** ClaimTokens events of the fee locker(s) in the range, optionally narrowed by owners and tokens. */
export async function getFeeClaimLogs(
  chainId: number,
  query: BlockRange & { feeLockers: readonly Address[]; feeOwners?: readonly Address[]; tokens?: readonly Address[] },
): Promise<FeeClaimEvent[]> {
  if (query.feeLockers.length === 0) return [];
  const client = getPublicClient(chainId);
  const logs = await withChainErrors(chainId, () =>
    client.getLogs({
      address: [...query.feeLockers],
      event: getAbiItem({ abi: feeLockerAbi, name: "ClaimTokens" }),
      args: {
        feeOwner: query.feeOwners?.length ? [...query.feeOwners] : undefined,
        token: query.tokens?.length ? [...query.tokens] : undefined,
      },
      fromBlock: BigInt(query.fromBlock),
      toBlock: BigInt(query.toBlock),
      strict: true,
    }),
  );
  return logs.map((log) => ({ ...locationOf(log), ...log.args }) as FeeClaimEvent);
}

/**
 * AirdropClaimed as the platform's airdrop extensions emit it (clanker-sdk's ClankerAirdrop_v4_abi and
 * ClankerAirdropV2; the local TokenAirdrop in dev/chain/contracts/Extensions.sol emits the same):
 * totalUserAmountClaimed is the account's claimed total after the claim, not the claim's amount.
 */
const airdropClaimedEvent = {
  type: "event",
  name: "AirdropClaimed",
  anonymous: false,
  inputs: [
    { indexed: true, name: "token", type: "address", internalType: "address" },
    { indexed: true, name: "user", type: "address", internalType: "address" },
    { indexed: false, name: "totalUserAmountClaimed", type: "uint256", internalType: "uint256" },
    { indexed: false, name: "userAmountStillLocked", type: "uint256", internalType: "uint256" },
  ],
} as const;

export const AIRDROP_CLAIMED_TOPIC = toEventSelector(airdropClaimedEvent);

export interface AirdropClaimEvent extends EventLocation {
  token: Address;
  user: Address;
  totalUserAmountClaimed: bigint;
  userAmountStillLocked: bigint;
}

/** The airdrop contract's AirdropClaimed events in the range. */
export async function getAirdropClaimLogs(
  chainId: number,
  airdrop: Address,
  fromBlock: number,
  toBlock: number,
): Promise<AirdropClaimEvent[]> {
  const client = getPublicClient(chainId);
  const logs = await withChainErrors(chainId, () =>
    client.getLogs({
      address: airdrop,
      event: airdropClaimedEvent,
      fromBlock: BigInt(fromBlock),
      toBlock: BigInt(toBlock),
      strict: true,
    }),
  );
  return logs.map((log) => ({ ...locationOf(log), ...log.args }) as AirdropClaimEvent);
}

/** The platform presale extension's events (lib/platform/chain/abi-presale.ts). */
type PresaleEventName = (typeof presaleEventsAbi)[number]["name"];

type PresaleEventArgs<N extends PresaleEventName> = ReturnType<
  typeof decodeEventLog<typeof presaleEventsAbi, N>
>["args"];

/** One presale event: `eventName` tells which, `args` are its decoded fields. */
export type PresaleEvent = {
  [N in PresaleEventName]: EventLocation & { eventName: N; args: PresaleEventArgs<N> };
}[PresaleEventName];

/** The platform presale extension's PresaleStatus (getPresale's status; see dev/chain/contracts/Presale.sol). */
export const PRESALE_STATUS = {
  NotCreated: 0,
  Active: 1,
  SuccessfulMinimumHit: 2,
  SuccessfulMaximumHit: 3,
  Failed: 4,
  Claimable: 5,
} as const;

const PRESALE_TOPICS = new Set(
  presaleEventsAbi.filter((item) => item.type === "event").map((item) => toEventSelector(item)),
);

export function decodePresaleEvent(log: AnyLog): PresaleEvent | null {
  if (!log.topics[0] || !PRESALE_TOPICS.has(log.topics[0])) return null;
  const decoded = decodeEventLog({ abi: presaleEventsAbi, topics: log.topics as [Hex, ...Hex[]], data: log.data });
  return { ...locationOf(log), eventName: decoded.eventName, args: decoded.args } as PresaleEvent;
}

/**
 * The presale events of a transaction (what `presales/refresh` re-reads by hash), in log order.
 * With `presale`, only that contract's logs count: another contract may emit same-shaped events.
 */
export function getPresaleLogs(receipt: { logs: readonly AnyLog[] }, presale?: Address): PresaleEvent[] {
  return receipt.logs
    .filter((log) => !presale || log.address.toLowerCase() === presale.toLowerCase())
    .map(decodePresaleEvent)
    .filter((e): e is PresaleEvent => e !== null);
}

/** Presale events of a presale contract over a block range. */
export async function getPresaleEventLogs(
  chainId: number,
  query: BlockRange & { presale: Address },
): Promise<PresaleEvent[]> {
  const client = getPublicClient(chainId);
  const logs = await withChainErrors(chainId, () =>
    client.getLogs({ address: query.presale, fromBlock: BigInt(query.fromBlock), toBlock: BigInt(query.toBlock) }),
  );
  return getPresaleLogs({ logs });
}
