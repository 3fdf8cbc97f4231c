// GET /api/marketcap: a token's market cap in USD from its V3-style pool, read on chain in one multicall,
// priced with exact integer math and converted to USD through the paired token's price source.
import { z } from "zod";
import { chainSettings, configuredChainIds, getBlockHeader, readEthUsdPrice, readPoolState, readTokenInfo } from "../chain";
import { config } from "../config";
import { badRequest, providerUnavailable, unprocessable } from "../http/errors";
import { checksum, zAddress, zChainId } from "../http/params";
import { kv } from "../kv";
import { fromFixed, marketCapUsd, ratioToNumber, type Ratio } from "./price-math";

export const DEFAULT_CHAIN_ID = 8453;
const WETH_DECIMALS = 18;
const DECIMALS_CACHE_SECONDS = 86_400; // an ERC-20's decimals never change

export const marketCapQuery = z.object({
  poolAddress: zAddress,
  tokenAddress: zAddress,
  chainId: zChainId.default(DEFAULT_CHAIN_ID),
});
export type MarketCapQuery = z.infer<typeof marketCapQuery>;
export const marketCapResponse = z.object({ marketCap: z.number().describe("USD: the token's total supply at the pool's current price") });

/** `USD_STABLECOINS` as chainId → lowercase addresses. */
export function stablecoins(chainId: number): Set<string> {
  const pairs = config().USD_STABLECOINS.split(",").map((p) => p.trim()).filter(Boolean);
  return new Set(pairs.filter((p) => p.startsWith(`${chainId}:`)).map((p) => p.slice(p.indexOf(":") + 1).toLowerCase()));
}

export const ethUsdCacheKey = (chainId: number) => `market:eth-usd:${chainId}`;

/** USD per ETH from the chain's feed, shared through the cache for ETH_USD_CACHE_SECONDS. */
async function ethUsd(chainId: number): Promise<Ratio> {
  const { ETH_USD_CACHE_SECONDS: ttl, ETH_USD_FEED_MAX_AGE_SECONDS: maxAge } = config();
  const key = ethUsdCacheKey(chainId);
  const store = await kv();
  let reading = ttl ? await store.get<{ answer: string; decimals: number }>(key) : null;
  if (!reading) {
    // The age is measured in chain time (the head block's timestamp), as an on-chain consumer would.
    const [feed, head] = await Promise.all([readEthUsdPrice(chainId), maxAge ? getBlockHeader(chainId) : null]);
    if (feed.answer <= 0n) throw providerUnavailable("the ETH/USD feed has no valid price", 30);
    if (head && Number(head.timestamp) - feed.updatedAt.getTime() / 1000 > maxAge) throw providerUnavailable("the ETH/USD feed is stale", 30);
    reading = { answer: feed.answer.toString(), decimals: feed.decimals };
    if (ttl) await store.set(key, reading, ttl);
  }
  return fromFixed(BigInt(reading.answer), reading.decimals);
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

/** WETH through the ETH/USD feed; configured stablecoins at exactly 1 USD; anything else is refused. */
async function pairedUsdPrice(chainId: number, paired: string): Promise<{ usd: Ratio; decimals: number }> {
  if (paired === chainSettings(chainId).contracts.weth?.toLowerCase()) return { usd: await ethUsd(chainId), decimals: WETH_DECIMALS };
  if (stablecoins(chainId).has(paired)) return { usd: { num: 1n, den: 1n }, decimals: await tokenDecimals(chainId, paired) };
  throw unprocessable(`no USD price source for the paired token ${checksum(paired)} on chain ${chainId}`);
}

export async function getMarketCap({ chainId, poolAddress, tokenAddress }: MarketCapQuery): Promise<z.infer<typeof marketCapResponse>> {
  // The default chain is always served (its RPC failing is a 503); another chain must be configured.
  if (chainId !== DEFAULT_CHAIN_ID && !configuredChainIds().includes(chainId)) throw badRequest(`chainId: ${chainId} is not served here`);
  const state = await readPoolState(chainId, checksum(poolAddress) as `0x${string}`, checksum(tokenAddress) as `0x${string}`);
  if (!state) throw badRequest("poolAddress: not a V3-style pool that holds tokenAddress");
  if (state.sqrtPriceX96 === 0n) throw unprocessable("the pool has no price yet (not initialised)");
  const tokenIsToken0 = state.token0.toLowerCase() === tokenAddress;
  const paired = (tokenIsToken0 ? state.token1 : state.token0).toLowerCase();
  const { usd, decimals } = await pairedUsdPrice(chainId, paired);
  const cap = marketCapUsd({ sqrtPriceX96: state.sqrtPriceX96, tokenIsToken0, supply: state.totalSupply, pairedDecimals: decimals, pairedUsd: usd });
  return { marketCap: ratioToNumber(cap) };
}
