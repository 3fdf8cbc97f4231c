// Token lists: a keyset page, its counts and the optional related user and market data, all inside the
// search's time budget. Every list endpoint (GET /api/tokens and its partner, search, by fid, by
// deployer, by admin) is this one function with different filters and page sizes; the creator endpoints
// (search-creator, creator pages, by-following) read the same page and counts through readList and readRows.
import type { Kysely } from "kysely";
import type { DB } from "@/db/types";
import { listUserObjects } from "@/lib/domains/users/service";
import { withSearchBudget } from "./budget";
import { countTokens } from "./counts";
import { cursorFor, encodeCursor, orderOf, type Cursor, type Direction, type SortBy } from "./cursor";
import { hasFilters, type TokenFilters } from "./queries/filters";
import { readPage, type PageRow } from "./queries/page";
import { marketOf, toMarket, toTokenObject, type TokenObject } from "./serialize";
import { refreshInBackground } from "./market/jobs";
import { config } from "@/lib/core/config";
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
};

export type TokenList = {
  data: TokenObject[];
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

async function counts(conn: Kysely<DB>, r: ListRequest, rows: PageRow[], hasMore: boolean) {
  const offset = r.offset ?? 0;
  // A first page that is not full holds every match: no need to count them.
  const seenAll = !r.cursor && !hasMore && r.limit > 0 && (rows.length > 0 || offset === 0);
  let total = seenAll ? offset + rows.length : await countTokens(conn, r.filters);
  // An estimate is never allowed to contradict the rows in hand.
  if (!r.cursor && rows.length > 0) total = Math.max(total, offset + rows.length + (hasMore ? 1 : 0));
  if (!r.withTokensDeployed) return { total };
  const onlyCreators = !hasFilters({ ...r.filters, fids: undefined, msgSender: undefined });
  return { total, tokensDeployed: onlyCreators ? total : await countTokens(conn, creatorFilters(r.filters)) };
}

/** The database work of a list: its page and its counts (the statements the benchmark replays). */
export async function readList(conn: Kysely<DB>, r: ListRequest) {
  const read = r.limit > 0 ? await readPage(conn, { ...r, sort: r.sort ?? "desc", offset: r.offset ?? 0 }) : [];
  const hasMore = read.length > r.limit;
  const rows = hasMore ? read.slice(0, r.limit) : read;
  return { rows, hasMore, counted: await counts(conn, r, rows, hasMore) };
}

/** The rows of a list's page, without its counts (the newest tokens of a creator). */
export async function readRows(conn: Kysely<DB>, r: ListRequest): Promise<PageRow[]> {
  const read = r.limit > 0 ? await readPage(conn, { ...r, sort: r.sort ?? "desc", offset: r.offset ?? 0 }) : [];
  return read.slice(0, r.limit);
}

/** Tokens of the page whose stored market figures are older than one refresh period. */
function staleMarketIds(rows: PageRow[]): number[] {
  const before = Date.now() - config().MARKET_REFRESH_INTERVAL_SECONDS * 1000;
  return rows.flatMap((row) => (row.m_updated_at && row.m_updated_at.getTime() < before ? [row.id] : []));
}

export async function listTokens(r: ListRequest): Promise<TokenList> {
  const order = orderOf(r.sortBy, r.sort ?? "desc");
  r = { ...r, cursor: cursorFor(r.cursor, order) };
  const { rows, hasMore, counted } = await withSearchBudget((conn) => readList(conn, r));
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
    toTokenObject(row, {
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
