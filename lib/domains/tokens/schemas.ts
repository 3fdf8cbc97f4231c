// Query and body schemas of the token endpoints (interface 4.1), and their translation into list filters.
import { z } from "zod";
import { zAddress, zBool, zChainId, zFid, zFidList, zInt, zLimit, zSort, zText, zUnixSeconds } from "@/lib/core/input";
import { SORT_BY, zCursor } from "./cursor";
import { classifySearchTerm, type TokenFilters } from "./queries/filters";
import { ADDRESS_TEXT, BYTES32_TEXT, isEvmAddress, SOLANA_ADDRESS, SOLANA_ADDRESS_TEXT } from "@/lib/core/evm";

export const MAX_Q_CHARS = 100;
export const MAX_FIDS = 100;
/** Deeper pages go by cursor: an offset makes Postgres read and drop every row before it. */
export const MAX_OFFSET = 1_000;
export const MAX_POOL_ADDRESSES = 100;

const POOL_KEY = new RegExp(`^(${ADDRESS_TEXT}|${BYTES32_TEXT})$`);

/**
 * A 20-byte pool address (v3 era) or a 32-byte Uniswap v4 pool id; lowercase. Lowered in place (`toLowerCase()`)
 * rather than by a transform, which zod runs as a pipe.
 */
export const zPoolAddress = z
  .string()
  .trim()
  .toLowerCase()
  .regex(POOL_KEY, "must be a pool address (0x + 40 hex digits) or a v4 pool id (0x + 64 hex digits)");

/**
 * An EVM address (lowercase) or a Solana mint (base58, 32 to 44 characters, case kept). The refinement decides;
 * the pattern (the same two forms) is what the document shows.
 */
export const zTokenAddress = z
  .string()
  .trim()
  .meta({ pattern: `^(${ADDRESS_TEXT}|${SOLANA_ADDRESS_TEXT})$` })
  .refine(
    (v) => isEvmAddress(v) || SOLANA_ADDRESS.test(v),
    "must be an EVM address (0x + 40 hex digits) or a Solana mint (base58, 32 to 44 characters)",
  )
  .transform((v) => (v.startsWith("0x") ? v.toLowerCase() : v));

const zPair = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._-]{1,32}$/, "must be `all` or a token symbol (letters, digits, . _ -; at most 32)")
  .transform((v) => v.toLowerCase());

/** Descriptions shared by the token lists' parameters. */
const about = {
  q: "an address (contract or pool), a v4 pool id, or a name or symbol: a substring from three characters, else the start",
  fids: `comma-separated FIDs of the tokens' requestors, at most ${MAX_FIDS}`,
  cursor:
    'the previous page\'s cursor (or the platform\'s base64 `{"id":"<deployed_at>"}`); one of another sort starts over',
  includeUser: "add each token's creator profile",
  includeMarket: "add each token's stored market data",
  chainId: "only tokens of this chain",
};

/** Paging by position beside the cursor, as the earlier API's clients page (`page` and `limit`): pageOffset. */
const offsetParams = {
  offset: zInt(0, MAX_OFFSET).default(0).describe(`tokens to skip, at most ${MAX_OFFSET} (deeper pages go by cursor)`),
  // Scanners that count from 0 send page=0 for the first page, which the platform answers.
  page: zInt(0, MAX_OFFSET + 1)
    .optional()
    .describe(
      `the earlier API's page number, from 1 (0 is page 1): skips (page - 1) × limit tokens (plus offset), at most ${MAX_OFFSET} in all`,
    ),
};

const listParams = {
  q: zText(MAX_Q_CHARS).optional().describe(about.q),
  fids: zFidList(MAX_FIDS).optional().describe(about.fids),
  msgSender: zAddress.optional().describe("only tokens whose deploying transaction this address sent"),
  pairAddress: zPoolAddress.optional().describe("only the token of this pool address or v4 pool id"),
  pair: zPair.default("all").describe("`all`, or only tokens paired with this quote token symbol (e.g. WETH)"),
  sort: zSort.default("desc").describe("the order of sortBy (desc: newest or largest first)"),
  // The platform's reference also lists `deployed-at`, its default order: the same list and cursors as no sortBy.
  sortBy: z
    .enum([...SORT_BY, "deployed-at"], { message: `must be one of ${[...SORT_BY, "deployed-at"].join(", ")}` })
    .transform((v) => (v === "deployed-at" ? undefined : v))
    .optional()
    .describe("a market sort (tokens without market data last), or deployed-at: newest first, as without sortBy"),
  socialInterface: zText(64)
    .pipe(z.string().trim().min(1, "must not be empty"))
    .optional()
    .describe("only tokens launched through this interface (its name, any case)"),
  cursor: zCursor.optional().describe(about.cursor),
  startDate: zUnixSeconds
    .optional()
    .describe("only tokens deployed after this time (unix seconds, a fraction allowed)"),
  ...offsetParams,
  includeUser: zBool.default(false).describe(about.includeUser),
  includeMarket: zBool.default(false).describe(about.includeMarket),
  chainId: zChainId.optional().describe(about.chainId),
  champagne: zBool.default(false).describe("only tokens tagged champagne"),
};

export const tokensQuery = z.object({
  ...listParams,
  fid: zFid.optional().describe("only tokens requested by this FID (with fids: either)"),
  limit: zLimit(20, 10, 0),
});

export const authenticatedTokensQuery = z.object({
  ...listParams,
  fid: z
    .never({ message: "is not accepted on this endpoint; use fids" })
    .optional()
    .describe("not accepted here (400): use fids"),
  limit: zLimit(200, 10, 0),
});

type ListQuery = Omit<z.infer<typeof tokensQuery>, "fid"> & { fid?: number };

export function listFilters(query: ListQuery): TokenFilters {
  const fids = [...new Set([...(query.fid !== undefined ? [query.fid] : []), ...(query.fids ?? [])])];
  return {
    q: query.q === undefined ? undefined : classifySearchTerm(query.q),
    fids: fids.length ? fids : undefined,
    msgSender: query.msgSender,
    pool: query.pairAddress,
    pair: query.pair === "all" ? undefined : query.pair,
    socialInterface: query.socialInterface?.toLowerCase(),
    deployedAfter: query.startDate === undefined ? undefined : new Date(query.startDate * 1000),
    chainId: query.chainId,
    champagne: query.champagne || undefined,
  };
}

export const tokenByAddressQuery = z.object({
  address: zTokenAddress.describe("the token's EVM contract address (any case) or Solana mint"),
});

export const tokensByFidQuery = z.object({
  fid: zFid.describe("the FID that requested the tokens"),
  cursor: zCursor.optional().describe(about.cursor),
});

export const fetchByAdminQuery = z.object({
  admin: zAddress.describe("the tokens' admin (tokenAdmin), any case"),
  cursor: zCursor.optional().describe(about.cursor),
  limit: zLimit(200, 10),
  includeUser: zBool.default(false).describe(about.includeUser),
  includeMarket: zBool.default(false).describe(about.includeMarket),
  chainId: zChainId.optional().describe(about.chainId),
});

export const isBlockedQuery = z.object({
  address: zAddress.describe("the token's contract address (any case)"),
  chainId: zChainId.optional().describe("only a block on this chain (or a global one) counts; without it, any block"),
});

/** The page of fetch-deployed-by-*: `limit` (10 as the interface has it, up to 20) by cursor, `page` or `offset`. */
const deployedPaging = {
  cursor: zCursor.optional().describe(about.cursor),
  limit: zLimit(20, 10),
  ...offsetParams,
};

export const deployedByFidQuery = z.object({
  fid: zFid.describe("the FID that requested the tokens"),
  ...deployedPaging,
});

export const deployedByAddressQuery = z.object({
  address: zAddress.describe("the account that sent the deploying transactions (msg_sender)"),
  ...deployedPaging,
});

export const byPoolAddressQuery = z.object({
  poolAddress: zPoolAddress.describe("a V3-style pool address or a Uniswap v4 pool id (any case)"),
});

/**
 * The platform's reference types the list as `string[]`: a string that is neither a pool address nor a v4 pool id
 * (`""`, a symbol) matches no pool, as an unknown pool does, instead of failing the other 99. One transform over the
 * list, not one per item (a pipe each).
 */
export const byPoolAddressesBody = z.object({
  poolAddresses: z
    .array(z.string())
    .max(MAX_POOL_ADDRESSES, `at most ${MAX_POOL_ADDRESSES} addresses`)
    .transform((list) => list.map((item) => item.trim().toLowerCase()).filter((key) => POOL_KEY.test(key)))
    .describe(
      `pool addresses (0x + 40 hex digits) or v4 pool ids (0x + 64), any case, at most ${MAX_POOL_ADDRESSES}; a string of neither form matches no pool`,
    )
    .meta({ examples: [[`0x${"ab".repeat(20)}`]] }),
});

export const searchQuery = z.object({
  q: zText(MAX_Q_CHARS).optional().describe(about.q),
  fids: zFidList(MAX_FIDS).optional().describe(about.fids),
  cursor: zCursor.optional().describe(about.cursor),
});

export const MARKET_HISTORY_MAX_DAYS = 365;
export const MARKET_HISTORY_MAX_POINTS = 500;

export const marketHistoryQuery = z.object({
  address: zAddress.describe("the token's contract address (any case)"),
  chainId: zChainId.describe("the chain the token was deployed on"),
  days: zInt(1, MARKET_HISTORY_MAX_DAYS, 30)
    .default(30)
    .describe("how far back, in days (snapshots are kept MARKET_SNAPSHOT_RETENTION_DAYS)"),
});
