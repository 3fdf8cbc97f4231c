// A deploy request keeps its signed transaction before it is broadcast, so a job that dies at any point
// is retried with the same transaction (same nonce, same hash) instead of signing a second one.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE deploy_requests
      ADD COLUMN tx_nonce bigint,
      ADD COLUMN signed_tx text,
      ADD CONSTRAINT deploy_requests_signed_whole CHECK ((signed_tx IS NULL) = (tx_nonce IS NULL));
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE deploy_requests DROP COLUMN tx_nonce, DROP COLUMN signed_tx`.execute(db);
}
