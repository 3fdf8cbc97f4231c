// The deploy job picks a nonce from the node and from the database: one past the highest nonce of the
// deployer's stored transactions that are still in flight. tx_from names the signer of the stored
// transaction (the deployer key can change); the partial index serves that lookup under the deployer lock.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE deploy_requests ADD COLUMN tx_from text`.execute(db);
  await sql`
    CREATE INDEX deploy_requests_in_flight ON deploy_requests (chain_id, tx_from, tx_nonce)
      WHERE status IN ('queued', 'submitted') AND tx_nonce IS NOT NULL
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX deploy_requests_in_flight`.execute(db);
  await sql`ALTER TABLE deploy_requests DROP COLUMN tx_from`.execute(db);
}
