// The token object of COMPAT, from a tokens row: snake_case, addresses checksummed, wei as strings.
import { sql, type Selectable } from "kysely";
import type { TokensTable, TokenMarketTable } from "@/db/tables/core";
import { config } from "@/lib/core/config";
import { displayAddress } from "@/lib/core/evm";
import { JsonText, toJson } from "@/lib/core/json";
import type { z } from "zod";
import type { UserObject } from "@/lib/domains/users/serialize";
import type { PageRow } from "./queries/page";
import type { tokenObject } from "./responses";

/** A token as answers show it (the platform's token object). */
export type TokenObject = z.input<typeof tokenObject>;
type Extensions = TokenObject["extensions"];

export type TokenRow = Selectable<TokensTable>;
export type MarketRow = Selectable<TokenMarketTable>;

export type TokenMarket = {
  marketCap: number | null;
  priceUsd: number | null;
  volume24h: number | null;
  priceChangePercent1h: number | null;
  priceChangePercent24h: number | null;
  txCount24h: number | null;
  /** When the figures were fetched (ISO 8601). */
  updatedAt: string;
  /** Older than MARKET_MAX_AGE_SECONDS: the figures are withheld (null), not served as current. */
  stale: boolean;
};

export type MarketValues = Pick<
  MarketRow,
  | "market_cap_usd"
  | "price_usd"
  | "volume_24h_usd"
  | "tx_count_24h"
  | "price_change_1h"
  | "price_change_24h"
  | "updated_at"
>;

/** The market columns a page row carries (m_*), or null when the token has no market row. */
export function marketOf(row: Omit<PageRow, keyof TokenRow | "sort_value">): MarketValues | null {
  if (row.m_token_id === null) return null;
  return {
    market_cap_usd: row.m_market_cap_usd,
    price_usd: row.m_price_usd,
    volume_24h_usd: row.m_volume_24h_usd,
    tx_count_24h: row.m_tx_count_24h,
    price_change_1h: row.m_price_change_1h,
    price_change_24h: row.m_price_change_24h,
    updated_at: row.m_updated_at!,
  };
}

/** The market object of a stored row; figures older than MARKET_MAX_AGE_SECONDS are withheld and marked stale. */
export function toMarket(row: MarketValues | null | undefined): TokenMarket | null {
  if (!row) return null;
  const stale = Date.now() - row.updated_at.getTime() > config().MARKET_MAX_AGE_SECONDS * 1000;
  const figure = <T>(value: T) => (stale ? null : value);
  return {
    marketCap: figure(row.market_cap_usd),
    priceUsd: figure(row.price_usd),
    volume24h: figure(row.volume_24h_usd),
    priceChangePercent1h: figure(row.price_change_1h),
    priceChangePercent24h: figure(row.price_change_24h),
    txCount24h: figure(row.tx_count_24h),
    updatedAt: row.updated_at.toISOString(),
    stale,
  };
}

/**
 * The token object. Its members come in three runs, scalars, addresses, then the stored documents, so that
 * PostgreSQL can write the first and last runs as JSON text and only the checksummed addresses are spliced
 * in between (tokenJson); JSON member order means nothing to a client, but one order everywhere is simpler.
 */
export function toTokenObject(row: TokenRow, related?: Related): TokenObject {
  return {
    id: row.id,
    created_at: row.created_at.toISOString(),
    deployed_at: row.deployed_at.toISOString(),
    tx_hash: row.tx_hash,
    name: row.name,
    symbol: row.symbol,
    img_url: row.img_url,
    requestor_fid: row.requestor_fid,
    cast_hash: row.cast_hash,
    type: row.type,
    pair: row.pair,
    chain_id: row.chain_id,
    presale_id: row.presale_id,
    contract_address: displayAddress(row.contract_address)!,
    pool_address: displayAddress(row.pool_address),
    msg_sender: displayAddress(row.msg_sender)!,
    admin: displayAddress(row.admin)!,
    factory_address: displayAddress(row.factory_address),
    locker_address: displayAddress(row.locker_address),
    metadata: row.metadata,
    social_context: row.social_context,
    deploy_config: row.deploy_config,
    pool_config: row.pool_config,
    // Written in this shape by the token indexer (lib/domains/launch/indexer/extensions.ts).
    extensions: row.extensions as Extensions,
    starting_market_cap: row.starting_market_cap,
    warnings: row.warnings,
    tags: row.tags,
    supply: row.supply,
    ...(relatedOf(related) ? { related: relatedOf(related) } : {}),
  };
}

export type Related = { user?: UserObject | null; market?: TokenMarket | null };

/** The `related` member of a token object: the user and market asked for, or nothing. */
function relatedOf(related: Related | undefined) {
  if (!related || (related.user === undefined && related.market === undefined)) return undefined;
  return {
    ...(related.user !== undefined ? { user: related.user } : {}),
    ...(related.market !== undefined ? { market: related.market } : {}),
  };
}

// The same object written by PostgreSQL, for answers of many tokens: building and serialising 100 token objects
// in Node costs more than the query that finds them (fetch-by-pool-addresses). Timestamps as toISOString writes
// them (milliseconds truncated, UTC), wei as a string, a non-finite market cap as null (JSON.stringify's NaN).
const isoTimestamp = (column: string) =>
  `to_char(t.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`;
const TOKEN_JSON_HEAD = sql<string>`(select row_to_json(x)::text from (select t.id, ${sql.raw(isoTimestamp("created_at"))}, ${sql.raw(isoTimestamp("deployed_at"))},
  t.tx_hash, t.name, t.symbol, t.img_url, t.requestor_fid, t.cast_hash, t.type, t.pair, t.chain_id, t.presale_id) x)`;
const TOKEN_JSON_TAIL = sql<string>`(select row_to_json(x)::text from (select t.metadata, t.social_context, t.deploy_config, t.pool_config, t.extensions,
  case when t.starting_market_cap in ('NaN', 'Infinity', '-Infinity') then null else t.starting_market_cap end as starting_market_cap,
  t.warnings, t.tags, t.supply::text as supply) x)`;

/** What a query over `tokens as t` selects for tokenJson. */
export const tokenJsonColumns = [
  TOKEN_JSON_HEAD.as("json_head"),
  TOKEN_JSON_TAIL.as("json_tail"),
  "t.contract_address",
  "t.pool_address",
  "t.msg_sender",
  "t.admin",
  "t.factory_address",
  "t.locker_address",
] as const;

export type TokenJsonRow = Pick<
  TokenRow,
  "contract_address" | "pool_address" | "msg_sender" | "admin" | "factory_address" | "locker_address"
> & {
  json_head: string;
  json_tail: string;
};

// Stored addresses are hex or base58; JSON.stringify is only for anything else (it costs more than the splice).
const PLAIN = /^[0-9A-Za-z]*$/;
export const jsonString = (value: string) => (PLAIN.test(value) ? `"${value}"` : JSON.stringify(value));
const jsonAddress = (address: string | null) => (address === null ? "null" : jsonString(displayAddress(address)!));

/** The JSON text of toTokenObject(row, related), from the columns of tokenJsonColumns. */
export function tokenJson(row: TokenJsonRow, related?: Related): JsonText<TokenObject> {
  const extra = relatedOf(related);
  return new JsonText(
    row.json_head.slice(0, -1) +
      `,"contract_address":${jsonAddress(row.contract_address)},"pool_address":${jsonAddress(row.pool_address)}` +
      `,"msg_sender":${jsonAddress(row.msg_sender)},"admin":${jsonAddress(row.admin)}` +
      `,"factory_address":${jsonAddress(row.factory_address)},"locker_address":${jsonAddress(row.locker_address)},` +
      (extra ? `${row.json_tail.slice(1, -1)},"related":${toJson(extra)}}` : row.json_tail.slice(1)),
  );
}
