// search-creator matches name prefixes only (btree text_pattern_ops indexes of 20261122030000): the
// trigram index on X handles that migration added is not used by any query.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS users_twitter_trgm`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS users_twitter_trgm ON users USING gin (lower(twitter_username) gin_trgm_ops)`.execute(
    db,
  );
}
