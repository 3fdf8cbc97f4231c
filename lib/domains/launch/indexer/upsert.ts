// TokenCreated (plus its block time) to a tokens row, upserted on (contract_address, chain_id). The event is
// the truth for on-chain facts; what other domains add to a row (tags, presale, a UI attribution) is kept.
import type { Insertable } from "kysely";
import { checksum } from "@/lib/core/evm";
import { db, type Database } from "@/db";
import type { TokensTable } from "@/db/tables/core";
import {
  deployerAddress,
  isLegacyTokenCreated,
  TOKEN_SUPPLY,
  type DeploymentConfig,
  type LegacyTokenCreatedEvent,
  type TokenCreatedEvent,
  type V4TokenCreatedEvent,
} from "@/lib/platform/chain";
import { socialLink, type TokenContext, type TokenMetadata } from "@/lib/domains/launch/deploy/config";
import { quoteTokenByAddress, wethOf } from "@/lib/domains/launch/deploy/quote-tokens";
import { tickToMarketCap } from "@/lib/domains/launch/deploy/tick";
import { linkTokenPresales, upsertIndexedTokenRows } from "@/lib/domains/tokens/service";
import type { TokenRow } from "@/lib/domains/tokens/serialize";
import { enqueueTokenCreatedWebhooks } from "@/lib/domains/webhooks/service";
import { storableText } from "@/lib/core/text";
import { storableUrl, TOKEN_TEXT_LIMITS } from "@/lib/domains/tokens/text";
import { tokenExtensions } from "./extensions";

export type IndexContext = {
  chainId: number;
  /** Time of the block holding the event. */
  deployedAt: Date;
  /** FID to attribute the token to when its context names none (a signed-in UI submission). */
  attributedFid?: number | null;
  /** The configuration the token was deployed with, when known (its `extensions`: fees and reward split). */
  deployment: DeploymentConfig | null;
};

const L = TOKEN_TEXT_LIMITS;
/** Uniswap's TickMath bound. */
const MAX_TICK = 887_272;
const clean = (value: unknown, max: number) => storableText(value, max);
const idText = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) ? String(value) : clean(value, L.short);

function parseObject(json: string): Record<string, unknown> {
  if (json.length > L.json) return {};
  try {
    const value = JSON.parse(json);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {}; // not JSON, or nested deeper than the parser goes
  }
}

/** A social link as stored: { platform, url } with a web URL, or null. */
function storableLink(link: unknown): { platform: string; url: string } | null {
  if (typeof link === "string") {
    const url = storableUrl(link);
    return url ? socialLink(url) : null;
  }
  if (!link || typeof link !== "object") return null;
  const url = storableUrl((link as { url?: unknown }).url);
  return url ? { platform: clean((link as { platform?: unknown }).platform, L.short), url } : null;
}

/** The metadata JSON in the token object's shape: { description, socialMediaUrls: [{platform, url}], auditUrls }. */
export function normalizeMetadata(json: string): TokenMetadata {
  const m = parseObject(json);
  const list = (value: unknown) => (Array.isArray(value) ? value.slice(0, L.listItems) : []);
  return {
    description: storableText(m.description, L.description, true),
    socialMediaUrls: list(m.socialMediaUrls)
      .map(storableLink)
      .filter((l) => l !== null),
    auditUrls: list(m.auditUrls).map(storableUrl).filter(Boolean),
  };
}

export function normalizeContext(json: string): TokenContext {
  const c = parseObject(json);
  return {
    interface: clean(c.interface, L.short),
    platform: clean(c.platform, L.short),
    messageId: idText(c.messageId),
    id: idText(c.id),
  };
}

/** The tokens row an event of any generation describes (pure: tests compare it field by field). */
export function tokenRowFromEvent(event: TokenCreatedEvent, ctx: IndexContext): Insertable<TokensTable> {
  return isLegacyTokenCreated(event) ? legacyTokenRow(event, ctx) : v4TokenRow(event, ctx);
}

/** The starting market cap of a tick in a pool with `quote` (null when out of range), and the tick's warnings. */
function startingPrice(tick: number, quote: { decimals: number } | undefined, isWeth: boolean) {
  // A tick outside Uniswap's range is no price (a contract called directly may emit any int24).
  const inRange = Math.abs(tick) <= MAX_TICK;
  const marketCap = quote && inRange ? tickToMarketCap(tick, quote.decimals) : null;
  // Below the legacy API's 1 WETH minimum: a start price that invites sniping.
  const unusual = !inRange || (isWeth && marketCap !== null && marketCap < 1);
  return { marketCap, warnings: unusual ? ["UNUSUAL_TICK"] : [] };
}

function tags(chainId: number, msgSender: string) {
  const ours = deployerAddress(chainId)?.toLowerCase();
  return JSON.stringify({
    champagne: false,
    verified: false,
    knownInterfaceDeployer: ours === msgSender.toLowerCase(),
  });
}

function v4TokenRow(event: V4TokenCreatedEvent, ctx: IndexContext): Insertable<TokensTable> {
  const metadata = normalizeMetadata(event.tokenMetadata);
  const context = normalizeContext(event.tokenContext);
  const farcaster = context.platform.toLowerCase() === "farcaster";
  const fid = farcaster && /^\d{1,15}$/.test(context.id) && Number(context.id) > 0 ? Number(context.id) : null;
  const quote = quoteTokenByAddress(ctx.chainId, event.pairedToken);
  const isWeth = event.pairedToken.toLowerCase() === wethOf(ctx.chainId);
  const start = startingPrice(event.startingTick, quote, isWeth);
  const warnings = [...(quote ? [] : ["UNUSUAL_PAIR_ADDRESS"]), ...start.warnings];
  return {
    deployed_at: ctx.deployedAt,
    tx_hash: event.transactionHash.toLowerCase(),
    contract_address: event.tokenAddress.toLowerCase(),
    chain_id: ctx.chainId,
    name: clean(event.tokenName, L.name),
    symbol: clean(event.tokenSymbol, L.symbol),
    img_url: storableUrl(event.tokenImage) || null,
    pool_address: event.poolId.toLowerCase(),
    requestor_fid: fid ?? ctx.attributedFid ?? null,
    msg_sender: event.msgSender.toLowerCase(),
    admin: event.tokenAdmin.toLowerCase(),
    cast_hash: farcaster && context.messageId ? context.messageId : null,
    type: "clanker_v4",
    pair: quote?.symbol ?? null,
    factory_address: event.address.toLowerCase(),
    locker_address: event.locker.toLowerCase(),
    lp_nft_id: null,
    metadata: JSON.stringify(metadata),
    social_context: JSON.stringify(context),
    // The token object's pool_config, plus the pool's hook and MEV module (what its fees and sniper fees run on).
    pool_config: JSON.stringify({
      pairedToken: checksum(event.pairedToken),
      tickIfToken0IsNewToken: event.startingTick,
      poolHook: checksum(event.poolHook),
      mevModule: checksum(event.mevModule),
    }),
    extensions: JSON.stringify(tokenExtensions(ctx.chainId, event, ctx.deployment)),
    starting_market_cap: start.marketCap,
    warnings,
    tags: tags(ctx.chainId, event.msgSender),
    supply: TOKEN_SUPPLY.toString(),
    block_number: Number(event.blockNumber),
    log_index: event.logIndex,
  };
}

/** Largest FID stored: the indexes and JSON numbers stay exact below 2^53. */
const MAX_FID = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The row of a generation before v4: what its event carries (generations.ts), the pool its factory created (from the
 * Uniswap V3 factory's PoolCreated: pair and address), the LP NFT its locker holds. The event names no image and,
 * before v3.1, no metadata; their members stay empty. Without a pool, v0 and v1 still pair with WETH (their only pair).
 */
function legacyTokenRow(event: LegacyTokenCreatedEvent, ctx: IndexContext): Insertable<TokensTable> {
  const weth = wethOf(ctx.chainId);
  const pairedToken =
    event.pool?.pairedToken ?? (event.type === "proxy" || event.type === "clanker" ? weth : undefined);
  const quote = pairedToken ? quoteTokenByAddress(ctx.chainId, pairedToken) : undefined;
  const isWeth = pairedToken !== undefined && pairedToken === weth;
  const fid = event.fid !== null && event.fid > 0n && event.fid <= MAX_FID ? Number(event.fid) : null;
  const castHash = event.castHash === null ? "" : clean(event.castHash, L.short);
  const context: TokenContext = {
    interface: "",
    platform: fid !== null || castHash ? "farcaster" : "",
    messageId: castHash,
    id: fid === null ? "" : String(fid),
  };
  const start = event.startingTick === null ? null : startingPrice(event.startingTick, quote, isWeth);
  const warnings = [...(pairedToken && !quote ? ["UNUSUAL_PAIR_ADDRESS"] : []), ...(start?.warnings ?? [])];
  return {
    deployed_at: ctx.deployedAt,
    tx_hash: event.transactionHash.toLowerCase(),
    contract_address: event.tokenAddress.toLowerCase(),
    chain_id: ctx.chainId,
    name: clean(event.tokenName, L.name),
    symbol: clean(event.tokenSymbol, L.symbol),
    img_url: null,
    pool_address: event.pool?.address ?? null,
    requestor_fid: fid ?? ctx.attributedFid ?? null,
    msg_sender: event.msgSender.toLowerCase(),
    admin: event.tokenAdmin.toLowerCase(),
    cast_hash: castHash || null,
    type: event.type,
    pair: quote?.symbol ?? null,
    factory_address: event.address.toLowerCase(),
    locker_address: event.locker?.toLowerCase() ?? null,
    lp_nft_id: event.lpNftId.toString(),
    metadata: JSON.stringify(normalizeMetadata(event.tokenMetadata ?? "")),
    social_context: JSON.stringify(context),
    pool_config:
      pairedToken && event.startingTick !== null
        ? JSON.stringify({ pairedToken: checksum(pairedToken), tickIfToken0IsNewToken: event.startingTick })
        : null,
    extensions: null,
    starting_market_cap: start?.marketCap ?? null,
    warnings,
    tags: tags(ctx.chainId, event.msgSender),
    supply: (event.supply ?? TOKEN_SUPPLY).toString(),
    block_number: Number(event.blockNumber),
    log_index: event.logIndex,
  };
}

/** Inserts or refreshes the token of a TokenCreated event; returns the stored row. */
export async function upsertIndexedToken(
  event: TokenCreatedEvent,
  ctx: IndexContext,
  executor: Database = db(),
): Promise<TokenRow> {
  return (await storeTokenRows([tokenRowFromEvent(event, ctx)], executor))[0]!;
}

/** Rows written by one statement: a range's thousands of tokens cost a few statements, not four per token. */
const ROWS_PER_STATEMENT = 500;

/**
 * Inserts or refreshes tokens rows built by tokenRowFromEvent, in their order; the stored rows. A presale indexed
 * before its token is linked now (the presale indexer links the other order), and a new token's launch webhooks are
 * enqueued (a no-op for a row indexed before, or deployed long ago).
 */
export async function storeTokenRows(
  rows: readonly Insertable<TokensTable>[],
  executor: Database = db(),
): Promise<TokenRow[]> {
  const stored: TokenRow[] = [];
  let batch: Insertable<TokensTable>[] = [];
  const keyOf = (r: { chain_id?: number; contract_address: string }) => `${r.chain_id}:${r.contract_address}`;
  const keys = new Set<string>();
  const write = async () => {
    if (!batch.length) return;
    const written = await upsertIndexedTokenRows(executor, batch);
    const byToken = new Map(written.map((r) => [keyOf(r), r]));
    const chainId = written[0]!.chain_id;
    const unlinked = written.filter((r) => r.presale_id === null).map((r) => r.contract_address);
    for (const [address, presaleId] of await linkTokenPresales(executor, chainId, unlinked))
      byToken.set(`${chainId}:${address}`, { ...byToken.get(`${chainId}:${address}`)!, presale_id: presaleId });
    stored.push(...batch.map((r) => byToken.get(keyOf(r))!));
    batch = [];
    keys.clear();
  };
  for (const row of rows) {
    // One statement cannot write a row twice: a token named again (by a hostile contract) starts the next one.
    if (
      keys.has(keyOf(row)) ||
      batch.length >= ROWS_PER_STATEMENT ||
      (batch.length && batch[0]!.chain_id !== row.chain_id)
    )
      await write();
    batch.push(row);
    keys.add(keyOf(row));
  }
  await write();
  for (const row of stored) await enqueueTokenCreatedWebhooks(executor, row); // a no-op for a row indexed before
  return stored;
}
