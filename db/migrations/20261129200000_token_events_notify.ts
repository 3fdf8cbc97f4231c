// Every statement that adds token events sends NOTIFY token_events at its commit, so that each instance's stream
// reader (lib/domains/stream/hub.ts) reads them at once rather than at its next tick. One notification a statement,
// not a row: a backfill's insert of 500 tokens wakes the readers once.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE FUNCTION token_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('token_events', '');
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER token_events_notify AFTER INSERT ON token_events
    FOR EACH STATEMENT EXECUTE FUNCTION token_events_notify()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER token_events_notify ON token_events`.execute(db);
  await sql`DROP FUNCTION token_events_notify()`.execute(db);
}
