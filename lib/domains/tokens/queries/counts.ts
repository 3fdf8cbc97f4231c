// The count statements of the token lists: the planner's estimate of a filter's matches (EXPLAIN, planning
// only, nothing is read) and a count(*) bounded at EXACT_COUNT_MAX + 1 rows.
import { CompiledQuery, sql } from "kysely";
import type { Database } from "@/db";
import { filterConditions, type TokenFilters } from "./filters";

/** An exact count stops here, in case the estimate was far too low. */
export const EXACT_COUNT_MAX = 10_000;

function matching(db: Database, f: TokenFilters) {
  const conditions = (q: Parameters<typeof filterConditions>[0]) => filterConditions(q, f);
  return db
    .selectFrom("tokens as t")
    .select(sql<number>`1`.as("one"))
    .where((eb) => eb.and(conditions(eb)));
}

/** EXPLAIN of the rows matching `f`: planning only, nothing is read. */
export function estimateQuery(db: Database, f: TokenFilters): CompiledQuery<Record<string, unknown>> {
  const compiled = matching(db, f).compile();
  return CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]);
}

/** count(*) of the rows matching `f`, stopping after EXACT_COUNT_MAX + 1. */
export function exactCountQuery(db: Database, f: TokenFilters): CompiledQuery<{ n: number }> {
  return db
    .selectFrom(
      matching(db, f)
        .limit(EXACT_COUNT_MAX + 1)
        .as("s"),
    )
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .compile();
}

/** The rows the planner expects to match `f`. */
export async function plannerEstimate(db: Database, f: TokenFilters): Promise<number> {
  const { rows } = await db.executeQuery(estimateQuery(db, f));
  const plan = rows[0]?.["QUERY PLAN"];
  const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as Array<{ Plan: { "Plan Rows": number } }>;
  return Number(parsed?.[0]?.Plan?.["Plan Rows"] ?? 0);
}

/** The rows matching `f`, counted up to EXACT_COUNT_MAX + 1. */
export async function boundedCount(db: Database, f: TokenFilters): Promise<number> {
  const { rows } = await db.executeQuery(exactCountQuery(db, f));
  return Number(rows[0]?.n ?? 0);
}
