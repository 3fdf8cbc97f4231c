// Statements of the local market (lib/platform/market-data/local.ts): the tokens whose figures are due, and the
// writes of their figures at a moment: the market row, the history points they miss, and the latest point.
// Every time is the caller's clock (`at`), not the database's, so the figures served and the staleness rule agree.
import { sql } from "kysely";
import type { Database } from "@/db";
import { LOCAL_GRID_SECONDS, LOCAL_HISTORY_DAYS, localFigures, localParams } from "@/lib/platform/market-data/local";

const idsIn = (ids: readonly number[]) => sql.join(ids.map((id) => sql`${id}::bigint`));

/** A market row replaces the stored one only when it is newer. */
const newerFigures = sql`ON CONFLICT (token_id) DO UPDATE SET market_cap_usd = excluded.market_cap_usd,
  price_usd = excluded.price_usd, volume_24h_usd = excluded.volume_24h_usd, tx_count_24h = excluded.tx_count_24h,
  price_change_1h = excluded.price_change_1h, price_change_24h = excluded.price_change_24h,
  updated_at = excluded.updated_at
  WHERE token_market.updated_at < excluded.updated_at`;
/**
 * Tokens with a pool whose market row is missing or older than `staleSeconds` at `at`, the never priced and the
 * stalest first; only among `ids` when given.
 */
export async function findDueLocalMarketTokens(
  db: Database,
  at: Date,
  staleSeconds: number,
  limit: number,
  ids?: readonly number[],
): Promise<number[]> {
  if (ids?.length === 0) return [];
  const { rows } = await sql<{ id: string | number }>`
    SELECT t.id FROM tokens t LEFT JOIN token_market m ON m.token_id = t.id
    WHERE t.pool_address IS NOT NULL
      AND (m.updated_at IS NULL OR m.updated_at < ${at}::timestamptz - make_interval(secs => ${staleSeconds}))
      ${ids ? sql`AND t.id IN (${idsIn(ids)})` : sql``}
    ORDER BY m.updated_at NULLS FIRST, t.id DESC
    LIMIT ${limit}`.execute(db);
  return rows.map((r) => Number(r.id));
}

/** Writes these tokens' market rows at `at` (inserted, or overwritten when older). */
export async function upsertLocalMarketRows(db: Database, ids: readonly number[], at: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await sql`
    INSERT INTO token_market (token_id, market_cap_usd, price_usd, volume_24h_usd, tx_count_24h, price_change_1h,
      price_change_24h, updated_at)
    SELECT t.id, f.market_cap_usd, f.price_usd, f.volume_24h_usd, f.tx_count_24h, f.price_change_1h,
      f.price_change_24h, ${at}::timestamptz
    FROM tokens t ${localParams} ${localFigures(sql`${at}::timestamptz`, true)}
    WHERE t.id IN (${idsIn(ids)})
    ${newerFigures}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Appends the history points these tokens miss at `at`: every 6-hour point after their last snapshot (at most
 * LOCAL_HISTORY_DAYS back, none before the token's deployment), and with `latest` one point at `at` itself, which
 * replaces the previous latest point of the same 6 hours (so a token keeps about 4 points a day, not one a refresh).
 */
export async function appendLocalSnapshots(
  db: Database,
  ids: readonly number[],
  at: Date,
  latest: boolean,
): Promise<void> {
  if (ids.length === 0) return;
  const grid = sql.lit(LOCAL_GRID_SECONDS);
  const now = sql`${at}::timestamptz`;
  if (latest) {
    await sql`
      DELETE FROM token_market_snapshots
      WHERE token_id IN (${idsIn(ids)}) AND taken_at < ${now}
        AND taken_at > to_timestamp(floor(extract(epoch FROM ${now}) / ${grid}) * ${grid})`.execute(db);
  }
  await sql`
    INSERT INTO token_market_snapshots (token_id, taken_at, market_cap_usd, price_usd, volume_24h_usd)
    SELECT t.id, p.taken_at, f.market_cap_usd, f.price_usd, f.volume_24h_usd
    FROM tokens t ${localParams}
    CROSS JOIN LATERAL (
      SELECT max(s.taken_at) AS last FROM token_market_snapshots s WHERE s.token_id = t.id AND s.taken_at <= ${now}
    ) l
    CROSS JOIN LATERAL (
      SELECT to_timestamp(g * ${grid}) AS taken_at
      FROM generate_series(
        floor(extract(epoch FROM greatest(l.last, ${now} - ${sql.lit(`${LOCAL_HISTORY_DAYS} days`)}::interval, t.deployed_at))
          / ${grid})::bigint + 1,
        floor(extract(epoch FROM ${now}) / ${grid})::bigint) AS g
      ${latest ? sql`UNION SELECT ${now} WHERE t.deployed_at <= ${now}` : sql``}
    ) p
    ${localFigures(sql`p.taken_at`, false)}
    WHERE t.id IN (${idsIn(ids)})
    ON CONFLICT (token_id, taken_at) DO NOTHING`.execute(db);
}

/** A token of a served chain that may really be there (a candidate for its pool's figures), lowest block first. */
export type LocalChainCandidate = {
  id: number;
  chain_id: number;
  contract_address: string;
  pool_address: string;
  supply: string;
  block_number: number;
};

/** Among `ids`, the pooled tokens of these chains with a block number (the seed's are far above a local chain's). */
export async function findLocalChainCandidates(
  db: Database,
  ids: readonly number[],
  chainIds: readonly number[],
): Promise<LocalChainCandidate[]> {
  if (ids.length === 0 || chainIds.length === 0) return [];
  const { rows } = await sql<LocalChainCandidate & { id: string | number; block_number: string | number }>`
    SELECT t.id, t.chain_id, t.contract_address, t.pool_address, t.supply::text AS supply, t.block_number
    FROM tokens t
    WHERE t.id IN (${idsIn(ids)}) AND t.chain_id IN (${sql.join(chainIds.map((c) => sql`${c}::int`))})
      AND t.pool_address IS NOT NULL AND t.block_number IS NOT NULL
    ORDER BY t.block_number, t.id`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), block_number: Number(r.block_number) }));
}

/** A token's figures read from its pool on chain: no trades are seen, so no volume. */
export type ChainMarketFigures = { token_id: number; market_cap_usd: number; price_usd: number };

const figuresIn = (rows: readonly ChainMarketFigures[]) =>
  sql`(VALUES ${sql.join(
    rows.map((r) => sql`(${r.token_id}::bigint, ${r.market_cap_usd}::float8, ${r.price_usd}::float8)`),
  )}) AS v(token_id, market_cap_usd, price_usd)`;

/**
 * Writes these tokens' market rows at `at` from their pools' figures: no volume or trades, and the price changes
 * against the token's own history (its latest point in the 6 hours before an hour or a day ago; null without one).
 */
export async function upsertChainMarketRows(
  db: Database,
  rows: readonly ChainMarketFigures[],
  at: Date,
): Promise<number> {
  if (rows.length === 0) return 0;
  const now = sql`${at}::timestamptz`;
  const before = (hours: number) => sql`(
    SELECT s.price_usd FROM token_market_snapshots s
    WHERE s.token_id = v.token_id AND s.price_usd > 0
      AND s.taken_at <= ${now} - ${sql.lit(`${hours} hours`)}::interval
      AND s.taken_at > ${now} - ${sql.lit(`${hours + 6} hours`)}::interval
    ORDER BY s.taken_at DESC LIMIT 1)`;
  const change = (hours: number) => sql`round((v.price_usd / ${before(hours)} - 1) * 10000) / 100`;
  const result = await sql`
    INSERT INTO token_market (token_id, market_cap_usd, price_usd, volume_24h_usd, tx_count_24h, price_change_1h,
      price_change_24h, updated_at)
    SELECT v.token_id, v.market_cap_usd, v.price_usd, 0, 0, ${change(1)}, ${change(24)}, ${now}
    FROM ${figuresIn(rows)}
    ${newerFigures}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * One history point at `at` for each of these tokens, replacing the previous latest point of the same 6 hours, as
 * appendLocalSnapshots does; no point is made up for the time before (a pool's past price is not read).
 */
export async function appendChainSnapshots(db: Database, rows: readonly ChainMarketFigures[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  const grid = sql.lit(LOCAL_GRID_SECONDS);
  const now = sql`${at}::timestamptz`;
  await sql`
    DELETE FROM token_market_snapshots
    WHERE token_id IN (${idsIn(rows.map((r) => r.token_id))}) AND taken_at < ${now}
      AND taken_at > to_timestamp(floor(extract(epoch FROM ${now}) / ${grid}) * ${grid})`.execute(db);
  await sql`
    INSERT INTO token_market_snapshots (token_id, taken_at, market_cap_usd, price_usd, volume_24h_usd)
    SELECT v.token_id, ${now}, v.market_cap_usd, v.price_usd, 0 FROM ${figuresIn(rows)}
    ON CONFLICT (token_id, taken_at) DO NOTHING`.execute(db);
}
