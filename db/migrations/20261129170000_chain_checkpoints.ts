// One checkpoint store for every chain event stream: the last block read per (stream, chain, followed contract).
// The three tables it replaces (TokenCreated per factory, fee claims per fee locker, airdrop claims per airdrop
// contract) are copied under their stream names and dropped. `down` copies them back.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE chain_checkpoints (
      stream text NOT NULL,
      chain_id integer NOT NULL,
      address text NOT NULL CHECK (address = lower(address)),
      block bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (stream, chain_id, address)
    );
    INSERT INTO chain_checkpoints (stream, chain_id, address, block, updated_at)
      SELECT 'token-created', chain_id, factory, last_block, updated_at FROM token_index_checkpoints;
    INSERT INTO chain_checkpoints (stream, chain_id, address, block, updated_at)
      SELECT 'fee-claims', chain_id, fee_locker, last_block, updated_at FROM fee_claim_checkpoints;
    INSERT INTO chain_checkpoints (stream, chain_id, address, block, updated_at)
      SELECT 'airdrop-claims', chain_id, airdrop, last_block, updated_at FROM airdrop_claim_checkpoints;
    DROP TABLE token_index_checkpoints, fee_claim_checkpoints, airdrop_claim_checkpoints;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE token_index_checkpoints (
      chain_id integer NOT NULL,
      factory text NOT NULL CHECK (factory = lower(factory)),
      last_block bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chain_id, factory)
    );
    CREATE TABLE fee_claim_checkpoints (
      chain_id integer NOT NULL,
      fee_locker text NOT NULL CHECK (fee_locker = lower(fee_locker)),
      last_block bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chain_id, fee_locker)
    );
    CREATE TABLE airdrop_claim_checkpoints (
      chain_id integer NOT NULL,
      airdrop text NOT NULL CHECK (airdrop = lower(airdrop)),
      last_block bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chain_id, airdrop)
    );
    INSERT INTO token_index_checkpoints SELECT chain_id, address, block, updated_at
      FROM chain_checkpoints WHERE stream = 'token-created';
    INSERT INTO fee_claim_checkpoints SELECT chain_id, address, block, updated_at
      FROM chain_checkpoints WHERE stream = 'fee-claims';
    INSERT INTO airdrop_claim_checkpoints SELECT chain_id, address, block, updated_at
      FROM chain_checkpoints WHERE stream = 'airdrop-claims';
    DROP TABLE chain_checkpoints;
  `.execute(db);
}
