// Chain events the indexer set aside: one that could not be decoded or stored is recorded here, the indexer's
// checkpoint moves past it, and `npm run tokens -- quarantine retry` tries it again after a fix.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE quarantined_events (
      id bigserial PRIMARY KEY,
      stream text NOT NULL,
      chain_id integer NOT NULL,
      address text NOT NULL CHECK (address = lower(address)),
      block_number bigint NOT NULL,
      log_index integer NOT NULL,
      tx_hash text NOT NULL CHECK (tx_hash = lower(tx_hash)),
      reason text NOT NULL,
      first_error text NOT NULL,
      last_error text NOT NULL,
      attempts integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      resolved_at timestamptz,
      UNIQUE (stream, chain_id, tx_hash, log_index)
    );
    CREATE INDEX quarantined_events_open ON quarantined_events (id) WHERE resolved_at IS NULL;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE quarantined_events`.execute(db);
}
