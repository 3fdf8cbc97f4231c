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

const MAX_JSON_CHARS = 100_000;
const MAX_TEXT_CHARS = 10_000;

// Postgres text cannot hold NUL, and a contract called directly may emit anything.
const clean = (value: unknown, max = MAX_TEXT_CHARS) =>
  typeof value === "string" ? value.replaceAll("\u0000", "").slice(0, max) : "";
const idText = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) ? String(value) : clean(value, 256);

function parseObject(json: string): Record<string, unknown> {
  if (json.length > MAX_JSON_CHARS) return {};
  try {
    const value = JSON.parse(json);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The metadata JSON in the token object's shape: { description, socialMediaUrls: [{platform, url}], auditUrls }. */
export function normalizeMetadata(json: string): TokenMetadata {
  const m = parseObject(json);
  const links = Array.isArray(m.socialMediaUrls) ? m.socialMediaUrls.slice(0, 50) : [];
  return {
    description: clean(m.description),
    socialMediaUrls: links
      .map((l) =>
        typeof l === "string"
          ? socialLink(clean(l, 2048))
          : l && typeof l === "object"
            ? {
                platform: clean((l as { platform?: unknown }).platform, 64),
                url: clean((l as { url?: unknown }).url, 2048),
              }
            : null,
      )
      .filter((l): l is { platform: string; url: string } => l !== null && l.url !== ""),
    auditUrls: (Array.isArray(m.auditUrls) ? m.auditUrls.slice(0, 50) : []).map((u) => clean(u, 2048)).filter(Boolean),
  };
}

export function normalizeContext(json: string): TokenContext {
  const c = parseObject(json);
  return {
    interface: clean(c.interface, 256),
    platform: clean(c.platform, 64),
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
  const startingMarketCap = quote ? tickToMarketCap(event.startingTick, quote.decimals) : null;
  const warnings: string[] = [];
  if (!quote) warnings.push("UNUSUAL_PAIR_ADDRESS");
  // Below the legacy API's 1 WETH minimum: a start price that invites sniping.
  if (isWeth && startingMarketCap !== null && startingMarketCap < 1) warnings.push("UNUSUAL_TICK");
  const ours = deployerAddress(ctx.chainId)?.toLowerCase();
  return {
    deployed_at: ctx.deployedAt,
    tx_hash: event.transactionHash.toLowerCase(),
    contract_address: event.tokenAddress.toLowerCase(),
    chain_id: ctx.chainId,
    name: clean(event.tokenName),
    symbol: clean(event.tokenSymbol),
    img_url: clean(event.tokenImage, 2048) || null,
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
