// Deploy domain: partner deploy requests (the idempotency record of each requestKey, kept for good), the
// TokenCreated indexer's checkpoints, tokens submitted from the UI, and a partner's reward address.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- Where the interface share of a legacy (0.3.x, 3.1.0) deployment goes; null: to the platform.
    ALTER TABLE api_keys ADD COLUMN reward_address text CHECK (reward_address = lower(reward_address));

    CREATE TABLE deploy_requests (
      id bigserial PRIMARY KEY,
      partner_id bigint NOT NULL REFERENCES api_keys (id),
      request_key text NOT NULL,
      body_hash text NOT NULL,
      shape text NOT NULL CHECK (shape IN ('4.0.0', '0.3.1', '0.3.0', '3.1.0')),
      chain_id integer NOT NULL,
      config jsonb NOT NULL,
      expected_address text NOT NULL CHECK (expected_address = lower(expected_address)),
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'submitted', 'deployed', 'failed')),
      tx_hash text CHECK (tx_hash = lower(tx_hash)),
      failure_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      submitted_at timestamptz,
      finished_at timestamptz,
      UNIQUE (partner_id, request_key)
    );
    CREATE INDEX deploy_requests_expected ON deploy_requests (expected_address, chain_id);

    CREATE TABLE token_index_checkpoints (
      chain_id integer NOT NULL,
      factory text NOT NULL CHECK (factory = lower(factory)),
      last_block bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chain_id, factory)
    );

    CREATE TABLE token_submissions (
      id bigserial PRIMARY KEY,
      chain_id integer NOT NULL,
      address text NOT NULL CHECK (address = lower(address)),
      tx_hash text NOT NULL CHECK (tx_hash = lower(tx_hash)),
      user_id text NOT NULL,
      fid bigint,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (chain_id, address, user_id)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE token_submissions, token_index_checkpoints, deploy_requests;
    ALTER TABLE api_keys DROP COLUMN reward_address;
  `.execute(db);
}
