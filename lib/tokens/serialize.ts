// The token object of COMPAT.md, from a tokens row: snake_case, addresses checksummed, wei as strings.
import type { Selectable } from "kysely";
import type { TokensTable, TokenMarketTable } from "../../db/tables/core";
import { displayAddress } from "../http/params";

export type TokenRow = Selectable<TokensTable>;
export type MarketRow = Selectable<TokenMarketTable>;

export type TokenMarket = {
  marketCap: number | null;
  priceUsd: number | null;
  volume24h: number | null;
  priceChangePercent1h: number | null;
  priceChangePercent24h: number | null;
  txCount24h: number | null;
};

export type MarketValues = Pick<MarketRow, "market_cap_usd" | "price_usd" | "volume_24h_usd" | "tx_count_24h" | "price_change_1h" | "price_change_24h">;

export function toMarket(row: MarketValues | null | undefined): TokenMarket | null {
  if (!row) return null;
  return {
    marketCap: row.market_cap_usd,
    priceUsd: row.price_usd,
    volume24h: row.volume_24h_usd,
    priceChangePercent1h: row.price_change_1h,
    priceChangePercent24h: row.price_change_24h,
    txCount24h: row.tx_count_24h,
  };
}

export function toTokenObject(row: TokenRow, related?: { user?: unknown; market?: TokenMarket | null }) {
  return {
    id: row.id,
    created_at: row.created_at.toISOString(),
    deployed_at: row.deployed_at.toISOString(),
    tx_hash: row.tx_hash,
    contract_address: displayAddress(row.contract_address)!,
    name: row.name,
    symbol: row.symbol,
    img_url: row.img_url,
    pool_address: displayAddress(row.pool_address),
    requestor_fid: row.requestor_fid,
    msg_sender: displayAddress(row.msg_sender)!,
    admin: displayAddress(row.admin)!,
    cast_hash: row.cast_hash,
    type: row.type,
    pair: row.pair,
    chain_id: row.chain_id,
    presale_id: row.presale_id,
    factory_address: displayAddress(row.factory_address),
    locker_address: displayAddress(row.locker_address),
    metadata: row.metadata,
    social_context: row.social_context,
    deploy_config: row.deploy_config,
    pool_config: row.pool_config,
    starting_market_cap: row.starting_market_cap,
    warnings: row.warnings,
    tags: row.tags,
    supply: row.supply,
    ...(related && (related.user !== undefined || related.market !== undefined)
      ? { related: { ...(related.user !== undefined ? { user: related.user } : {}), ...(related.market !== undefined ? { market: related.market } : {}) } }
      : {}),
  };
}

export type TokenObject = ReturnType<typeof toTokenObject>;
