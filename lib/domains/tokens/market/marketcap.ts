// GET /api/marketcap: a token's market cap in USD from its V3-style pool, read on chain in one multicall
// (with the ETH/USD feed when it is not cached), priced with exact integer math and converted to USD
// through the paired token's price source.
import { z } from "zod";
import type { Address } from "viem";
import {
  ChainUnavailableError,
  chainSettings,
  configuredChainIds,
  readFeedPrice,
  readPoolState,
  readPoolWithFeed,
  readTokenInfo,
  type PoolWithFeed,
} from "@/lib/platform/chain";
import { config } from "@/lib/core/config";
import { badRequest, providerUnavailable, unprocessable } from "@/lib/core/errors";
import { zAddress, zChainId } from "@/lib/core/input";
import { BYTES32, checksum, DEFAULT_CHAIN_ID } from "@/lib/core/evm";
import { kv } from "@/lib/platform/kv";
import { fromFixed, marketCapUsd, multiply, ratioToNumber, tokenPriceInPaired, type Ratio } from "./price-math";

const WETH_DECIMALS = 18;
const DECIMALS_CACHE_SECONDS = 86_400; // an ERC-20's decimals never change

/**
 * A pool contract's address. A v4 pool id (32 bytes, what token lists show as a v4 token's pool) names no contract: it
 * gets a message that says so. (A preprocess, so that the document still shows zAddress's pattern.)
 */
const poolAddress = z.preprocess((value, ctx) => {
  if (typeof value === "string" && BYTES32.test(value.trim()))
    ctx.addIssue({
      code: "custom",
      input: value,
      message: "is a v4 pool id, not a pool contract: the market cap reads V3-style pools only",
    });
  return value;
}, zAddress);

export const marketCapQuery = z.object({
  poolAddress,
  tokenAddress: zAddress,
  chainId: zChainId.default(DEFAULT_CHAIN_ID),
});
export type MarketCapQuery = z.infer<typeof marketCapQuery>;
export const marketCapResponse = z.object({
  marketCap: z.number().describe("USD: the token's total supply at the pool's current price"),
});

/** `USD_STABLECOINS` as chainId → lowercase addresses. */
export function stablecoins(chainId: number): Set<string> {
  const pairs = config()
    .USD_STABLECOINS.split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  return new Set(
    pairs.filter((p) => p.startsWith(`${chainId}:`)).map((p) => p.slice(p.indexOf(":") + 1).toLowerCase()),
  );
}

export const ethUsdCacheKey = (chainId: number) => `market:eth-usd:${chainId}`;
type EthUsdReading = { answer: string; decimals: number };

/** A reading shared through the cache for ETH_USD_CACHE_SECONDS; null when none is kept (or caching is off). */
async function cachedEthUsd(chainId: number): Promise<EthUsdReading | null> {
  return config().ETH_USD_CACHE_SECONDS ? (await kv()).get<EthUsdReading>(ethUsdCacheKey(chainId)) : null;
}

/** The feed's reading from the pool multicall, checked (positive, fresh in chain time) and cached. */
async function acceptFeed(chainId: number, reading: PoolWithFeed): Promise<EthUsdReading> {
  const { ETH_USD_CACHE_SECONDS: ttl, ETH_USD_FEED_MAX_AGE_SECONDS: maxAge } = config();
  const { feed, chainTime } = reading;
  if (feed === undefined) {
    throw new ChainUnavailableError(
      chainId,
      "not_configured",
      `no ETH/USD feed configured (set ETH_USD_FEED_ADDRESS_${chainId})`,
    );
  }
  if (feed === null) throw providerUnavailable("the ETH/USD feed could not be read", 30);
  if (feed.answer <= 0n) throw providerUnavailable("the ETH/USD feed has no valid price", 30);
  // The age is measured in chain time (the block's timestamp), as an on-chain consumer would.
  if (maxAge && chainTime !== undefined && Number(chainTime) - feed.updatedAt.getTime() / 1000 > maxAge) {
    throw providerUnavailable("the ETH/USD feed is stale", 30);
  }
  const accepted = { answer: feed.answer.toString(), decimals: feed.decimals };
  if (ttl) await (await kv()).set(ethUsdCacheKey(chainId), accepted, ttl);
  return accepted;
}

async function tokenDecimals(chainId: number, token: string): Promise<number> {
  const key = `market:decimals:${chainId}:${token}`;
  const store = await kv();
  const cached = await store.get<number>(key);
  if (cached !== null) return cached;
  const info = await readTokenInfo(chainId, checksum(token) as `0x${string}`);
  if (!info) throw unprocessable(`the paired token ${checksum(token)} is not an ERC-20`);
  await store.set(key, info.decimals, DECIMALS_CACHE_SECONDS);
  return info.decimals;
}

/**
 * USD per paired token and the paired token's decimals. WETH: the ETH/USD feed. `USD_STABLECOINS`:
 * exactly 1 USD. A token in `PAIRED_TOKEN_WETH_POOLS_<chainId>`: its WETH pool's price times ETH/USD, per
 * base unit (decimals 0), since its own decimals cancel out. Anything else is refused.
 */
async function pairedUsdPrice(
  chainId: number,
  paired: string,
  ethUsd: () => Promise<Ratio>,
): Promise<{ usd: Ratio; decimals: number }> {
  const settings = chainSettings(chainId);
  const weth = settings.contracts.weth;
  if (paired === weth?.toLowerCase()) return { usd: await ethUsd(), decimals: WETH_DECIMALS };
  if (stablecoins(chainId).has(paired))
    return { usd: { num: 1n, den: 1n }, decimals: await tokenDecimals(chainId, paired) };
  const wethPool = settings.pairedTokenWethPools[paired];
  if (!wethPool || !weth)
    throw unprocessable(`no USD price source for the paired token ${checksum(paired)} on chain ${chainId}`);
  const [pool, usdPerEth] = await Promise.all([
    readPoolState(chainId, wethPool, checksum(paired) as Address),
    ethUsd(),
  ]);
  const misconfigured = `PAIRED_TOKEN_WETH_POOLS_${chainId}: ${wethPool} is not a priced pool of ${checksum(paired)} and WETH`;
  if (!pool || pool.sqrtPriceX96 === 0n) throw providerUnavailable(misconfigured, 60);
  const pairedIsToken0 = pool.token0.toLowerCase() === paired;
  if ((pairedIsToken0 ? pool.token1 : pool.token0).toLowerCase() !== weth.toLowerCase())
    throw providerUnavailable(misconfigured, 60);
  const wethPerBaseUnit = tokenPriceInPaired({
    sqrtPriceX96: pool.sqrtPriceX96,
    tokenIsToken0: pairedIsToken0,
    tokenDecimals: 0,
    pairedDecimals: 0,
  });
  return { usd: multiply(wethPerBaseUnit, fromFixed(1n, WETH_DECIMALS), usdPerEth), decimals: 0 };
}

/**
 * USD worth of `wei` of a paired token, priced from the same sources as the market cap (the ETH/USD feed read alone
 * when no reading is cached). Throws as getMarketCap does when the paired token has no price source.
 */
export async function pairedAmountUsd(chainId: number, paired: string, wei: bigint): Promise<number> {
  const ethUsd = async () => {
    let reading = await cachedEthUsd(chainId);
    if (!reading) {
      const feed = chainSettings(chainId).contracts.ethUsdFeed;
      reading = await acceptFeed(chainId, feed ? await readFeedPrice(chainId, feed) : { pool: null });
    }
    return fromFixed(BigInt(reading.answer), reading.decimals);
  };
  const { usd, decimals } = await pairedUsdPrice(chainId, paired.toLowerCase(), ethUsd);
  return ratioToNumber(multiply(fromFixed(wei, decimals), usd));
}

export async function getMarketCap({
  chainId,
  poolAddress,
  tokenAddress,
}: MarketCapQuery): Promise<z.infer<typeof marketCapResponse>> {
  // The default chain is always served (its RPC failing is a 503); another chain must be configured.
  if (chainId !== DEFAULT_CHAIN_ID && !configuredChainIds().includes(chainId))
    throw badRequest(`chainId: ${chainId} is not served here`);
  // Without a cached ETH/USD reading the feed (and the chain's time, for its age) rides in the pool's multicall.
  const cached = await cachedEthUsd(chainId);
  const feed = cached ? undefined : chainSettings(chainId).contracts.ethUsdFeed;
  const reading = await readPoolWithFeed(chainId, checksum(poolAddress) as Address, checksum(tokenAddress) as Address, {
    feed,
    chainTime: feed !== undefined && config().ETH_USD_FEED_MAX_AGE_SECONDS > 0,
  });
  const state = reading.pool;
  if (!state) throw badRequest("poolAddress: not a V3-style pool that holds tokenAddress");
  if (state.sqrtPriceX96 === 0n) throw unprocessable("the pool has no price yet (not initialised)");
  const tokenIsToken0 = state.token0.toLowerCase() === tokenAddress;
  const paired = (tokenIsToken0 ? state.token1 : state.token0).toLowerCase();
  const ethUsd = async () => {
    const { answer, decimals } = cached ?? (await acceptFeed(chainId, reading));
    return fromFixed(BigInt(answer), decimals);
  };
  const { usd, decimals } = await pairedUsdPrice(chainId, paired, ethUsd);
  const cap = marketCapUsd({
    sqrtPriceX96: state.sqrtPriceX96,
    tokenIsToken0,
    supply: state.totalSupply,
    pairedDecimals: decimals,
    pairedUsd: usd,
  });
  return { marketCap: ratioToNumber(cap) };
}
