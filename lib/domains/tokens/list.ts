// Token lists: a keyset page, its counts and the optional related user and market data, all inside the
// search's time budget. Every list endpoint (GET /api/tokens and its partner, search, by fid, by
// deployer, by admin) is this one function with different filters and page sizes; the creator endpoints
// (search-creator, creator pages, by-following) read the same page and counts through readJsonList and readRows.
import type { Database } from "@/db";
import { listUserObjects } from "@/lib/domains/users/service";
import { withSearchBudget } from "./budget";
import { countTokens } from "./counts";
import { cursorFor, encodeCursor, orderOf, type Cursor, type Direction, type SortBy } from "./cursor";
import { hasFilters, type TokenFilters } from "./queries/filters";
import { type PageJsonRow, type PageRequest, readJsonPage, readPage, type PageRow } from "./queries/page";
import { marketOf, toMarket, tokenJson, type TokenObject } from "./serialize";
import { refreshInBackground } from "./market/jobs";
import { config } from "@/lib/core/config";
import type { JsonText } from "@/lib/core/json";
import { log } from "@/lib/core/log";

export type ListRequest = {
  filters: TokenFilters;
  sortBy?: SortBy;
  sort?: Direction;
  cursor?: Cursor;
  offset?: number;
  limit: number;
  includeUser?: boolean;
  includeMarket?: boolean;
  /** also count `tokensDeployed` (GET /api/tokens and /authenticated) */
  withTokensDeployed?: boolean;
  /** Told when `includeUser` left some creators' profiles out (the provider could not be asked). */
  onProfilesIncomplete?: () => void;
  /** read these columns too, beside each token of the page (PageRequest) */
  extraColumns?: PageRequest["extraColumns"];
};

export type TokenList = {
  /** each token object as JSON text: answer it with jsonObject */
  data: JsonText<TokenObject>[];
  total: number;
  cursor: string | null;
  hasMore: boolean;
  tokensDeployed?: number;
};

/**
 * Tokens by the creator filters of the request (fids, msgSender) whatever the other filters; without
 * one, every token of the platform.
 */
function creatorFilters(f: TokenFilters): TokenFilters {
  return { ...(f.fids ? { fids: f.fids } : {}), ...(f.msgSender ? { msgSender: f.msgSender } : {}) };
}

async function counts(db: Database, r: ListRequest, rowCount: number, hasMore: boolean) {
  const offset = r.offset ?? 0;
  // A first page that is not full holds every match: no need to count them.
  const seenAll = !r.cursor && !hasMore && r.limit > 0 && (rowCount > 0 || offset === 0);
  let total = seenAll ? offset + rowCount : await countTokens(db, r.filters);
  // An estimate is never allowed to contradict the rows in hand.
  if (!r.cursor && rowCount > 0) total = Math.max(total, offset + rowCount + (hasMore ? 1 : 0));
  if (!r.withTokensDeployed) return { total };
  const onlyCreators = !hasFilters({ ...r.filters, fids: undefined, msgSender: undefined });
  return { total, tokensDeployed: onlyCreators ? total : await countTokens(db, creatorFilters(r.filters)) };
}

/**
 * The database work of a list: its page, each token as JSON text, and its counts. What listTokens reads (the
 * statements the benchmark replays) and search-creator's token page.
 */
export async function readJsonList(db: Database, r: ListRequest) {
  const page = r.limit > 0 ? await readJsonPage(db, { ...r, sort: r.sort ?? "desc", offset: r.offset ?? 0 }) : [];
  const hasMore = page.length > r.limit;
  const rows = hasMore ? page.slice(0, r.limit) : page;
  return { rows, hasMore, counted: await counts(db, r, rows.length, hasMore) };
}

/** The rows of a list's page, without its counts (the newest tokens of a creator). */
export async function readRows(db: Database, r: ListRequest): Promise<PageRow[]> {
  const read = r.limit > 0 ? await readPage(db, { ...r, sort: r.sort ?? "desc", offset: r.offset ?? 0 }) : [];
  return read.slice(0, r.limit);
}

/** Tokens of the page whose stored market figures are older than one refresh period. */
function staleMarketIds(rows: PageJsonRow[]): number[] {
  const before = Date.now() - config().MARKET_REFRESH_INTERVAL_SECONDS * 1000;
  return rows.flatMap((row) => (row.m_updated_at && row.m_updated_at.getTime() < before ? [row.id] : []));
}

/** The request as listTokens reads it: a cursor of another order restarts the list (cursorFor). */
export function asListed(r: ListRequest): ListRequest {
  return { ...r, cursor: cursorFor(r.cursor, orderOf(r.sortBy, r.sort ?? "desc")) };
}

/**
 * A token list, each token as JSON text written by the database (tokenJson) with its `related` members spliced
 * in: building and serialising the objects in Node cost more than the page's query.
 */
export async function listTokens(r: ListRequest): Promise<TokenList> {
  r = asListed(r);
  const order = orderOf(r.sortBy, r.sort ?? "desc");
  const { rows, hasMore, counted } = await withSearchBudget((conn) => readJsonList(conn, r));
  const last = rows.at(-1);
  const profiles = r.includeUser
    ? await listUserObjects(rows.flatMap((row) => (row.requestor_fid === null ? [] : [row.requestor_fid])))
    : undefined;
  if (profiles && !profiles.complete) r.onProfilesIncomplete?.();
  if (r.includeMarket) {
    await refreshInBackground(staleMarketIds(rows)).catch((error) =>
      log.warn("could not start a background market refresh", { error }),
    );
  }
  const users = profiles?.users;
  const data = rows.map((row) =>
    tokenJson(row, {
      ...(users ? { user: (row.requestor_fid !== null && users.get(row.requestor_fid)) || null } : {}),
      ...(r.includeMarket ? { market: toMarket(marketOf(row)) } : {}),
    }),
  );
  return {
    data,
    total: counted.total,
    cursor: hasMore && last ? encodeCursor({ value: last.sort_value, id: last.id, order }) : null,
    hasMore: r.limit > 0 ? hasMore : counted.total > (r.offset ?? 0),
    ...(counted.tokensDeployed !== undefined ? { tokensDeployed: counted.tokensDeployed } : {}),
  };
}
