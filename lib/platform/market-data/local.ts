// The local market: the market-data provider of the embedded default, which has no network. Every token with a
// pool trades in it; its figures are a deterministic function of the token's address, its supply and the time
// (a level drawn from the address, moved by slow waves phased by the address), so any process computes the same
// figures for the same moment, and the history of a past moment is what the market was then.
import { sql, type RawBuilder } from "kysely";
import { config } from "@/lib/core/config";

/** Which provider writes token_market: an aggregator, the local market, or none. */
export type MarketDataProvider = "geckoterminal" | "local" | "none";

export function marketDataProvider(): MarketDataProvider {
  const c = config();
  return c.MARKET_DATA_PROVIDER ?? (c.embedded ? "local" : "geckoterminal");
}

/** The local market keeps a history point every 6 hours (epoch-aligned), and one for the latest refresh. */
export const LOCAL_GRID_SECONDS = 21_600;
/** How far back the local market writes the history a token misses (the chart's default period). */
export const LOCAL_HISTORY_DAYS = 30;

const TWO_PI = 2 * Math.PI;

/**
 * The token's parameters, four uniforms in [0, 1) from the md5 of its address, as a LATERAL subquery `k` of a
 * statement that names the token `t` (columns contract_address, supply). `scale`: whole tokens of the supply.
 */
export const localParams = sql`CROSS JOIN LATERAL (
  SELECT ${sql.join(
    [0, 1, 2, 3].map(
      (i) => sql`('x' || substr(h, ${i * 8 + 1}, 8))::bit(32)::bigint::float8 / 4294967296 AS ${sql.raw(`u${i}`)}`,
    ),
  )}, nullif(t.supply::float8, 0) / 1e18 AS scale
  FROM (SELECT md5(lower(t.contract_address)) AS h) x
  OFFSET 0
) k0
CROSS JOIN LATERAL (
  SELECT k0.*, 8000 * exp(2.2 * sqrt(-2 * ln(k0.u0 + 1e-9)) * cos(${sql.lit(TWO_PI)} * k0.u1)) AS level OFFSET 0
) k`;

/** The log of the token's price movement at `hours` since the epoch: waves of 30 days, 7 days, 41 h and 7.3 h. */
function walk(hours: RawBuilder<number>) {
  const wave = (amplitude: number, periodHours: number, phase: RawBuilder<number>) =>
    sql`${sql.lit(amplitude)} * sin(${sql.lit(TWO_PI / periodHours)} * ${hours} + ${sql.lit(TWO_PI)} * ${phase})`;
  return sql<number>`(${wave(0.5, 720, sql`k.u2`)} + ${wave(0.25, 167, sql`k.u3`)} + ${wave(0.1, 41, sql`k.u2 + k.u3`)}
    + ${wave(0.04, 7.3, sql`3 * k.u2 + k.u3`)})`;
}

/**
 * The token's figures at `at` (a timestamptz expression), as a LATERAL subquery `f` after `localParams`: a market
 * cap log-normal around $8,000 (as launches are), its price per whole token, and a day's volume from 1 % to 20 % of
 * the cap. With `changes` (a market row, not a history point), the trades in that volume and the changes of the
 * price over the last hour and day.
 */
export function localFigures(at: RawBuilder<Date>, changes: boolean) {
  const hours = sql<number>`(extract(epoch FROM ${at})::float8 / 3600)`;
  const wave = sql`(0.7 + 0.3 * sin(${sql.lit(TWO_PI / 53)} * w.hours + ${sql.lit(TWO_PI)} * k.u1))`;
  const change = (h: number) => sql`round((exp(w.walk - ${walk(sql`(w.hours - ${sql.lit(h)})`)}) - 1) * 10000) / 100`;
  const more = changes
    ? sql`, least(floor(c.volume_24h_usd / (40 + 400 * k.u1)), 2147483647)::int AS tx_count_24h,
      ${change(1)} AS price_change_1h, ${change(24)} AS price_change_24h`
    : sql``;
  // OFFSET 0 keeps each step a step: pulled up, every use of a column would compute its expression again.
  return sql`CROSS JOIN LATERAL (
    SELECT c.market_cap_usd, c.market_cap_usd / k.scale AS price_usd, c.volume_24h_usd ${more}
    FROM (SELECT hours, ${walk(sql`hours`)} AS walk FROM (SELECT ${hours} AS hours OFFSET 0) h OFFSET 0) w
    CROSS JOIN LATERAL (
      SELECT round(cap * 100) / 100 AS market_cap_usd,
        round(cap * 0.05 * exp(3 * (k.u3 - 0.5)) * ${wave} * 100) / 100 AS volume_24h_usd
      FROM (SELECT k.level * exp(w.walk) AS cap OFFSET 0) x OFFSET 0
    ) c
  ) f`;
}
