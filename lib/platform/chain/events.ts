// Decoding of the events the service indexes: TokenCreated (factory), ClaimTokens (fee locker) and the
// presale contract's events. Decoders are pure and accept raw logs; the getters fetch a block range.
import {
  decodeEventLog,
  encodeEventTopics,
  formatLog,
  getAbiItem,
  toEventSelector,
  type Address,
  type Hash,
  type Hex,
  type Log,
  toHex,
} from "viem";
import { checksum } from "@/lib/core/evm";
import { eventDecoder } from "./abi-decode";
import { feeLockerAbi, tokenFactoryAbi } from "./abis";
import { presaleEventsAbi } from "./abi-presale";
import { getPublicClient } from "./clients";
import { withChainErrors } from "./errors";
import {
  decodeLegacyTokenCreated,
  indexesToken,
  LEGACY_TOKEN_CREATED_TOPICS,
  legacyPoolsOf,
  POOL_CREATED_TOPIC,
  UNISWAP_V3,
  type LegacyFactory,
  type LegacyPool,
  type LegacyTokenCreated,
} from "./generations";
import { chainSettings } from "./settings";

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

/** The v4 factory's TokenCreated (the service's own deployments, and every token of the current generation). */
export interface V4TokenCreatedEvent extends EventLocation {
  /** Absent on the v4 event: only the legacy shape carries its generation. */
  type?: "clanker_v4";
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

/** A TokenCreated of a generation before v4 (generations.ts), where it sits on chain, and its token's pool. */
export interface LegacyTokenCreatedEvent extends EventLocation, LegacyTokenCreated {
  /** From the Uniswap V3 factory's PoolCreated in its transaction; null when none names the token (no pool). */
  pool: LegacyPool | null;
}

/** A TokenCreated of any generation the indexer follows; `type` is set on the legacy shape only. */
export type TokenCreatedEvent = V4TokenCreatedEvent | LegacyTokenCreatedEvent;

export function isLegacyTokenCreated(event: TokenCreatedEvent): event is LegacyTokenCreatedEvent {
  return event.type !== undefined && event.type !== "clanker_v4";
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
    address: checksum(log.address),
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    transactionHash: log.transactionHash,
    transactionIndex: log.transactionIndex,
    logIndex: log.logIndex,
  };
}

const decodeV4TokenCreated = eventDecoder(getAbiItem({ abi: tokenFactoryAbi, name: "TokenCreated" }));

/** The v4 TokenCreated from one log (its addresses lowercase), or null when the log is another event. */
export function decodeTokenCreated(log: AnyLog): V4TokenCreatedEvent | null {
  if (log.topics[0] !== TOKEN_CREATED_TOPIC) return null;
  return { ...locationOf(log), ...decodeV4TokenCreated(log) };
}

/**
 * Every v4 TokenCreated in a transaction (a presale or a batch can create several). A log with the topic that does not
 * decode is left out: any contract can emit the topic, and the follower sets aside a factory's own.
 */
export function findTokenCreated(receipt: { logs: readonly AnyLog[] }): V4TokenCreatedEvent[] {
  return receipt.logs.flatMap((log) => {
    try {
      return decodeTokenCreated(log) ?? [];
    } catch {
      return [];
    }
  });
}

/** The legacy factory `address` is on a chain (settings' legacyFactories), or null: a v4 factory. */
export function legacyFactoryOf(chainId: number, address: string): LegacyFactory | null {
  const lower = address.toLowerCase();
  return chainSettings(chainId).legacyFactories.find((f) => f.factory.toLowerCase() === lower) ?? null;
}

/** topic0 of the TokenCreated a factory of the chain emits (its generation's). */
export function tokenCreatedTopicOf(chainId: number, factory: string): Hex {
  const legacy = legacyFactoryOf(chainId, factory);
  return legacy ? LEGACY_TOKEN_CREATED_TOPICS[legacy.type] : TOKEN_CREATED_TOPIC;
}

/**
 * The TokenCreated of the emitting factory's generation (the chain's legacy factories decide it; any other address
 * is read as v4). Throws when the log is not that event: another generation's, or data that does not decode.
 */
export function decodeTokenCreatedOf(chainId: number, log: AnyLog): TokenCreatedEvent {
  const legacy = legacyFactoryOf(chainId, log.address);
  if (legacy) return { ...locationOf(log), ...decodeLegacyTokenCreated(legacy, log), pool: null };
  const event = decodeTokenCreated(log);
  if (!event) throw new Error(`not the v4 TokenCreated of factory ${checksum(log.address)}`);
  return event;
}

/** `events` with each legacy token's pool found among `logs` (the same range's or receipt's; legacyPoolsOf). */
function withLegacyPools<E extends TokenCreatedEvent>(chainId: number, events: E[], logs: readonly AnyLog[]): E[] {
  const v3 = UNISWAP_V3[chainId];
  const legacy = events.filter(isLegacyTokenCreated);
  if (!v3 || !legacy.length) return events;
  const pools = new Map(legacyPoolsOf(v3, logs, legacy).map((pool, i) => [legacy[i]!, pool]));
  return events.map((e) => (isLegacyTokenCreated(e) ? { ...e, pool: pools.get(e) ?? null } : e));
}

/** Every TokenCreated of any generation in a transaction, each decoded as its emitter's generation (others left out). */
export function findTokenCreatedOf(chainId: number, receipt: { logs: readonly AnyLog[] }): TokenCreatedEvent[] {
  const topics = new Set<Hex>([TOKEN_CREATED_TOPIC, ...Object.values(LEGACY_TOKEN_CREATED_TOPICS)]);
  const events = receipt.logs.flatMap((log) => {
    if (!log.topics[0] || !topics.has(log.topics[0])) return [];
    try {
      return [decodeTokenCreatedOf(chainId, log)];
    } catch {
      return [];
    }
  });
  return withLegacyPools(chainId, events, receipt.logs);
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
 * and those that do not (set aside by the indexer, never a stop for the rest). Each factory's logs are read as its
 * generation's event. v0 to v3 index no argument, so for them a token or admin filter is applied after decoding.
 * A legacy token's pool comes from the Uniswap V3 factory's PoolCreated: read with the range's logs, or for a filtered
 * query (a lookup) over the blocks of the legacy tokens it found.
 */
export async function readTokenCreatedLogs(
  chainId: number,
  query: TokenCreatedQuery,
): Promise<{ events: TokenCreatedEvent[]; undecodable: UndecodableLog[] }> {
  if (query.factories.length === 0) return { events: [], undecodable: [] };
  const generation = (factory: Address) => legacyFactoryOf(chainId, factory)?.type ?? "clanker_v4";
  const indexed = (factory: Address) => indexesToken(generation(factory));
  const filtered = query.tokenAddress !== undefined || query.tokenAdmin !== undefined;
  const v3 = query.factories.some((f) => generation(f) !== "clanker_v4") ? UNISWAP_V3[chainId] : undefined;
  const [tokenTopic, adminTopic] = encodeEventTopics({
    abi: tokenFactoryAbi,
    eventName: "TokenCreated",
    args: { tokenAddress: query.tokenAddress, tokenAdmin: query.tokenAdmin },
  }).slice(1);
  const range = { fromBlock: BigInt(query.fromBlock), toBlock: BigInt(query.toBlock) };
  const read = async (addresses: Address[], topics: (Hex[] | Hex | null)[], blocks = range) => {
    if (!addresses.length) return [];
    return withChainErrors(chainId, () =>
      getPublicClient(chainId).request({
        method: "eth_getLogs",
        params: [{ address: addresses, topics, fromBlock: toHex(blocks.fromBlock), toBlock: toHex(blocks.toBlock) }],
      }),
    );
  };
  const topic0s = (factories: Address[]) => [...new Set(factories.map((f) => tokenCreatedTopicOf(chainId, f)))];
  const withTopics = query.factories.filter(indexed);
  const bare = query.factories.filter((f) => !indexed(f));
  // A range's pools come with its logs, in the same eth_getLogs; a lookup's are read for the blocks of what it found.
  const along = filtered ? undefined : v3;
  const logs = (
    await Promise.all([
      read(withTopics, [topic0s(withTopics), tokenTopic ?? null, adminTopic ?? null]),
      read(along ? [...bare, along.factory] : bare, [[...topic0s(bare), ...(along ? [POOL_CREATED_TOPIC] : [])]]),
    ])
  )
    .flat()
    .map((raw) => formatLog(raw));
  const same = (a: string, b: Address | undefined) => !b || a.toLowerCase() === b.toLowerCase();
  const isPool = (log: { address: string }) => log.address.toLowerCase() === v3?.factory.toLowerCase();
  let events: TokenCreatedEvent[] = [];
  const undecodable: UndecodableLog[] = [];
  for (const log of logs) {
    if (isPool(log)) continue;
    try {
      const event = decodeTokenCreatedOf(chainId, log);
      if (same(event.tokenAddress, query.tokenAddress) && same(event.tokenAdmin, query.tokenAdmin)) events.push(event);
    } catch (error) {
      undecodable.push({ ...locationOf(log), error: error instanceof Error ? error.message : String(error) });
    }
  }
  const legacyBlocks = events.filter(isLegacyTokenCreated).map((e) => Number(e.blockNumber));
  const pools =
    v3 && filtered && legacyBlocks.length
      ? (
          await read([v3.factory], [POOL_CREATED_TOPIC], {
            fromBlock: BigInt(Math.min(...legacyBlocks)),
            toBlock: BigInt(Math.max(...legacyBlocks)),
          })
        ).map((raw) => formatLog(raw))
      : logs;
  events = withLegacyPools(chainId, events, pools);
  // Block and log order across the two reads, as one read would return them.
  const order = (a: EventLocation, b: EventLocation) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1;
  return { events: events.sort(order), undecodable: undecodable.sort(order) };
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
