// Presales as the chain reports them (lib/domains/presales/indexer.ts): one row per (chain, presale id), its
// configuration from PresaleStarted and its state from the latest event the service has seen.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE presales (
      id bigserial PRIMARY KEY,
      chain_id integer NOT NULL,
      presale_id bigint NOT NULL,
      presale_address text NOT NULL CHECK (presale_address = lower(presale_address)),
      status smallint NOT NULL DEFAULT 1,
      owner text CHECK (owner = lower(owner)),
      allowlist_root text,
      deployment_config jsonb,
      min_eth_goal numeric(78,0),
      max_eth_goal numeric(78,0),
      eth_raised numeric(78,0) NOT NULL DEFAULT 0,
      end_time timestamptz,
      lockup_duration bigint,
      vesting_duration bigint,
      lockup_end_time timestamptz,
      vesting_end_time timestamptz,
      token_address text CHECK (token_address = lower(token_address)),
      token_supply numeric(78,0),
      started_at timestamptz,
      start_tx_hash text,
      -- Position (block, log index) of the event that set status and eth_raised: older events never win.
      state_block bigint NOT NULL DEFAULT 0,
      state_log_index integer NOT NULL DEFAULT -1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (chain_id, presale_id)
    );
    CREATE INDEX presales_started ON presales (started_at DESC NULLS LAST, id DESC);
    CREATE INDEX presales_chain_started ON presales (chain_id, started_at DESC NULLS LAST, id DESC);
    CREATE INDEX presales_status ON presales (status, started_at DESC NULLS LAST, id DESC);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE presales`.execute(db);
}
