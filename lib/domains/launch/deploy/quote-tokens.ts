// Tokens a new token can be paired with: each chain's WETH (18 decimals, default market cap 10) plus the
// DEPLOY_QUOTE_TOKENS table. A 4.0.0 `pool.pairedToken` outside the table is read from the chain.
import type { Address } from "viem";
import { checksum } from "@/lib/core/evm";
import { chainSettings, readTokenInfo } from "@/lib/platform/chain";
import { config } from "@/lib/core/config";

export type QuoteToken = {
  symbol: string;
  /** Lowercase. */
  address: Address;
  decimals: number;
  /** Default starting market cap in whole quote tokens; null: the request must name one. */
  defaultMarketCap: number | null;
};

export const WETH_DEFAULT_MARKET_CAP = 10;

/** DEPLOY_QUOTE_TOKENS parsed, per configuration (the indexer asks per token). */
const parsed = new WeakMap<object, Map<number, readonly QuoteToken[]>>();

function configured(chainId: number): readonly QuoteToken[] {
  const cfg = config();
  let byChain = parsed.get(cfg);
  if (!byChain) parsed.set(cfg, (byChain = new Map()));
  let list = byChain.get(chainId);
  if (!list) byChain.set(chainId, (list = parse(cfg.DEPLOY_QUOTE_TOKENS, chainId)));
  return list;
}

function parse(table: string, chainId: number): QuoteToken[] {
  return table
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => entry.split(":"))
    .filter(([chain]) => Number(chain) === chainId)
    .map(([, symbol, address, decimals, cap]) => ({
      symbol: symbol!,
      address: address!.toLowerCase() as Address,
      decimals: Number(decimals),
      defaultMarketCap: Number(cap),
    }));
}

/** WETH of the chain (WETH_ADDRESS_<chainId>, or the production default), lowercase; undefined if unknown. */
export function wethOf(chainId: number): Address | undefined {
  return chainSettings(chainId).contracts.weth?.toLowerCase() as Address | undefined;
}

export function quoteTokens(chainId: number): readonly QuoteToken[] {
  const weth = wethOf(chainId);
  const list = configured(chainId);
  return weth && !list.some((t) => t.address === weth)
    ? [{ symbol: "WETH", address: weth, decimals: 18, defaultMarketCap: WETH_DEFAULT_MARKET_CAP }, ...list]
    : list;
}

/** By symbol, any case; `ETH` names the chain's WETH, as the platform's clients write it. */
export function quoteTokenBySymbol(chainId: number, symbol: string): QuoteToken | undefined {
  const wanted = symbol.trim().toLowerCase();
  const name = wanted === "eth" ? "weth" : wanted;
  return quoteTokens(chainId).find((t) => t.symbol.toLowerCase() === name);
}

export function quoteTokenByAddress(chainId: number, address: string): QuoteToken | undefined {
  return quoteTokens(chainId).find((t) => t.address === address.toLowerCase());
}

/** A paired token's symbol and decimals: the table, else the chain (null when it is not an ERC-20 there). */
export async function pairedTokenInfo(chainId: number, address: Address): Promise<QuoteToken | null> {
  const known = quoteTokenByAddress(chainId, address);
  if (known) return known;
  const info = await readTokenInfo(chainId, checksum(address));
  if (!info) return null;
  return {
    symbol: info.symbol,
    address: address.toLowerCase() as Address,
    decimals: info.decimals,
    defaultMarketCap: null,
  };
}
