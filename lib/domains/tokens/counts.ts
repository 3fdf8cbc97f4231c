// Counts of the token lists. An exact count(*) of a filter matching a hundred thousand of a million rows
// reads all of them; instead the planner's estimate is asked first (EXPLAIN, planning only), and rows
// are counted only when it expects few: `total` is exact up to ESTIMATE_ABOVE matches, an estimate above.
import { CompiledQuery, sql, type Kysely } from "kysely";
import type { DB } from "@/db/types";
import { filterConditions, hasFilters, type TokenFilters } from "./filters";

/** Above this many expected matches `total` is the planner's estimate. */
export const ESTIMATE_ABOVE = 1_000;
/** An exact count stops here, in case the estimate was far too low. */
export const EXACT_COUNT_MAX = 10_000;

function matching(conn: Kysely<DB>, f: TokenFilters) {
  const conditions = (q: Parameters<typeof filterConditions>[0]) => filterConditions(q, f);
  return conn
    .selectFrom("tokens as t")
    .select(sql<number>`1`.as("one"))
    .where((eb) => eb.and(conditions(eb)));
}

/** EXPLAIN of the rows matching `f`: planning only, nothing is read. */
export function estimateQuery(conn: Kysely<DB>, f: TokenFilters): CompiledQuery<Record<string, unknown>> {
  const compiled = matching(conn, f).compile();
  return CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]);
}

/** count(*) of the rows matching `f`, stopping after EXACT_COUNT_MAX + 1. */
export function exactCountQuery(conn: Kysely<DB>, f: TokenFilters): CompiledQuery<{ n: number }> {
  return conn
    .selectFrom(matching(conn, f).limit(EXACT_COUNT_MAX + 1).as("s"))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .compile();
}

async function plannerEstimate(conn: Kysely<DB>, f: TokenFilters): Promise<number> {
  const { rows } = await conn.executeQuery(estimateQuery(conn, f));
  const plan = rows[0]?.["QUERY PLAN"];
  const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as Array<{ Plan: { "Plan Rows": number } }>;
  return Number(parsed?.[0]?.Plan?.["Plan Rows"] ?? 0);
}

/** The platform-wide estimate moves slowly; it is asked at most every 10 s per process. */
const ALL_TOKENS_TTL_MS = 10_000;
let allTokens: { estimate: number; until: number } | undefined;

/** Tokens matching `f`: exact when few, else the planner's estimate (never below what was counted). */
export async function countTokens(conn: Kysely<DB>, f: TokenFilters): Promise<number> {
  const everything = !hasFilters(f);
  if (everything && allTokens && allTokens.until > Date.now()) return allTokens.estimate;
  const estimate = await plannerEstimate(conn, f);
  if (estimate > ESTIMATE_ABOVE) {
    if (everything) allTokens = { estimate: Math.round(estimate), until: Date.now() + ALL_TOKENS_TTL_MS };
    return Math.round(estimate);
  }
  const { rows } = await conn.executeQuery(exactCountQuery(conn, f));
  const counted = Number(rows[0]?.n ?? 0);
  return counted > EXACT_COUNT_MAX ? Math.max(counted, Math.round(estimate)) : counted;
}
