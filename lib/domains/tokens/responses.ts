// Answer shapes of the token endpoints (COMPAT), for the OpenAPI document.
import { z } from "zod";
import { checksummedAddress as address, poolKey } from "@/lib/core/answers";
import { ADDRESS_TEXT, BYTES32_TEXT, SOLANA_ADDRESS_TEXT } from "@/lib/core/evm";
import { userObject } from "@/lib/domains/users/responses";

const nullable = <T extends z.ZodType>(t: T) => t.nullable();

/** Documentation of the stored values (answers are not validated at run time; the API tests check them). */
const either = (...texts: string[]) => new RegExp(`^(${texts.join("|")})$`);
const tokenAddress = z.string().regex(either(ADDRESS_TEXT, SOLANA_ADDRESS_TEXT));
/** A transaction: 32 bytes of EVM hash, or a Solana signature (base58, 64 bytes). */
const txHash = z.string().regex(either(BYTES32_TEXT, "[1-9A-HJ-NP-Za-km-z]{64,90}"));

export const marketObject = z
  .object({
    marketCap: nullable(z.number()).describe("USD"),
    priceUsd: nullable(z.number()),
    volume24h: nullable(z.number()).describe("USD, 24 h"),
    priceChangePercent1h: nullable(z.number()),
    priceChangePercent24h: nullable(z.number()),
    txCount24h: nullable(z.number().int()),
    updatedAt: z.string().describe("when the figures were fetched from the aggregator (ISO 8601)"),
    stale: z
      .boolean()
      .describe("older than the service's limit (MARKET_MAX_AGE_SECONDS): the figures are null, not served as current"),
  })
  .meta({ id: "TokenMarket", description: "A token's stored market figures (includeMarket)" });

const feeHook = {
  hook_address: address.describe("the pool's fee hook (Uniswap v4 hooks address of the pool key)"),
  recipients: z
    .array(
      z.object({
        bps: z.number().int().describe("the recipient's share of the LP fees, basis points (10,000 = 100%)"),
        admin: address.describe("may change this entry's admin and recipient, EIP-55 checksummed"),
        recipient: address.describe("receives this share, EIP-55 checksummed"),
      }),
    )
    .optional()
    .describe("the reward split as deployed, when the deployment's configuration is known"),
};

/** `extensions.fees` (lib/domains/launch/indexer/extensions.ts): the hook alone, or with the fees its pool data says. */
const feesObject = z
  .union([
    z.object({
      ...feeHook,
      type: z.literal("static"),
      tokenFee: z.number().int().describe("fee on the token's side, millionths"),
      pairedFee: z.number().int().describe("fee on the paired token's side, millionths"),
    }),
    z.object({
      ...feeHook,
      type: z.literal("dynamic"),
      baseFee: z.number().int().describe("base fee, millionths"),
      maxFee: z.number().int().describe("maximum fee, millionths"),
    }),
    z.object(feeHook),
  ])
  .meta({
    id: "TokenFees",
    description:
      "the hook always (TokenCreated); recipients when the deployment's configuration is known (this service's deployment, or a direct call to the factory), and type and fees when its pool data is recognised",
  });

// Members in toTokenObject's order (scalars, addresses, stored documents; see lib/domains/tokens/serialize.ts).
export const tokenObject = z
  .object({
    id: z.number().int(),
    created_at: z.string().describe("ISO 8601"),
    deployed_at: z.string().describe("ISO 8601; the default sort key"),
    tx_hash: nullable(txHash).describe("the deploying transaction (lowercase 0x-hex on EVM chains); null if unknown"),
    name: z.string(),
    symbol: z.string(),
    img_url: nullable(z.string()).describe("the token's image URL as deployed (http(s) or ipfs), or null"),
    requestor_fid: nullable(z.number().int()).describe("the Farcaster ID that asked for the token, if any"),
    cast_hash: nullable(z.string()).describe(
      "the social message that asked for the token (a cast hash or a message id)",
    ),
    type: z.string().describe("deployment generation, e.g. clanker_v4"),
    pair: nullable(z.string()).describe("the paired (quote) token's symbol, e.g. WETH"),
    chain_id: z.number().int().describe("the chain the token is deployed on (8453 is Base)"),
    presale_id: nullable(z.number().int()).describe("the presale the token came from (GET /api/presales), if any"),
    contract_address: tokenAddress.describe("checksummed EVM address, or a Solana mint (base58) as stored"),
    pool_address: nullable(poolKey).describe(
      "20-byte pool address (checksummed), a 32-byte v4 pool id, or a Solana pool (base58); null if unknown",
    ),
    msg_sender: address.describe("the account that sent the deploying transaction, EIP-55 checksummed"),
    admin: address.describe("the token's admin (tokenAdmin), EIP-55 checksummed"),
    factory_address: nullable(address).describe("the factory that deployed it, EIP-55 checksummed"),
    locker_address: nullable(address).describe("the LP locker holding the pool position, EIP-55 checksummed"),
    metadata: z
      .record(z.string(), z.unknown())
      .describe("{ description, socialMediaUrls: [{ platform, url }], auditUrls }"),
    social_context: z.record(z.string(), z.unknown()).describe("{ interface, platform, messageId, id }"),
    deploy_config: nullable(z.record(z.string(), z.unknown())),
    pool_config: nullable(z.record(z.string(), z.unknown())),
    extensions: nullable(z.object({ fees: feesObject })).describe(
      "the platform's extensions member; null when the token's hook is unknown",
    ),
    starting_market_cap: nullable(z.number()).describe("the market cap the pool opened at, in whole paired tokens"),
    warnings: z
      .array(z.string())
      .describe("what looked unusual at indexing: UNUSUAL_PAIR_ADDRESS (an unknown quote token), UNUSUAL_TICK"),
    tags: z.object({ champagne: z.boolean(), verified: z.boolean(), knownInterfaceDeployer: z.boolean() }),
    supply: z.string().describe("wei, decimal string"),
    related: z
      .object({
        user: nullable(userObject).optional().describe("the creator's profile (includeUser)"),
        market: nullable(marketObject).optional().describe("stored market data (includeMarket)"),
      })
      .optional(),
  })
  .meta({ id: "Token", description: "A token as the lists answer it (the platform's token object)" });

const cursor = nullable(z.string()).describe("opaque; null on the last page");
const total = z.number().int().describe("exact up to 1,000 matches, the planner's estimate above");

const hasMore = z.boolean().describe("whether tokens follow this page (by cursor, or by page and offset)");

export const tokenListResponse = z
  .object({ data: z.array(tokenObject), total, cursor, hasMore })
  .meta({ id: "TokenList", description: "One page of tokens" });
export const tokenSearchResponse = tokenListResponse.extend({
  tokensDeployed: z
    .number()
    .int()
    .describe(
      "tokens of the requested creators (fid, fids, msgSender) whatever the other filters; else of the platform",
    ),
});
export const tokensByFidResponse = z.object({
  data: z.array(tokenObject),
  pagination: z.object({ cursor, total, totalPages: z.number().int() }),
});
export const tokenByAddressResponse = z.object({
  data: tokenObject.extend({
    twitterUrl: nullable(z.string()).describe("the metadata's X (Twitter) URL"),
    websiteUrl: nullable(z.string()).describe("the metadata's website URL"),
    telegramUrl: nullable(z.string()).describe("the metadata's Telegram URL"),
    discordUrl: nullable(z.string()).describe("the metadata's Discord URL"),
    farcasterUrl: nullable(z.string()).describe("the metadata's Farcaster URL"),
    farcasterVerifiedEthAddress: nullable(address).describe(
      "the requester's (requestor_fid) verified address that sent the deployment, else their first one",
    ),
  }),
});
export const tokenByPoolResponse = z.object({
  data: tokenObject.optional().describe("absent when no token has this pool"),
});
export const tokensByPoolsResponse = z.object({
  data: z.record(z.string().describe("lowercase pool address"), tokenObject),
});
export const isBlockedResponse = z.object({ address, chainId: nullable(z.number().int()), blocked: z.boolean() });

const windows = (value: z.ZodType) =>
  z.object({ m5: value.optional(), h1: value.optional(), h6: value.optional(), h24: value.optional() });
export const trendingResponse = z.object({
  trending: z.array(z.string()).describe("lowercase pool addresses, in the requested order"),
  tokens: z.record(
    z.string(),
    z
      .object({
        address: poolKey.describe("the pool, as the aggregator names it"),
        name: z.string().nullish(),
        pool_created_at: z.string().nullish(),
        base_token_price_usd: nullable(z.string()),
        quote_token_price_usd: nullable(z.string()),
        fdv_usd: nullable(z.string()),
        market_cap_usd: nullable(z.string()),
        reserve_in_usd: nullable(z.string()),
        price_change_percentage: windows(nullable(z.string())),
        transactions: windows(z.object({ buys: z.number().int(), sells: z.number().int() }).nullish()),
        volume_usd: windows(nullable(z.string())),
        token: tokenObject,
      })
      .describe("the aggregator's pool attributes (decimal strings as it sends them) and our token"),
  ),
});

export const marketHistoryResponse = z.object({
  address,
  chainId: z.number().int().describe("the token's chain"),
  points: z
    .array(
      z.object({
        at: z.string().describe("ISO 8601: when the market refresh took the snapshot"),
        marketCap: nullable(z.number()).describe("USD"),
        priceUsd: nullable(z.number()).describe("USD"),
        volume24h: nullable(z.number()).describe("USD, the 24 h before the snapshot"),
      }),
    )
    .describe("the stored market snapshots of the period, oldest first (at most 500, the newest)"),
});
