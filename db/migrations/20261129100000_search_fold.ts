// Search folds text (lib/domains/tokens/search-fold.ts): a term and the indexed names are both compared as
// lower(normalize(text, NFKC)), ASCII text skipping normalize(), so fullwidth and decomposed spellings find what their
// plain spelling finds. The search indexes of tokens and users move from lower(column) to that expression, under the
// same names and settings (20261122000000_core, 20261122020000_tokens_search, 20261125150000_users_prefix_covering).
// No row is written: the expression is IMMUTABLE, and each index is built from the rows by one statement, each well
// under the migrations' 60 s limit. On the bench's million tokens and 125,000 users, two cores shared with other work:
// a trigram index 8 to 19 s, a prefix index 3 to 6 s, a users index under 0.6 s, ANALYZE 3 to 6 s; the migration 52 to
// 74 s in all. The new indexes are built beside the old ones, which the service still running meanwhile searches with;
// building makes writers of tokens and users wait until the migrations commit, not readers. Dropping the old indexes
// locks readers out from then to the commit, a few seconds. ANALYZE gathers the new expressions' statistics, from which
// the planner estimates how many names a term matches (and `total` above 1,000): an expression has none until its table
// is analysed. It gathers 100 buckets: the prefix indexes ask for 1,000 only after it, and get them from the next
// ANALYZE of tokens (autovacuum's, or one by hand). The bench's search plans were the same with both.
import { sql, type Kysely } from "kysely";

type Fold = (column: string) => string;
/** lib/domains/tokens/search-fold.ts's searchFold, to the letter: the queries must spell the indexed expression. */
const folded: Fold = (c) =>
  `lower(CASE WHEN octet_length(${c}) = char_length(${c}) THEN ${c} ELSE normalize(${c}, NFKC) END)`;
const unfolded: Fold = (column) => `lower(${column})`;

/** Each search index: its name, and its definition over the expression `expr` of the column. */
const INDEXES: Array<[string, (expr: Fold) => string]> = [
  ["tokens_name_trgm", (e) => `tokens USING gin (${e("name")} gin_trgm_ops) WITH (gin_pending_list_limit = 256)`],
  ["tokens_symbol_trgm", (e) => `tokens USING gin (${e("symbol")} gin_trgm_ops) WITH (gin_pending_list_limit = 256)`],
  ["tokens_name_prefix", (e) => `tokens (${e("name")} text_pattern_ops)`],
  ["tokens_symbol_prefix", (e) => `tokens (${e("symbol")} text_pattern_ops)`],
  ["users_username_prefix", (e) => `users (${e("username")} text_pattern_ops) INCLUDE (username, fid, follower_count)`],
  [
    "users_display_prefix",
    (e) => `users (${e("display_name")} text_pattern_ops) INCLUDE (display_name, fid, follower_count)`,
  ],
  [
    "users_twitter_prefix",
    (e) => `users (${e("twitter_username")} text_pattern_ops) INCLUDE (twitter_username, fid, follower_count)`,
  ],
];

/**
 * Builds the search indexes over `expr` beside the current ones, then puts them in their place. ANALYZE runs once the
 * old ones are gone and before the new prefix indexes ask for 1,000 buckets: with 1,000, ANALYZE samples 300,000 rows,
 * which took 30 to 62 s on the bench's million tokens (3 s with the default 100).
 */
async function replaceSearchIndexes(db: Kysely<any>, expr: Fold): Promise<void> {
  for (const [name, definition] of INDEXES)
    await sql.raw(`CREATE INDEX ${name}_next ON ${definition(expr)}`).execute(db);
  await sql.raw(`DROP INDEX ${INDEXES.map(([name]) => name).join(", ")}`).execute(db);
  await sql`ANALYZE tokens`.execute(db);
  await sql`ANALYZE users`.execute(db);
  for (const name of ["tokens_name_prefix", "tokens_symbol_prefix"])
    await sql.raw(`ALTER INDEX ${name}_next ALTER COLUMN 1 SET STATISTICS 1000`).execute(db);
  for (const [name] of INDEXES) await sql.raw(`ALTER INDEX ${name}_next RENAME TO ${name}`).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await replaceSearchIndexes(db, folded);
}

export async function down(db: Kysely<any>): Promise<void> {
  await replaceSearchIndexes(db, unfolded);
}
