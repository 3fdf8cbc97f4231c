// Job lanes and concurrency keys (lib/platform/jobs/define.ts): the worker claims each lane's due rows apart, and
// never two rows of one concurrency key at once. Rows enqueued before this migration get the values that
// the webhook delivery job now gives its rows, so a backlog of deliveries moves to its own lane too.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN lane text NOT NULL DEFAULT 'default', ADD COLUMN concurrency_key text`.execute(
    db,
  );
  await sql`
    UPDATE jobs SET lane = 'webhooks', concurrency_key = 'webhook-' || (payload->>'subscriptionId')
      WHERE name = 'webhook-deliver' AND status IN ('pending', 'running', 'dispatched')
  `.execute(db);
  await sql`CREATE INDEX jobs_due_lane ON jobs (lane, run_at, id) WHERE status IN ('pending', 'running', 'dispatched')`.execute(
    db,
  );
  await sql`
    CREATE INDEX jobs_concurrency_key ON jobs (concurrency_key, run_at, id)
      WHERE concurrency_key IS NOT NULL AND status IN ('pending', 'running', 'dispatched')
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX jobs_concurrency_key`.execute(db);
  await sql`DROP INDEX jobs_due_lane`.execute(db);
  await sql`ALTER TABLE jobs DROP COLUMN concurrency_key, DROP COLUMN lane`.execute(db);
}
