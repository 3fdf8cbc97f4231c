// TokenCreated (plus its block time) to a tokens row, upserted on (contract_address, chain_id). The event is
// the truth for on-chain facts; what other domains add to a row (tags, presale, a UI attribution) is kept.
import type { Insertable } from "kysely";
import { getAddress } from "viem";
import { db, type Database } from "@/db";
import type { TokensTable } from "@/db/tables/core";
import { deployerAddress, TOKEN_SUPPLY, type DeploymentConfig, type TokenCreatedEvent } from "@/lib/platform/chain";
import { socialLink, type TokenContext, type TokenMetadata } from "@/lib/domains/launch/deploy/config";
import { quoteTokenByAddress, wethOf } from "@/lib/domains/launch/deploy/quote-tokens";
import { tickToMarketCap } from "@/lib/domains/launch/deploy/tick";
import { linkTokenPresale, upsertIndexedTokenRow } from "@/lib/domains/tokens/queries/indexed";
import { presaleIdOfToken } from "@/lib/domains/presales/service";
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

/** The tokens row an event describes (pure: tests compare it field by field). */
export function tokenRowFromEvent(event: TokenCreatedEvent, ctx: IndexContext): Insertable<TokensTable> {
  const metadata = normalizeMetadata(event.tokenMetadata);
  const context = normalizeContext(event.tokenContext);
  const farcaster = context.platform.toLowerCase() === "farcaster";
  const fid = farcaster && /^\d{1,15}$/.test(context.id) && Number(context.id) > 0 ? Number(context.id) : null;
  const quote = quoteTokenByAddress(ctx.chainId, event.pairedToken);
  const isWeth = event.pairedToken.toLowerCase() === wethOf(ctx.chainId);
  // A tick outside Uniswap's range is no price (a contract called directly may emit any int24).
  const tickInRange = Math.abs(event.startingTick) <= MAX_TICK;
  const startingMarketCap = quote && tickInRange ? tickToMarketCap(event.startingTick, quote.decimals) : null;
  const warnings: string[] = [];
  if (!quote) warnings.push("UNUSUAL_PAIR_ADDRESS");
  // Below the legacy API's 1 WETH minimum: a start price that invites sniping.
  if (!tickInRange || (isWeth && startingMarketCap !== null && startingMarketCap < 1)) warnings.push("UNUSUAL_TICK");
  const ours = deployerAddress(ctx.chainId)?.toLowerCase();
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
    metadata: JSON.stringify(metadata),
    social_context: JSON.stringify(context),
    // The token object's pool_config, plus the pool's hook and MEV module (what its fees and sniper fees run on).
    pool_config: JSON.stringify({
      pairedToken: getAddress(event.pairedToken),
      tickIfToken0IsNewToken: event.startingTick,
      poolHook: getAddress(event.poolHook),
      mevModule: getAddress(event.mevModule),
    }),
    extensions: JSON.stringify(tokenExtensions(ctx.chainId, event, ctx.deployment)),
    starting_market_cap: startingMarketCap,
    warnings,
    tags: JSON.stringify({
      champagne: false,
      verified: false,
      knownInterfaceDeployer: ours === event.msgSender.toLowerCase(),
    }),
    supply: TOKEN_SUPPLY.toString(),
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
  let stored = await upsertIndexedTokenRow(executor, tokenRowFromEvent(event, ctx));
  // A presale indexed before its token: link them now (the presale indexer links the other order).
  const presaleId = stored.presale_id ?? (await presaleIdOfToken(executor, ctx.chainId, stored.contract_address));
  if (presaleId !== null && stored.presale_id !== presaleId) {
    await linkTokenPresale(executor, ctx.chainId, stored.contract_address, presaleId);
    stored = { ...stored, presale_id: presaleId };
  }
  await enqueueTokenCreatedWebhooks(executor, stored); // a no-op for a row indexed before
  return stored;
}
