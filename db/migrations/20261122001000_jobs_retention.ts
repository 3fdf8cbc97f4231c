// The daily prune of settled job rows (lib/platform/jobs/retention.ts) finds old ones through this partial index.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX jobs_settled ON jobs (updated_at) WHERE status IN ('done', 'failed')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX jobs_settled`.execute(db);
}
