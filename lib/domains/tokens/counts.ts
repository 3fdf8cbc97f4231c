// Counts of the token lists. An exact count(*) of a filter matching a hundred thousand of a million rows
// reads all of them; instead the planner's estimate is asked first (EXPLAIN, planning only), and rows
// are counted only when it expects few: `total` is exact up to ESTIMATE_ABOVE matches, an estimate above.
import type { Database } from "@/db";
import { boundedCount, EXACT_COUNT_MAX, plannerEstimate } from "./queries/counts";
import { hasFilters, type TokenFilters } from "./queries/filters";

/** Above this many expected matches `total` is the planner's estimate. */
export const ESTIMATE_ABOVE = 1_000;

/** The platform-wide estimate moves slowly; it is asked at most every 10 s per process. */
const ALL_TOKENS_TTL_MS = 10_000;
let allTokens: { estimate: number; until: number } | undefined;

export type TokenCount = { count: number; exact: boolean };

/** Tokens matching `f`, and whether they were counted (few) or estimated (many; never below what was counted). */
export async function tokenCount(db: Database, f: TokenFilters): Promise<TokenCount> {
  const everything = !hasFilters(f);
  if (everything && allTokens && allTokens.until > Date.now()) return { count: allTokens.estimate, exact: false };
  const estimate = await plannerEstimate(db, f);
  if (estimate > ESTIMATE_ABOVE) {
    if (everything) allTokens = { estimate: Math.round(estimate), until: Date.now() + ALL_TOKENS_TTL_MS };
    return { count: Math.round(estimate), exact: false };
  }
  const counted = await boundedCount(db, f);
  return counted > EXACT_COUNT_MAX
    ? { count: Math.max(counted, Math.round(estimate)), exact: false }
    : { count: counted, exact: true };
}

/** Tokens matching `f`: exact when few, else the planner's estimate (never below what was counted). */
export async function countTokens(db: Database, f: TokenFilters): Promise<number> {
  return (await tokenCount(db, f)).count;
}
