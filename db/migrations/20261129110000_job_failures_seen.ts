// Operators see failed jobs before they go: `seen_at` is set when the operator view (GET /api/admin/status) lists a
// failed row, and the daily prune deletes a failed row only once it is seen. The two partial indexes keep what the
// health check and the operator view read cheap: a job's last successful run, and the recent failures.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN seen_at timestamptz`.execute(db);
  await sql`CREATE INDEX jobs_done_by_name ON jobs (name, updated_at) WHERE status = 'done'`.execute(db);
  await sql`CREATE INDEX jobs_failed ON jobs (updated_at) WHERE status = 'failed'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX jobs_failed`.execute(db);
  await sql`DROP INDEX jobs_done_by_name`.execute(db);
  await sql`ALTER TABLE jobs DROP COLUMN seen_at`.execute(db);
}
