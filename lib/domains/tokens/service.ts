// The token endpoints as service functions: each maps its query onto the one list (lib/domains/tokens/list.ts)
// or a lookup. Other domains call these, never the queries behind them.
import type { z } from "zod";
import { db } from "@/db";
import { badRequest } from "@/lib/core/errors";
import { type JsonText, jsonObject } from "@/lib/core/json";
import { listTokens, readJsonList, readRows, type ListRequest } from "./list";
import { classifySearchTerm, type TokenFilters } from "./queries/filters";
import type { PageJsonRow, PageRow } from "./queries/page";
import {
  type authenticatedTokensQuery,
  type deployedByAddressQuery,
  type deployedByFidQuery,
  type fetchByAdminQuery,
  listFilters,
  MAX_OFFSET,
  type searchQuery,
  type tokensByFidQuery,
  type tokensQuery,
} from "./schemas";
import type { tokenListResponse, tokenSearchResponse, tokensByFidResponse } from "./responses";

type TokenList = JsonText<z.input<typeof tokenListResponse>>;

export {
  legacyTokenLockers,
  tokenByAddress,
  tokenByPool,
  tokenChainId,
  tokenOnChain,
  tokenRowByAddress,
  tokensByPools,
  tokenRowsByPools,
} from "./lookups";
export { isBlocked, blockToken, unblockToken } from "./blocks";
// The indexers' writes to tokens and the reads around them, each on the caller's executor (db() or a transaction).
export {
  findTokenByContract,
  findTokenTxHash,
  findUnreadDeployments,
  linkTokenPresale,
  linkTokenPresales,
  upsertIndexedTokenRows,
} from "./queries/indexed";
// The token events GET /api/tokens/stream reads and the indexers append to (stream domain).
export {
  comparePositions,
  type EventRow,
  findHorizon,
  insertTokenEvent,
  type Position,
  pruneEvents,
  readEvents,
} from "./queries/events";
export { marketHistory } from "./market/history";
export { pairedAmountUsd } from "./market/marketcap";
export { launchStats, STATS_SAMPLE, type ChainLaunchStats, type LaunchStats } from "./stats";
export type { ListRequest } from "./list";
export type { TokenCondition, TokenFilters } from "./queries/filters";
export type { PageJsonRow, PageRow } from "./queries/page";
export { marketOf, tokenJson, toMarket } from "./serialize";

/** A list's answer `{ data, total, cursor, hasMore }` (and `tokensDeployed` when counted), as JSON text. */
async function answer(r: ListRequest): Promise<TokenList> {
  return jsonObject(await listTokens(r));
}

/** Fixed page sizes of the interface: get-tokens-by-fid 10, search 5. */
export const BY_FID_PAGE = 10;
export const SEARCH_PAGE = 5;

type TokensQuery = z.infer<typeof tokensQuery> | z.infer<typeof authenticatedTokensQuery>;

/** GET /api/tokens and GET /api/tokens/authenticated: `{ data, total, cursor, hasMore, tokensDeployed }`. */
export async function searchTokens(
  query: TokensQuery,
  onProfilesIncomplete?: () => void,
): Promise<JsonText<z.input<typeof tokenSearchResponse>>> {
  const list = await listTokens({ ...searchRequest(query), onProfilesIncomplete });
  // searchRequest asks for tokensDeployed (withTokensDeployed), so the list always carries it.
  return jsonObject({ ...list, tokensDeployed: list.tokensDeployed! });
}

/** The list a GET /api/tokens query asks for. */
export function searchRequest(query: TokensQuery): ListRequest {
  return {
    filters: listFilters(query),
    sortBy: query.sortBy,
    sort: query.sort,
    cursor: query.cursor,
    offset: pageOffset(query),
    limit: query.limit,
    includeUser: query.includeUser,
    includeMarket: query.includeMarket,
    withTokensDeployed: true,
  };
}

/** `offset`, plus the tokens of the pages before `page` (the earlier API's page numbers; 0 is page 1). */
function pageOffset(query: { offset: number; page?: number; limit: number }): number {
  const offset = query.offset + Math.max((query.page ?? 1) - 1, 0) * query.limit;
  if (offset > MAX_OFFSET) {
    const message = `goes past the first ${MAX_OFFSET} tokens (page ${query.page} of ${query.limit}); deeper pages go by cursor`;
    throw badRequest(`page: ${message}`, [{ in: "query", path: "page", message }]);
  }
  return offset;
}

/** GET /api/get-tokens-by-fid: `{ data, pagination: { cursor, total, totalPages } }`. */
export async function tokensOfFid(
  query: z.infer<typeof tokensByFidQuery>,
): Promise<JsonText<z.input<typeof tokensByFidResponse>>> {
  const page = await listTokens({ filters: { fids: [query.fid] }, cursor: query.cursor, limit: BY_FID_PAGE });
  return jsonObject({
    data: page.data,
    pagination: { cursor: page.cursor, total: page.total, totalPages: Math.ceil(page.total / BY_FID_PAGE) },
  });
}

/** GET /api/tokens/fetch-by-admin: `{ data, total, cursor }`. */
export function tokensOfAdmin(
  query: z.infer<typeof fetchByAdminQuery>,
  onProfilesIncomplete?: () => void,
): Promise<TokenList> {
  return answer({
    onProfilesIncomplete,
    filters: { admin: query.admin, chainId: query.chainId },
    cursor: query.cursor,
    limit: query.limit,
    includeUser: query.includeUser,
    includeMarket: query.includeMarket,
  });
}

/** A fetch-deployed-by-* page of `filters`: `{ data, total, cursor }`. */
function deployedPage(
  filters: TokenFilters,
  query: Omit<z.infer<typeof deployedByFidQuery>, "fid">,
): Promise<TokenList> {
  return answer({ filters, cursor: query.cursor, offset: pageOffset(query), limit: query.limit });
}

/** GET /api/tokens/fetch-deployed-by-fid: tokens the FID requested. */
export function deployedByFid(query: z.infer<typeof deployedByFidQuery>): Promise<TokenList> {
  return deployedPage({ fids: [query.fid] }, query);
}

/** GET /api/tokens/fetch-deployed-by-address: tokens whose deployer (msg_sender) is the address. */
export function deployedByAddress(query: z.infer<typeof deployedByAddressQuery>): Promise<TokenList> {
  return deployedPage({ msgSender: query.address }, query);
}

/** GET /api/tokens/search (deprecated): GET /api/tokens with q and fids only, 5 per page. */
export function legacySearch(query: z.infer<typeof searchQuery>): Promise<TokenList> {
  return answer({
    filters: { q: query.q === undefined ? undefined : classifySearchTerm(query.q), fids: query.fids },
    cursor: query.cursor,
    limit: SEARCH_PAGE,
  });
}

/**
 * The rows of a list page, each token as JSON text in parts (tokenJson), with the list's total (counted as
 * GET /api/tokens counts) and whether more follow, for answers another domain builds from them
 * (search-creator). Not under the search budget.
 */
export async function tokenJsonPage(r: ListRequest): Promise<{ rows: PageJsonRow[]; total: number; hasMore: boolean }> {
  const { rows, hasMore, counted } = await readJsonList(db(), r);
  return { rows, total: counted.total, hasMore };
}

/** The rows of a list page without counting the list (a creator's newest tokens). */
export function tokenRows(r: ListRequest): Promise<PageRow[]> {
  return readRows(db(), r);
}
