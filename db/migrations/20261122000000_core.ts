// Core tables: tokens and their market rows, users and follows, blocks, API keys, jobs, cache, rate limits.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    CREATE TABLE tokens (
      id bigserial PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now(),
      deployed_at timestamptz NOT NULL,
      tx_hash text,
      contract_address text NOT NULL CHECK (contract_address = lower(contract_address)),
      chain_id integer NOT NULL DEFAULT 8453,
      name text NOT NULL,
      symbol text NOT NULL,
      img_url text,
      pool_address text CHECK (pool_address = lower(pool_address)),
      requestor_fid bigint,
      msg_sender text NOT NULL CHECK (msg_sender = lower(msg_sender)),
      admin text NOT NULL CHECK (admin = lower(admin)),
      cast_hash text,
      type text NOT NULL DEFAULT 'clanker_v4',
      pair text,
      presale_id integer,
      factory_address text,
      locker_address text,
      metadata jsonb NOT NULL DEFAULT '{}',
      social_context jsonb NOT NULL DEFAULT '{}',
      deploy_config jsonb,
      pool_config jsonb,
      starting_market_cap double precision,
      warnings text[] NOT NULL DEFAULT '{}',
      tags jsonb NOT NULL DEFAULT '{"champagne":false,"verified":false,"knownInterfaceDeployer":false}',
      supply numeric(78,0) NOT NULL DEFAULT 100000000000000000000000000000,
      block_number bigint,
      log_index integer,
      UNIQUE (contract_address, chain_id)
    );
    CREATE INDEX tokens_deployed ON tokens (deployed_at DESC, id DESC);
    CREATE INDEX tokens_fid ON tokens (requestor_fid, deployed_at DESC, id DESC) WHERE requestor_fid IS NOT NULL;
    CREATE INDEX tokens_msg_sender ON tokens (msg_sender, deployed_at DESC, id DESC);
    CREATE INDEX tokens_admin ON tokens (admin, deployed_at DESC, id DESC);
    CREATE INDEX tokens_pool ON tokens (pool_address);
    CREATE INDEX tokens_pair ON tokens (lower(pair), deployed_at DESC, id DESC);
    CREATE INDEX tokens_chain ON tokens (chain_id, deployed_at DESC, id DESC);
    CREATE INDEX tokens_interface ON tokens (lower(social_context->>'interface'), deployed_at DESC, id DESC);
    CREATE INDEX tokens_champagne ON tokens (deployed_at DESC, id DESC) WHERE (tags->>'champagne') = 'true';
    CREATE INDEX tokens_name_trgm ON tokens USING gin (lower(name) gin_trgm_ops);
    CREATE INDEX tokens_symbol_trgm ON tokens USING gin (lower(symbol) gin_trgm_ops);
    CREATE INDEX tokens_name_prefix ON tokens (lower(name) text_pattern_ops);
    CREATE INDEX tokens_symbol_prefix ON tokens (lower(symbol) text_pattern_ops);

    CREATE TABLE token_market (
      token_id bigint PRIMARY KEY REFERENCES tokens (id) ON DELETE CASCADE,
      market_cap_usd double precision,
      price_usd double precision,
      volume_24h_usd double precision,
      tx_count_24h integer,
      price_change_1h double precision,
      price_change_24h double precision,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX token_market_cap ON token_market (market_cap_usd DESC NULLS LAST, token_id DESC);
    CREATE INDEX token_market_tx ON token_market (tx_count_24h DESC NULLS LAST, token_id DESC);
    CREATE INDEX token_market_change_24h ON token_market (price_change_24h DESC NULLS LAST, token_id DESC);
    CREATE INDEX token_market_change_1h ON token_market (price_change_1h DESC NULLS LAST, token_id DESC);

    CREATE TABLE users (
      fid bigint PRIMARY KEY,
      username text,
      display_name text,
      pfp_url text,
      custody_address text,
      verified_addresses text[] NOT NULL DEFAULT '{}',
      twitter_username text,
      neynar_score double precision,
      follower_count integer NOT NULL DEFAULT 0,
      following_count integer NOT NULL DEFAULT 0,
      profile jsonb NOT NULL DEFAULT '{}',
      fetched_at timestamptz NOT NULL DEFAULT now(),
      following_fetched_at timestamptz
    );
    CREATE UNIQUE INDEX users_username ON users (lower(username));
    CREATE INDEX users_username_trgm ON users USING gin (lower(username) gin_trgm_ops);
    CREATE INDEX users_display_trgm ON users USING gin (lower(display_name) gin_trgm_ops);
    CREATE INDEX users_twitter ON users (lower(twitter_username));

    CREATE TABLE user_addresses (
      address text NOT NULL CHECK (address = lower(address)),
      fid bigint NOT NULL REFERENCES users (fid) ON DELETE CASCADE,
      PRIMARY KEY (address, fid)
    );
    CREATE INDEX user_addresses_fid ON user_addresses (fid);

    CREATE TABLE follows (
      follower_fid bigint NOT NULL,
      followed_fid bigint NOT NULL,
      PRIMARY KEY (follower_fid, followed_fid)
    );

    CREATE TABLE blocked_tokens (
      id bigserial PRIMARY KEY,
      address text NOT NULL CHECK (address = lower(address)),
      chain_id integer,
      reason text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX blocked_tokens_key ON blocked_tokens (address, coalesce(chain_id, 0));

    CREATE TABLE api_keys (
      id bigserial PRIMARY KEY,
      name text NOT NULL,
      prefix text NOT NULL UNIQUE,
      key_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz,
      last_used_at timestamptz
    );

    CREATE TABLE jobs (
      id bigserial PRIMARY KEY,
      name text NOT NULL,
      payload jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'running', 'done', 'failed', 'dispatched')),
      attempts integer NOT NULL DEFAULT 0,
      max_attempts integer NOT NULL DEFAULT 8,
      run_at timestamptz NOT NULL DEFAULT now(),
      locked_until timestamptz,
      dedupe_key text UNIQUE,
      last_error text,
      result jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX jobs_due ON jobs (run_at, id) WHERE status IN ('pending', 'running', 'dispatched');

    CREATE TABLE kv_cache (
      key text PRIMARY KEY,
      value jsonb NOT NULL,
      expires_at timestamptz
    );

    CREATE TABLE rate_limits (
      key text NOT NULL,
      window_start timestamptz NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (key, window_start)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE rate_limits, kv_cache, jobs, api_keys, blocked_tokens, follows, user_addresses, users,
      token_market, tokens;
  `.execute(db);
}
