// One page of a token list, by keyset. Newest-first walks the (deployed_at, id) indexes; the market sorts
// walk token_market's (value NULLS LAST, token_id) indexes and then, once those run out, the tokens that
// have no value (no market row, or a NULL in that column) by id: "NULLs last" in both directions.
import { sql, type AliasedRawBuilder, type CompiledQuery, type SelectQueryBuilder } from "kysely";
import type { Database } from "@/db";
import type { DB } from "@/db/types";
import { type MarketRow, tokenJsonColumns, type TokenJsonRow, type TokenRow } from "@/lib/domains/tokens/serialize";
import type { Cursor, Direction, SortBy } from "@/lib/domains/tokens/cursor";
import { filterConditions, type TokenFilters } from "./filters";

export const MARKET_COLUMN = {
  "market-cap": "market_cap_usd",
  "tx-h24": "tx_count_24h",
  "price-percent-h24": "price_change_24h",
  "price-percent-h1": "price_change_1h",
} as const satisfies Record<SortBy, keyof MarketRow>;

export type PageRow = TokenRow & {
  /** deployed_at as ISO text with microseconds (a JS Date keeps only milliseconds), or the market value */
  sort_value: string | number | null;
  m_token_id: number | null;
} & { [K in MarketField as `m_${K}`]: MarketRow[K] | null };

type MarketField =
  | "market_cap_usd"
  | "price_usd"
  | "volume_24h_usd"
  | "tx_count_24h"
  | "price_change_1h"
  | "price_change_24h"
  | "updated_at";

export type PageRequest = {
  filters: TokenFilters;
  sortBy?: SortBy;
  sort: Direction;
  cursor?: Cursor;
  offset: number;
  /** rows wanted; one more is read to know whether a next page exists */
  limit: number;
  /** read the market columns (the market sorts always do) */
  includeMarket?: boolean;
  /** the token as JSON text (readJsonPage) rather than its columns */
  json?: boolean;
  /** more columns over `tokens as t`, each aliased: facts of another domain read in the same statement */
  extraColumns?: readonly AliasedRawBuilder<unknown, string>[];
};

type Sources = DB & { t: DB["tokens"]; m: DB["token_market"] };

const ISO_MICROS = sql<string>`to_char(t.deployed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function marketColumns<O>(qb: SelectQueryBuilder<Sources, "t" | "m", O>) {
  return qb.select([
    "m.token_id as m_token_id",
    "m.market_cap_usd as m_market_cap_usd",
    "m.price_usd as m_price_usd",
    "m.volume_24h_usd as m_volume_24h_usd",
    "m.tx_count_24h as m_tx_count_24h",
    "m.price_change_1h as m_price_change_1h",
    "m.price_change_24h as m_price_change_24h",
    "m.updated_at as m_updated_at",
  ]);
}

/**
 * Tokens joined (left) with their market row, filtered; `sort_value` chosen by the caller. Without
 * `withMarket` the row's market columns are NULL and token_market is not read at all.
 */
function tokensWithMarket(db: Database, r: PageRequest, withMarket = true) {
  const qb = db
    .selectFrom("tokens as t")
    .leftJoin("token_market as m", (join) =>
      withMarket ? join.onRef("m.token_id", "=", "t.id") : join.on(sql<boolean>`false`),
    )
    .where((eb) => eb.and(filterConditions(eb as never, r.filters)));
  return marketColumns(tokenColumns(qb, r));
}

/**
 * The token's columns: all of them, or (`json`) the token object as JSON text in the parts tokenJson splices
 * (with id, requestor_fid and chain_id beside them, for the list's cursor and profiles), then the request's extra
 * columns. Both are typed as the row: a JSON page is read only through readJsonPage, which says what it holds.
 */
function tokenColumns<O>(qb: SelectQueryBuilder<Sources, "t" | "m", O>, r: PageRequest) {
  const extra = r.extraColumns ?? [];
  const picked = r.json
    ? qb.select(["t.id", "t.requestor_fid", "t.chain_id", ...tokenJsonColumns, ...extra])
    : qb.selectAll("t").select(extra);
  return picked as unknown as SelectQueryBuilder<Sources, "t" | "m", TokenRow>;
}

const op = (dir: Direction) => sql.raw(dir === "desc" ? "<" : ">");

function newestFirst(db: Database, r: PageRequest, take: number) {
  let qb = tokensWithMarket(db, r, r.includeMarket).select(ISO_MICROS.as("sort_value"));
  const after = r.cursor;
  if (after?.id === null) qb = qb.where(sql<boolean>`t.deployed_at ${op(r.sort)} ${after.value}::timestamptz`);
  else if (after)
    qb = qb.where(sql<boolean>`(t.deployed_at, t.id) ${op(r.sort)} (${after.value}::timestamptz, ${after.id}::bigint)`);
  return qb.orderBy("t.deployed_at", r.sort).orderBy("t.id", r.sort).offset(r.offset).limit(take);
}

/** Rows that have a value in `column`, from token_market's index on it. */
function marketHead(db: Database, r: PageRequest, column: string, take: number) {
  const col = sql.ref(`m.${column}`);
  const nulls = sql.raw(r.sort === "desc" ? "NULLS LAST" : "NULLS FIRST"); // the index order, scanned either way
  let qb = marketColumns(
    tokenColumns(
      db
        .selectFrom("token_market as m")
        .innerJoin("tokens as t", "t.id", "m.token_id")
        .where((eb) => eb.and(filterConditions(eb as never, r.filters))),
      r,
    ),
  )
    .select(sql<number>`${col}`.as("sort_value"))
    .where(sql<boolean>`${col} IS NOT NULL`);
  if (r.cursor)
    qb = qb.where(sql<boolean>`(${col}, m.token_id) ${op(r.sort)} (${r.cursor.value}, ${r.cursor.id}::bigint)`);
  return qb
    .orderBy(sql`${col} ${sql.raw(r.sort)} ${nulls}`)
    .orderBy("m.token_id", r.sort)
    .limit(take);
}

/**
 * Rows without a value in `column` (no market row, or NULL there), by id. Written as NOT EXISTS so that
 * the planner sees an anti-join it can estimate, and walks the primary key probing token_market.
 */
function marketTail(db: Database, r: PageRequest, column: string, afterId: number | undefined, take: number) {
  let qb = tokensWithMarket(db, r)
    .select(sql<null>`NULL::float8`.as("sort_value"))
    .where(
      sql<boolean>`NOT EXISTS (SELECT 1 FROM token_market v WHERE v.token_id = t.id AND ${sql.ref(`v.${column}`)} IS NOT NULL)`,
    );
  if (afterId !== undefined) qb = qb.where(sql<boolean>`t.id ${op(r.sort)} ${afterId}::bigint`);
  return qb.orderBy("t.id", r.sort).limit(take);
}

/**
 * The statement of a page: `limit + 1` rows at most, in the requested order, after the cursor and the
 * offset. Compiled rather than run, so that the benchmark can send the same SQL as its database floor.
 */
export function pageQuery(db: Database, r: PageRequest): CompiledQuery<PageRow> {
  const take = r.limit + 1;
  if (!r.sortBy) return newestFirst(db, r, take).compile() as CompiledQuery<PageRow>;
  const column = MARKET_COLUMN[r.sortBy];
  if (r.cursor && r.cursor.value === null) {
    return marketTail(db, r, column, r.cursor.id ?? undefined, take)
      .offset(r.offset)
      .compile() as CompiledQuery<PageRow>;
  }
  // Each part reads at most offset + take rows; Postgres runs the tail only when the head runs short.
  const head = marketHead(db, r, column, r.offset + take);
  const tail = marketTail(db, r, column, undefined, r.offset + take);
  return sql<PageRow>`${head} UNION ALL ${tail} OFFSET ${r.offset} LIMIT ${take}`.compile(db);
}

export async function readPage(db: Database, r: PageRequest): Promise<PageRow[]> {
  return (await db.executeQuery(pageQuery(db, { ...r, json: false }))).rows;
}

/** A page row with the token as JSON text (tokenJson) instead of its columns. */
export type PageJsonRow = TokenJsonRow &
  Pick<TokenRow, "id" | "requestor_fid" | "chain_id"> &
  Omit<PageRow, keyof TokenRow>;

export async function readJsonPage(db: Database, r: PageRequest): Promise<PageJsonRow[]> {
  const { rows } = await db.executeQuery(pageQuery(db, { ...r, json: true }));
  return rows as unknown as PageJsonRow[];
}
