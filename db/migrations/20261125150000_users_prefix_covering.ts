// Creator search by a name's prefix (lib/domains/users/queries/profiles.ts creatorsByNameQuery) reads the three
// prefix indexes alone: each now carries the column, the FID and the follower count, so the matches (a 3-letter
// stem matches thousands of profiles) are ranked from the indexes and only the 25 kept are read from the table.
// A bitmap scan over the table's rows took 3-6 ms at 125,000 profiles; the index-only scans take under 2.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX users_username_prefix, users_display_prefix, users_twitter_prefix;
    CREATE INDEX users_username_prefix ON users (lower(username) text_pattern_ops) INCLUDE (username, fid, follower_count);
    CREATE INDEX users_display_prefix ON users (lower(display_name) text_pattern_ops) INCLUDE (display_name, fid, follower_count);
    CREATE INDEX users_twitter_prefix ON users (lower(twitter_username) text_pattern_ops) INCLUDE (twitter_username, fid, follower_count);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX users_username_prefix, users_display_prefix, users_twitter_prefix;
    CREATE INDEX users_username_prefix ON users (lower(username) text_pattern_ops);
    CREATE INDEX users_display_prefix ON users (lower(display_name) text_pattern_ops);
    CREATE INDEX users_twitter_prefix ON users (lower(twitter_username) text_pattern_ops);
  `.execute(db);
}
