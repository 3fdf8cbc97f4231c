// The token endpoints as service functions: each maps its query onto the one list (lib/domains/tokens/list.ts)
// or a lookup. Other domains call these, never the queries behind them.
import type { z } from "zod";
import { listTokens, type ListRequest, type TokenList } from "./list";
import { classifySearchTerm } from "./filters";
import {
  authenticatedTokensQuery,
  deployedByAddressQuery,
  deployedByFidQuery,
  fetchByAdminQuery,
  listFilters,
  searchQuery,
  tokensByFidQuery,
  tokensQuery,
} from "./schemas";

export { tokenByAddress, tokenByPool, tokenChainId, tokensByPools, tokenRowsByPools } from "./lookups";
export { isBlocked, blockToken, unblockToken } from "./blocks";

/** Fixed page sizes of the interface (get-tokens-by-fid 10, search 5) and ours (fetch-deployed-by-* 10). */
export const BY_FID_PAGE = 10;
export const SEARCH_PAGE = 5;
export const DEPLOYED_PAGE = 10;

type TokensQuery = z.infer<typeof tokensQuery> | z.infer<typeof authenticatedTokensQuery>;

/** GET /api/tokens and GET /api/tokens/authenticated: `{ data, total, cursor, tokensDeployed }`. */
export function searchTokens(query: TokensQuery): Promise<TokenList> {
  return listTokens(searchRequest(query));
}

/** The list a GET /api/tokens query asks for. */
export function searchRequest(query: TokensQuery): ListRequest {
  return {
    filters: listFilters(query),
    sortBy: query.sortBy,
    sort: query.sort,
    cursor: query.cursor,
    offset: query.offset,
    limit: query.limit,
    includeUser: query.includeUser,
    includeMarket: query.includeMarket,
    withTokensDeployed: true,
  };
}

/** GET /api/get-tokens-by-fid: `{ data, pagination: { cursor, total, totalPages } }`. */
export async function tokensOfFid(query: z.infer<typeof tokensByFidQuery>) {
  const page = await listTokens({ filters: { fids: [query.fid] }, cursor: query.cursor, limit: BY_FID_PAGE });
  return { data: page.data, pagination: { cursor: page.cursor, total: page.total, totalPages: Math.ceil(page.total / BY_FID_PAGE) } };
}

/** GET /api/tokens/fetch-by-admin: `{ data, total, cursor }`. */
export function tokensOfAdmin(query: z.infer<typeof fetchByAdminQuery>): Promise<TokenList> {
  return listTokens({
    filters: { admin: query.admin, chainId: query.chainId },
    cursor: query.cursor,
    limit: query.limit,
    includeUser: query.includeUser,
    includeMarket: query.includeMarket,
  });
}

/** GET /api/tokens/fetch-deployed-by-fid: `{ data, total, cursor }`. */
export function deployedByFid(query: z.infer<typeof deployedByFidQuery>): Promise<TokenList> {
  return listTokens({ filters: { fids: [query.fid] }, cursor: query.cursor, limit: DEPLOYED_PAGE });
}

/** GET /api/tokens/fetch-deployed-by-address: tokens whose deployer (msg_sender) is the address. */
export function deployedByAddress(query: z.infer<typeof deployedByAddressQuery>): Promise<TokenList> {
  return listTokens({ filters: { msgSender: query.address }, cursor: query.cursor, limit: DEPLOYED_PAGE });
}

/** GET /api/tokens/search (deprecated): GET /api/tokens with q and fids only, 5 per page. */
export function legacySearch(query: z.infer<typeof searchQuery>): Promise<TokenList> {
  return listTokens({
    filters: { q: query.q === undefined ? undefined : classifySearchTerm(query.q), fids: query.fids },
    cursor: query.cursor,
    limit: SEARCH_PAGE,
  });
}
