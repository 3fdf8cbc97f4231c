// Market figures over time: the market refresh appends one row per token it refreshes (lib/domains/tokens/market),
// the token page draws its chart from them, and the daily prune keeps MARKET_SNAPSHOT_RETENTION_DAYS of them.
// Also links tokens to the presale that deployed them (tokens.presale_id), for presales indexed before this.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE token_market_snapshots (
      token_id bigint NOT NULL REFERENCES tokens (id) ON DELETE CASCADE,
      taken_at timestamptz NOT NULL DEFAULT now(),
      market_cap_usd double precision,
      price_usd double precision,
      volume_24h_usd double precision,
      PRIMARY KEY (token_id, taken_at)
    );
    CREATE INDEX token_market_snapshots_taken ON token_market_snapshots (taken_at);
  `.execute(db);
  await sql`
    UPDATE tokens t SET presale_id = p.presale_id
    FROM presales p
    WHERE p.token_address = t.contract_address AND p.chain_id = t.chain_id AND t.presale_id IS NULL
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE token_market_snapshots`.execute(db);
}
