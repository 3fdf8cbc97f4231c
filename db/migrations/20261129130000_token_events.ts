// token_events: one row per newly indexed token, written in the transaction that inserts the token. It is the one
// source of the launch webhooks and of GET /api/tokens/stream. Readers go in (xid, seq) order and only below the
// oldest running transaction (pg_snapshot_xmin), so a transaction that commits late cannot slip in behind them.
// token_event_horizon remembers the newest position pruned, so a reader older than it is told it missed events.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE token_events (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
    token_id bigint NOT NULL REFERENCES tokens(id) ON DELETE CASCADE,
    chain_id integer NOT NULL,
    contract_address text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (chain_id, contract_address)
  )`.execute(db);
  await sql`CREATE INDEX token_events_position ON token_events (xid, seq)`.execute(db);
  await sql`CREATE INDEX token_events_created_at ON token_events (created_at)`.execute(db);
  await sql`CREATE TABLE token_event_horizon (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    xid xid8 NOT NULL,
    seq bigint NOT NULL
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE token_event_horizon`.execute(db);
  await sql`DROP TABLE token_events`.execute(db);
}
