// Airdrop claims read from the chain: the airdrop extension's AirdropClaimed events (lib/domains/airdrops/indexer.ts),
// and the indexer's checkpoint per (chain, airdrop contract). The token page draws an airdrop's claimed share from them.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE airdrop_claims (
      id bigserial PRIMARY KEY,
      chain_id integer NOT NULL,
      airdrop text NOT NULL CHECK (airdrop = lower(airdrop)),
      token text NOT NULL CHECK (token = lower(token)),
      account text NOT NULL CHECK (account = lower(account)),
      total_claimed numeric(78,0) NOT NULL CHECK (total_claimed >= 0),
      still_locked numeric(78,0) NOT NULL CHECK (still_locked >= 0),
      tx_hash text NOT NULL CHECK (tx_hash = lower(tx_hash)),
      log_index integer NOT NULL,
      block_number bigint NOT NULL,
      indexed_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (chain_id, tx_hash, log_index)
    );
    CREATE INDEX airdrop_claims_token ON airdrop_claims (chain_id, token, account);

    CREATE TABLE airdrop_claim_checkpoints (
      chain_id integer NOT NULL,
      airdrop text NOT NULL CHECK (airdrop = lower(airdrop)),
      last_block bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chain_id, airdrop)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE airdrop_claim_checkpoints, airdrop_claims`.execute(db);
}
