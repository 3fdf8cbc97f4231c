// Market history for the demo: snapshots every 6 hours over the 30 days before the seed ran, for the first
// tokens with a market row, ending at that row's figures (the token page draws them as its chart). A smooth,
// deterministic walk per token; bounded (HISTORY_TOKENS tokens) so a bench dataset of a million tokens stays small.
import { sql } from "kysely";
import type { DomainSeeder, SeedContext } from "./types";

const HISTORY_TOKENS = 300;
const POINTS = 120; // 30 days at 6 h

async function run(ctx: SeedContext) {
  const last = Math.min(ctx.tokens.lastId, ctx.tokens.firstId + HISTORY_TOKENS - 1);
  // walk(i) = a few sines phased by the token id, plus a trend; each point is the row's figure x walk(i) / walk(last).
  await sql`
    WITH w AS (
      SELECT m.token_id, m.market_cap_usd, m.price_usd, m.volume_24h_usd, i,
        exp(0.45 * sin(i / 9.0 + m.token_id) + 0.2 * sin(i / 2.7 + m.token_id * 1.7) + 0.08 * sin(i * 1.9 + m.token_id)
            + (0.6 - (m.token_id % 5) * 0.3) * i / ${POINTS}::float8) AS f
      FROM token_market m CROSS JOIN generate_series(0, ${POINTS - 1}) AS i
      WHERE m.token_id BETWEEN ${ctx.tokens.firstId} AND ${last} AND m.market_cap_usd IS NOT NULL
    ), e AS (SELECT token_id, f AS f_end FROM w WHERE i = ${POINTS - 1})
    INSERT INTO token_market_snapshots (token_id, taken_at, market_cap_usd, price_usd, volume_24h_usd)
    SELECT w.token_id, date_trunc('hour', now()) - (${POINTS - 1} - w.i) * interval '6 hours',
      w.market_cap_usd * w.f / e.f_end, w.price_usd * w.f / e.f_end, w.volume_24h_usd * (0.5 + 0.5 * w.f / e.f_end)
    FROM w JOIN e USING (token_id)
    ON CONFLICT DO NOTHING`.execute(ctx.db);
}

export const marketSeeder: DomainSeeder = {
  name: "market",
  version: 1,
  tables: ["token_market_snapshots"],
  run,
};
