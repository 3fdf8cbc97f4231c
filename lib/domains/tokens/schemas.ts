// Query and body schemas of the token endpoints (interface 4.1), and their translation into list filters.
import { z } from "zod";
import { zAddress, zBool, zChainId, zFid, zFidList, zInt, zLimit, zSort, zText } from "@/lib/core/input";
import { SORT_BY, zCursor } from "./cursor";
import { classifySearchTerm, type TokenFilters } from "./queries/filters";
import { ADDRESS_TEXT, BYTES32_TEXT, isEvmAddress, SOLANA_ADDRESS } from "@/lib/core/evm";

export const MAX_Q_CHARS = 100;
export const MAX_FIDS = 100;
/** Deeper pages go by cursor: an offset makes Postgres read and drop every row before it. */
export const MAX_OFFSET = 1_000;
export const MAX_POOL_ADDRESSES = 100;

/** A 20-byte pool address (v3 era) or a 32-byte Uniswap v4 pool id; lowercase. */
export const zPoolAddress = z
  .string()
  .trim()
  .regex(
    new RegExp(`^(${ADDRESS_TEXT}|${BYTES32_TEXT})$`),
    "must be a pool address (0x + 40 hex digits) or a v4 pool id (0x + 64 hex digits)",
  )
  .transform((v) => v.toLowerCase());

/** An EVM address (lowercase) or a Solana mint (base58, 32 to 44 characters, case kept). */
export const zTokenAddress = z
  .string()
  .trim()
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

const listParams = {
  q: zText(MAX_Q_CHARS).optional(),
  fids: zFidList(MAX_FIDS).optional(),
  msgSender: zAddress.optional(),
  pairAddress: zPoolAddress.optional(),
  pair: zPair.default("all"),
  sort: zSort.default("desc"),
  // The platform's reference also lists `deployed-at`, its default order: the same list and cursors as no sortBy.
  sortBy: z
    .enum([...SORT_BY, "deployed-at"], { message: `must be one of ${[...SORT_BY, "deployed-at"].join(", ")}` })
    .transform((v) => (v === "deployed-at" ? undefined : v))
    .optional(),
  socialInterface: zText(64).pipe(z.string().trim().min(1, "must not be empty")).optional(),
  cursor: zCursor.optional(),
  startDate: zInt(0, 253_402_300_799).optional(),
  offset: zInt(0, MAX_OFFSET).default(0),
  includeUser: zBool.default(false),
  includeMarket: zBool.default(false),
  chainId: zChainId.optional(),
  champagne: zBool.default(false),
};

export const tokensQuery = z.object({ ...listParams, fid: zFid.optional(), limit: zLimit(20, 10, 0) });

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

export const tokenByAddressQuery = z.object({ address: zTokenAddress });

export const tokensByFidQuery = z.object({ fid: zFid, cursor: zCursor.optional() });

export const fetchByAdminQuery = z.object({
  admin: zAddress,
  cursor: zCursor.optional(),
  limit: zLimit(200, 10),
  includeUser: zBool.default(false),
  includeMarket: zBool.default(false),
  chainId: zChainId.optional(),
});

export const isBlockedQuery = z.object({ address: zAddress, chainId: zChainId.optional() });

export const deployedByFidQuery = z.object({ fid: zFid, cursor: zCursor.optional() });

export const deployedByAddressQuery = z.object({ address: zAddress, cursor: zCursor.optional() });

export const byPoolAddressQuery = z.object({ poolAddress: zPoolAddress });

export const byPoolAddressesBody = z.object({
  poolAddresses: z.array(zPoolAddress).max(MAX_POOL_ADDRESSES, `at most ${MAX_POOL_ADDRESSES} addresses`),
});

export const searchQuery = z.object({
  q: zText(MAX_Q_CHARS).optional(),
  fids: zFidList(MAX_FIDS).optional(),
  cursor: zCursor.optional(),
});
