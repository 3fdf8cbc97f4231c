// Batched contract reads. Each function is one round trip (Multicall3's aggregate3), so a page of
// market caps or fee balances costs one RPC request, not one per value.
import { multicall3Abi, zeroHash, type Address, type ContractFunctionParameters, type Hash } from "viem";
import { airdropRecordAbi, chainlinkFeedAbi, erc20ReadAbi, feeLockerAbi, tokenDataAbi, v3PoolAbi } from "./abis";
import { presaleAbi, presaleAllowlistAbi } from "./abi-presale";
import { MULTICALL3_ADDRESS, getPublicClient } from "./clients";
import { ChainUnavailableError, toChainError, withChainErrors } from "./errors";
import { chainSettings } from "./settings";

export interface PoolState {
  pool: Address;
  token0: Address;
  token1: Address;
  /** Fee in millionths. */
  fee: number;
  sqrtPriceX96: bigint;
  tick: number;
  /** The token the caller asked about and its total supply (wei). */
  token: Address;
  totalSupply: bigint;
}

/**
 * slot0, token0, token1, fee of a V3-style pool and the total supply of `token`, in one multicall.
 * Null when `pool` is not such a pool or `token` is not one of its two tokens.
 */
export async function readPoolState(chainId: number, pool: Address, token: Address): Promise<PoolState | null> {
  return (await readPoolWithFeed(chainId, pool, token)).pool;
}

export interface PoolWithFeed {
  pool: PoolState | null;
  /** Only when a feed was asked for: its price, or null when it reverted (no such feed). */
  feed?: FeedPrice | null;
  /** Only when asked for: the block's timestamp (Multicall3's getCurrentBlockTimestamp), for feed ages. */
  chainTime?: bigint;
}

/**
 * readPoolState plus, in the same multicall, a Chainlink-style feed's latest round and decimals and the
 * chain's time: a market cap whose ETH/USD price is not cached costs one round trip, not three.
 */
export async function readPoolWithFeed(
  chainId: number,
  pool: Address,
  token: Address,
  extras: { feed?: Address; chainTime?: boolean } = {},
): Promise<PoolWithFeed> {
  const client = getPublicClient(chainId);
  const multicall3 = client.chain.contracts?.multicall3?.address ?? MULTICALL3_ADDRESS;
  const { feed } = extras;
  // The calls vary with the extras asked for, so the list is untyped and the results are typed below.
  const contracts: ContractFunctionParameters[] = [
    { address: pool, abi: v3PoolAbi, functionName: "slot0" },
    { address: pool, abi: v3PoolAbi, functionName: "token0" },
    { address: pool, abi: v3PoolAbi, functionName: "token1" },
    { address: pool, abi: v3PoolAbi, functionName: "fee" },
    { address: token, abi: erc20ReadAbi, functionName: "totalSupply" },
  ];
  if (feed) {
    contracts.push({ address: feed, abi: chainlinkFeedAbi, functionName: "latestRoundData" });
    contracts.push({ address: feed, abi: chainlinkFeedAbi, functionName: "decimals" });
  }
  if (extras.chainTime)
    contracts.push({ address: multicall3, abi: multicall3Abi, functionName: "getCurrentBlockTimestamp" });
  const results = await withChainErrors(chainId, () => client.multicall({ allowFailure: true, contracts }));
  throwIfUnavailable(chainId, results);
  const [slot0, token0, token1, fee, totalSupply] = results as unknown as PoolCallResults;
  const reading: PoolWithFeed = { pool: null };
  let next = 5;
  if (feed) {
    const [round, decimals] = results.slice(next, (next += 2)) as unknown as FeedCallResults;
    reading.feed = decodeFeed(round, decimals);
  }
  if (extras.chainTime) {
    const time = results[next] as { status: string; result?: bigint };
    if (time.status !== "success")
      throw new ChainUnavailableError(chainId, "rpc_error", "Multicall3 getCurrentBlockTimestamp failed");
    reading.chainTime = time.result;
  }
  if (
    slot0.status !== "success" ||
    token0.status !== "success" ||
    token1.status !== "success" ||
    totalSupply.status !== "success"
  ) {
    return reading;
  }
  const lower = token.toLowerCase();
  if (lower !== token0.result.toLowerCase() && lower !== token1.result.toLowerCase()) return reading;
  reading.pool = {
    pool,
    token0: token0.result,
    token1: token1.result,
    fee: fee.status === "success" ? fee.result : 0,
    sqrtPriceX96: slot0.result[0],
    tick: slot0.result[1],
    token,
    totalSupply: totalSupply.result,
  };
  return reading;
}

/**
 * A Chainlink-style feed's latest price and the chain's time, in one multicall: readPoolWithFeed without a pool,
 * for a price that is not read beside one (a fee estimate in USD).
 */
export async function readFeedPrice(chainId: number, feed: Address): Promise<PoolWithFeed> {
  const client = getPublicClient(chainId);
  const multicall3 = client.chain.contracts?.multicall3?.address ?? MULTICALL3_ADDRESS;
  const contracts: ContractFunctionParameters[] = [
    { address: feed, abi: chainlinkFeedAbi, functionName: "latestRoundData" },
    { address: feed, abi: chainlinkFeedAbi, functionName: "decimals" },
    { address: multicall3, abi: multicall3Abi, functionName: "getCurrentBlockTimestamp" },
  ];
  const results = await withChainErrors(chainId, () => client.multicall({ allowFailure: true, contracts }));
  throwIfUnavailable(chainId, results);
  const [round, decimals] = results.slice(0, 2) as unknown as FeedCallResults;
  const time = results[2] as { status: string; result?: bigint };
  return {
    pool: null,
    feed: decodeFeed(round, decimals),
    chainTime: time.status === "success" ? time.result : undefined,
  };
}

type Outcome<T> = { status: "success"; result: T } | { status: "failure"; error: Error };
type PoolCallResults = [
  Outcome<readonly [bigint, number, number, number, number, number, boolean]>,
  Outcome<Address>,
  Outcome<Address>,
  Outcome<number>,
  Outcome<bigint>,
];
type FeedCallResults = [Outcome<readonly [bigint, bigint, bigint, bigint, bigint]>, Outcome<number>];

/**
 * With allowFailure, viem reports a failed multicall request as a failure of every call in it; a
 * transport failure must still surface as ChainUnavailableError, not as "no such contract".
 */
function throwIfUnavailable(chainId: number, results: readonly { status: string; error?: unknown }[]) {
  for (const result of results) {
    if (result.status !== "failure") continue;
    const mapped = toChainError(result.error, chainId);
    if (mapped instanceof ChainUnavailableError) throw mapped;
  }
}

export interface AvailableFee {
  feeOwner: Address;
  token: Address;
  amount: bigint;
}

/** `availableFees(owner, token)` for every owner x token pair, in one multicall (at most 500 pairs). */
export async function readAvailableFees(
  chainId: number,
  feeLocker: Address | undefined,
  owners: readonly Address[],
  tokens: readonly Address[],
): Promise<AvailableFee[]> {
  const locker = feeLocker ?? chainSettings(chainId).contracts.feeLocker;
  if (!locker)
    throw new ChainUnavailableError(
      chainId,
      "not_configured",
      `no fee locker configured (set FEE_LOCKER_ADDRESS_${chainId})`,
    );
  const pairs = owners.flatMap((feeOwner) => tokens.map((token) => ({ feeOwner, token })));
  if (pairs.length === 0) return [];
  if (pairs.length > 500) throw new RangeError("readAvailableFees: at most 500 owner x token pairs per call");
  const client = getPublicClient(chainId);
  const amounts = await withChainErrors(chainId, () =>
    client.multicall({
      allowFailure: false,
      contracts: pairs.map(({ feeOwner, token }) => ({
        address: locker,
        abi: feeLockerAbi,
        functionName: "availableFees" as const,
        args: [feeOwner, token] as const,
      })),
    }),
  );
  return pairs.map((pair, i) => ({ ...pair, amount: amounts[i] as bigint }));
}

export interface FeedPrice {
  /** The raw answer; the price is answer / 10^decimals. */
  answer: bigint;
  decimals: number;
  roundId: bigint;
  updatedAt: Date;
}

/** A Chainlink-style feed's latestRoundData and decimals as a price; null when either call reverted (no such feed). */
function decodeFeed(round: FeedCallResults[0], decimals: FeedCallResults[1]): FeedPrice | null {
  if (round.status !== "success" || decimals.status !== "success") return null;
  const [roundId, answer, , updatedAt] = round.result;
  return { answer, decimals: decimals.result, roundId, updatedAt: new Date(Number(updatedAt) * 1000) };
}

export interface TokenInfo {
  address: Address;
  name: string;
  symbol: string;
  decimals: number;
  totalSupply: bigint;
  /** Version-4 tokens only (null for other ERC-20s). */
  admin: Address | null;
  originalAdmin: Address | null;
  image: string | null;
  metadata: string | null;
  context: string | null;
}

/** ERC-20 basics plus the launch data of a version-4 token, in one multicall; null if not an ERC-20. */
export async function readTokenInfo(chainId: number, token: Address): Promise<TokenInfo | null> {
  const client = getPublicClient(chainId);
  const results = await withChainErrors(chainId, () =>
    client.multicall({
      allowFailure: true,
      contracts: [
        { address: token, abi: erc20ReadAbi, functionName: "name" },
        { address: token, abi: erc20ReadAbi, functionName: "symbol" },
        { address: token, abi: erc20ReadAbi, functionName: "decimals" },
        { address: token, abi: erc20ReadAbi, functionName: "totalSupply" },
        { address: token, abi: tokenDataAbi, functionName: "allData" },
      ],
    }),
  );
  throwIfUnavailable(chainId, results);
  const [name, symbol, decimals, totalSupply, data] = results;
  if (
    name.status !== "success" ||
    symbol.status !== "success" ||
    decimals.status !== "success" ||
    totalSupply.status !== "success"
  ) {
    return null;
  }
  const d = data.status === "success" ? data.result : null;
  return {
    address: token,
    name: name.result,
    symbol: symbol.result,
    decimals: decimals.result,
    totalSupply: totalSupply.result,
    originalAdmin: d?.[0] ?? null,
    admin: d?.[1] ?? null,
    image: d?.[2] ?? null,
    metadata: d?.[3] ?? null,
    context: d?.[4] ?? null,
  };
}

export type Erc20Basics = { name: string | null; symbol: string | null; decimals: number | null };

/** name, symbol and decimals of each token, in one multicall; null where a call fails (not an ERC-20 there). */
export async function readErc20Basics(chainId: number, tokens: readonly Address[]): Promise<Erc20Basics[]> {
  if (tokens.length === 0) return [];
  const client = getPublicClient(chainId);
  const calls = ["name", "symbol", "decimals"] as const;
  const results = await withChainErrors(chainId, () =>
    client.multicall({
      allowFailure: true,
      contracts: tokens.flatMap((address) =>
        calls.map((functionName) => ({ address, abi: erc20ReadAbi, functionName })),
      ),
    }),
  );
  throwIfUnavailable(chainId, results);
  const value = <T>(r: (typeof results)[number]) => (r.status === "success" ? (r.result as T) : null);
  return tokens.map((_, i) => ({
    name: value<string>(results[3 * i]),
    symbol: value<string>(results[3 * i + 1]),
    decimals: value<number>(results[3 * i + 2]),
  }));
}

/** A contract the read needs, or ChainUnavailableError(not_configured): without it nothing can be verified. */
function configuredContract(chainId: number, name: "airdrop" | "presale"): Address {
  const address = chainSettings(chainId).contracts[name];
  if (!address) throw new ChainUnavailableError(chainId, "not_configured", `no ${name} contract configured`);
  return address;
}

/** The Merkle root of a token's airdrop as the chain's airdrop extension holds it (zero: no airdrop). */
export async function readAirdropRoot(chainId: number, token: Address): Promise<Hash> {
  const airdrop = configuredContract(chainId, "airdrop");
  const client = getPublicClient(chainId);
  const [, root] = await withChainErrors(chainId, () =>
    client.readContract({ address: airdrop, abi: airdropRecordAbi, functionName: "airdrops", args: [token] }),
  );
  return root;
}

/** A presale's record as the presale contract holds it (getPresale; status 0: no such presale). */
export async function readPresale(chainId: number, presaleId: bigint) {
  const presale = configuredContract(chainId, "presale");
  const client = getPublicClient(chainId);
  return withChainErrors(chainId, () =>
    client.readContract({ address: presale, abi: presaleAbi, functionName: "getPresale", args: [presaleId] }),
  );
}

/**
 * A presale's allowlist root as its allowlist contract holds it (zero: no allowlist); null when there is no such
 * presale. The presale names its allowlist (the platform's ClankerPresaleAllowlist; locally the presale itself).
 */
export async function readPresaleAllowlistRoot(chainId: number, presaleId: bigint): Promise<Hash | null> {
  const { status, allowlist } = await readPresale(chainId, presaleId);
  if (status === 0) return null;
  if (BigInt(allowlist) === 0n) return zeroHash;
  const client = getPublicClient(chainId);
  const [, root] = await withChainErrors(chainId, () =>
    client.readContract({
      address: allowlist,
      abi: presaleAllowlistAbi,
      functionName: "allowlists",
      args: [presaleId],
    }),
  );
  return root;
}

export interface BlockHeader {
  number: bigint;
  hash: Hash;
  parentHash: Hash;
  timestamp: bigint;
}

/** The latest block, or a given one (null if the chain has not reached it). For indexers: hashes detect reorgs. */
export async function getBlockHeader(chainId: number, blockNumber?: bigint): Promise<BlockHeader | null> {
  const client = getPublicClient(chainId);
  return withChainErrors(chainId, async () => {
    try {
      const block = blockNumber === undefined ? await client.getBlock() : await client.getBlock({ blockNumber });
      return { number: block.number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp };
    } catch (error) {
      if ((error as Error).name === "BlockNotFoundError") return null;
      throw error;
    }
  });
}

export async function getLatestBlockNumber(chainId: number): Promise<bigint> {
  const client = getPublicClient(chainId);
  return withChainErrors(chainId, () => client.getBlockNumber({ cacheTime: 0 }));
}
