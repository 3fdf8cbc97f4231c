// Pretokens: a user's pending version-4 deployment settings, active for 7 days, soft-deleted by the owner.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE pretokens (
      id uuid PRIMARY KEY,
      user_id text NOT NULL,
      fid bigint,
      keyword text NOT NULL,
      chain_id integer NOT NULL,
      token_settings jsonb NOT NULL,
      vault_settings jsonb,
      airdrop jsonb,
      deployment_config jsonb NOT NULL,
      expected_address text NOT NULL CHECK (expected_address = lower(expected_address)),
      created_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    );
    CREATE INDEX pretokens_pending ON pretokens (user_id, created_at DESC) WHERE deleted_at IS NULL;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE pretokens`.execute(db);
}
