// The token object's `extensions` (the platform's member: fee hook, fee type and values, reward split), written by
// the indexer from TokenCreated and the deploying call (lib/domains/launch/indexer/extensions.ts). Tokens indexed
// before it have none (null) until indexed again. A nullable column without a default: no table rewrite.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE tokens ADD COLUMN extensions jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE tokens DROP COLUMN extensions`.execute(db);
}
