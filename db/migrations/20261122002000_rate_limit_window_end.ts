// Each rate-limit window records when it ends, so the sweep of old windows deletes only finished ones,
// whatever the window length of the limit that triggers it.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // Rows written before this column existed: the longest window in use is a day.
  await sql`ALTER TABLE rate_limits ADD COLUMN window_end timestamptz`.execute(db);
  await sql`UPDATE rate_limits SET window_end = window_start + interval '1 day'`.execute(db);
  await sql`ALTER TABLE rate_limits ALTER COLUMN window_end SET NOT NULL`.execute(db);
  await sql`CREATE INDEX rate_limits_window_end ON rate_limits (window_end)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE rate_limits DROP COLUMN window_end`.execute(db);
}
