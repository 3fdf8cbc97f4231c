// How search folds text, shared by creator search (the users table) and token search (the tokens domain).
import { type Expression, sql } from "kysely";

/**
 * The fold on both sides of every search comparison: NFKC (fullwidth and other compatibility forms become their
 * plain letters, decomposed accents compose), then PostgreSQL's lower(). The search indexes are built on this
 * expression of each column (migration 20261129100000_search_fold), and a term goes through the same SQL rather
 * than JavaScript's toLowerCase, which folds some letters otherwise (a final sigma, a dotted capital I).
 * Text of one byte a character (ASCII) is its own NFKC form and skips normalize(), which costs about three times
 * lower() (1.5 against 0.5 µs a name): a search that walks many rows (a two-letter prefix, a bounded count) pays it
 * for each row it reads.
 */
export const searchFold = (text: Expression<unknown>) =>
  sql<string>`lower(CASE WHEN octet_length(${text}) = char_length(${text}) THEN ${text} ELSE normalize(${text}, NFKC) END)`;
