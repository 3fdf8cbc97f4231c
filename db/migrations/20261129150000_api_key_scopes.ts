// Partner keys an operator manages: an owner, scopes, an expiry and limits of their own, and rotation with a
// grace period. Existing keys get every scope, so no current client breaks. A rotated key keeps its row (its id is
// the partner everywhere: deploys, webhooks, quotas); the hash it replaced works until previous_expires_at.
// kv_counters is the Postgres backend's hash of counters (usage per key and day), as Redis hashes are on Upstash.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE api_keys
      ADD COLUMN owner text,
      ADD COLUMN scopes text[] NOT NULL DEFAULT '{read,deploy,index,webhooks}'
        CHECK (scopes <@ '{read,deploy,index,webhooks}'::text[]),
      ADD COLUMN expires_at timestamptz,
      ADD COLUMN requests_per_minute integer CHECK (requests_per_minute > 0),
      ADD COLUMN deploys_per_day integer CHECK (deploys_per_day > 0),
      ADD COLUMN previous_key_hash text UNIQUE,
      ADD COLUMN previous_prefix text,
      ADD COLUMN previous_expires_at timestamptz
  `.execute(db);
  await sql`
    CREATE TABLE kv_counters (
      key text NOT NULL,
      field text NOT NULL,
      count bigint NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (key, field)
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE kv_counters`.execute(db);
  await sql`
    ALTER TABLE api_keys
      DROP COLUMN owner, DROP COLUMN scopes, DROP COLUMN expires_at, DROP COLUMN requests_per_minute,
      DROP COLUMN deploys_per_day, DROP COLUMN previous_key_hash, DROP COLUMN previous_prefix,
      DROP COLUMN previous_expires_at
  `.execute(db);
}
