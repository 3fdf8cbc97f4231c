// DEPLOY_DAILY_LIMIT counts accepted deployments: one counter per partner per UTC day, incremented in the
// transaction that claims a new requestKey (so 400s, dry runs and retries never use it up).
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE deploy_quota (
      partner_id bigint NOT NULL REFERENCES api_keys (id),
      day date NOT NULL,
      used integer NOT NULL CHECK (used >= 0),
      PRIMARY KEY (partner_id, day)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE deploy_quota`.execute(db);
}
