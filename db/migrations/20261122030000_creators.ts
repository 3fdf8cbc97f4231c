// Creators domain: trust lists for search-creator, fee-claim events read from the chain and the
// indexer's checkpoint, and prefix indexes for looking creators up by name.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE trusted_tokens (
      address text NOT NULL CHECK (address = lower(address)),
      chain_id integer NOT NULL,
      note text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (address, chain_id)
    );

    CREATE TABLE trusted_deployers (
      address text PRIMARY KEY CHECK (address = lower(address)),
      note text,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE fee_claims (
      id bigserial PRIMARY KEY,
      chain_id integer NOT NULL,
      fee_locker text NOT NULL CHECK (fee_locker = lower(fee_locker)),
      tx_hash text NOT NULL CHECK (tx_hash = lower(tx_hash)),
      log_index integer NOT NULL,
      block_number bigint NOT NULL,
      fee_owner text NOT NULL CHECK (fee_owner = lower(fee_owner)),
      token text NOT NULL CHECK (token = lower(token)),
      amount numeric(78,0) NOT NULL CHECK (amount >= 0),
      indexed_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (chain_id, tx_hash, log_index)
    );
    CREATE INDEX fee_claims_owner ON fee_claims (chain_id, token, fee_owner);

    CREATE TABLE fee_claim_checkpoints (
      chain_id integer NOT NULL,
      fee_locker text NOT NULL CHECK (fee_locker = lower(fee_locker)),
      last_block bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chain_id, fee_locker)
    );

    CREATE INDEX users_username_prefix ON users (lower(username) text_pattern_ops);
    CREATE INDEX users_display_prefix ON users (lower(display_name) text_pattern_ops);
    CREATE INDEX users_twitter_prefix ON users (lower(twitter_username) text_pattern_ops);
    CREATE INDEX users_twitter_trgm ON users USING gin (lower(twitter_username) gin_trgm_ops);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX users_twitter_trgm, users_twitter_prefix, users_display_prefix, users_username_prefix;
    DROP TABLE fee_claim_checkpoints, fee_claims, trusted_deployers, trusted_tokens;
  `.execute(db);
}
