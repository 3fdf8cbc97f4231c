// Read-only token queries the creators domain needs: tokens of a set of creators (by requestor FID or
// deployer address), with filters, a page and a total; and a creator's launch statistics.
import { CompiledQuery, sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import { db } from "@/db";
import type { DB } from "@/db/types";
import { ESTIMATE_ABOVE, EXACT_COUNT_MAX } from "@/lib/domains/tokens/counts";
import type { TokenRow } from "@/lib/domains/tokens/serialize";
import type { TrustFacts } from "./trust";

export type Creators = { fids: number[]; addresses: string[] };
export type Platform = "farcaster" | "twitter";

/** social_context.platform values per filter value ("x" is the same network as "twitter"). */
export const PLATFORM_VALUES: Record<Platform, string[]> = { farcaster: ["farcaster"], twitter: ["twitter", "x"] };

type WithT = DB & { t: DB["tokens"] };
type TokensQuery = SelectQueryBuilder<WithT, "t", {}>;

function byCreators(eb: ExpressionBuilder<WithT, "t">, creators: Creators) {
  const parts = [];
  if (creators.fids.length) parts.push(eb("t.requestor_fid", "in", creators.fids));
  if (creators.addresses.length) parts.push(eb("t.msg_sender", "in", creators.addresses));
  return parts.length ? eb.or(parts) : eb.val(false);
}

/** A token is trusted when it is listed, its deployer is listed, or its requester verified the deployer. */
export function isTrustedToken(eb: ExpressionBuilder<WithT, "t">) {
  return eb.or([
    eb.exists(
      eb
        .selectFrom("trusted_tokens as tt")
        .select(sql`1`.as("one"))
        .whereRef("tt.address", "=", "t.contract_address")
        .whereRef("tt.chain_id", "=", "t.chain_id"),
    ),
    eb.exists(eb.selectFrom("trusted_deployers as td").select(sql`1`.as("one")).whereRef("td.address", "=", "t.msg_sender")),
    eb.exists(
      eb
        .selectFrom("users as ru")
        .select(sql`1`.as("one"))
        .whereRef("ru.fid", "=", "t.requestor_fid")
        .where(sql<boolean>`t.msg_sender = ANY(ru.verified_addresses)`),
    ),
  ]);
}

export type CreatorTokenFilter = { platform?: Platform; trustedOnly?: boolean };

function filtered(creators: Creators, filter: CreatorTokenFilter): TokensQuery {
  let q = db().selectFrom("tokens as t").where((eb) => byCreators(eb, creators));
  if (filter.platform) {
    q = q.where(sql<string>`lower(t.social_context->>'platform')`, "in", PLATFORM_VALUES[filter.platform]);
  }
  if (filter.trustedOnly) q = q.where((eb) => isTrustedToken(eb));
  return q;
}

/** The two statements of countMatching: the planner's estimate (EXPLAIN, reads nothing) and a bounded count. */
export function countStatements(base: TokensQuery) {
  const matching = base.select(sql<number>`1`.as("one"));
  const compiled = matching.compile();
  return {
    estimate: CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]),
    exact: db()
      .selectFrom(matching.limit(EXACT_COUNT_MAX + 1).as("s"))
      .select((eb) => eb.fn.countAll<number>().as("n")),
  };
}

/** The row count EXPLAIN (FORMAT JSON) expects. */
export function planRows(rows: Record<string, unknown>[]): number {
  const plan = rows[0]?.["QUERY PLAN"];
  const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as Array<{ Plan: { "Plan Rows": number } }>;
  return Number(parsed?.[0]?.Plan?.["Plan Rows"] ?? 0);
}

/**
 * How many tokens match, as the token lists count (lib/domains/tokens/counts.ts): exact up to ESTIMATE_ABOVE
 * expected matches, else the planner's estimate. An exact count of a creator with 90,000 tokens reads
 * 90,000 rows; the estimate reads none.
 */
export async function countMatching(base: TokensQuery): Promise<{ count: number; exact: boolean }> {
  const statements = countStatements(base);
  const estimate = planRows((await db().executeQuery<Record<string, unknown>>(statements.estimate)).rows);
  if (estimate > ESTIMATE_ABOVE) return { count: Math.round(estimate), exact: false };
  const counted = Number((await statements.exact.executeTakeFirstOrThrow()).n);
  return counted > EXACT_COUNT_MAX ? { count: Math.max(counted, Math.round(estimate)), exact: false } : { count: counted, exact: true };
}

export type CreatorTokenPage = { sort: "asc" | "desc"; limit: number; offset: number };
export type CreatorTokenRow = TokenRow & TrustFacts;

/**
 * A page of the creators' tokens by deployment time (id breaks ties), each row with its trust facts.
 * Two round trips at most after the page: the planner's estimate goes out beside the page, and an
 * exact count follows only when the estimate is small and the page does not show the end.
 * `hasMore` is exact (one row more is read); `total` as countMatching says, or exact at the end.
 */
export async function pageCreatorTokens(
  creators: Creators,
  filter: CreatorTokenFilter,
  page: CreatorTokenPage,
): Promise<{ rows: CreatorTokenRow[]; total: number; hasMore: boolean }> {
  if (!creators.fids.length && !creators.addresses.length) return { rows: [], total: 0, hasMore: false };
  const q = creatorTokensQueries(creators, filter, page);
  const count = countStatements(q.base);
  const [fetched, plan] = await Promise.all([q.page.execute(), db().executeQuery<Record<string, unknown>>(count.estimate)]);
  const hasMore = fetched.length > page.limit;
  const rows = fetched.slice(0, page.limit);
  let total: number;
  if (!hasMore && (rows.length > 0 || page.offset === 0)) total = page.offset + rows.length;
  else {
    const estimate = planRows(plan.rows);
    total = estimate > ESTIMATE_ABOVE ? Math.round(estimate) : Number((await count.exact.executeTakeFirstOrThrow()).n);
  }
  // An estimate never contradicts the rows in hand.
  return { rows, total: rows.length ? Math.max(total, page.offset + rows.length + (hasMore ? 1 : 0)) : total, hasMore };
}

/**
 * The queries of pageCreatorTokens (exported for the benchmark's database floor). The page is chosen
 * first and only its rows are joined to the trust lists and the requester's profile.
 */
export function creatorTokensQueries(creators: Creators, filter: CreatorTokenFilter, page: CreatorTokenPage) {
  const base = filtered(creators, filter);
  const chosen = base.selectAll("t").orderBy("t.deployed_at", page.sort).orderBy("t.id", page.sort).limit(page.limit + 1).offset(page.offset);
  return {
    base,
    page: db()
      .selectFrom(chosen.as("p"))
      .leftJoin("users as ru", "ru.fid", "p.requestor_fid")
      .selectAll("p")
      .select((eb) => [
        eb
          .exists(eb.selectFrom("trusted_tokens as tt").select(sql`1`.as("one")).whereRef("tt.address", "=", "p.contract_address").whereRef("tt.chain_id", "=", "p.chain_id"))
          .$castTo<boolean>()
          .as("trusted_token"),
        eb.exists(eb.selectFrom("trusted_deployers as td").select(sql`1`.as("one")).whereRef("td.address", "=", "p.msg_sender")).$castTo<boolean>().as("trusted_deployer"),
        "ru.verified_addresses as requester_verified",
      ])
      .orderBy("p.deployed_at", page.sort)
      .orderBy("p.id", page.sort),
  };
}

/** The newest tokens of the creators, at most `limit`. */
export async function newestCreatorTokens(creators: Creators, limit: number): Promise<TokenRow[]> {
  if (!creators.fids.length && !creators.addresses.length) return [];
  return filtered(creators, {}).selectAll("t").orderBy("t.deployed_at", "desc").orderBy("t.id", "desc").limit(limit).execute();
}

export type ChainLaunchStats = {
  chainId: number;
  tokens: number;
  firstLaunchAt: Date;
  latestLaunchAt: Date;
  /** Sum of the stored market caps (USD) of the chain's tokens that have one. */
  marketCapUsd: number;
};

/** Launch statistics are aggregated over at most this many of a creator's newest tokens. */
export const STATS_SAMPLE = 1000;

export type LaunchStats = {
  byChain: ChainLaunchStats[];
  tokensLaunched: number;
  firstLaunchAt: Date | null;
  latestLaunchAt: Date | null;
  /** false: the creator has more than STATS_SAMPLE tokens; byChain covers the newest STATS_SAMPLE, tokensLaunched is countMatching's. */
  complete: boolean;
};

/**
 * Counts, first and latest launch and summed market cap per chain, aggregated in one query over the
 * newest STATS_SAMPLE tokens: a creator with 90,000 tokens would otherwise cost a 90,000-row read.
 */
export async function launchStats(creators: Creators): Promise<LaunchStats> {
  if (!creators.fids.length && !creators.addresses.length) {
    return { byChain: [], tokensLaunched: 0, firstLaunchAt: null, latestLaunchAt: null, complete: true };
  }
  const base = filtered(creators, {});
  const newest = base.select(["t.id", "t.chain_id", "t.deployed_at"]).orderBy("t.deployed_at", "desc").orderBy("t.id", "desc").limit(STATS_SAMPLE);
  const rows = await db()
    .selectFrom(newest.as("s"))
    .leftJoin("token_market as m", "m.token_id", "s.id")
    .select((eb) => [
      "s.chain_id",
      eb.fn.countAll<number>().as("tokens"),
      eb.fn.min("s.deployed_at").as("first"),
      eb.fn.max("s.deployed_at").as("latest"),
      sql<number>`coalesce(sum(m.market_cap_usd), 0)`.as("market_cap"),
    ])
    .groupBy("s.chain_id")
    .orderBy("s.chain_id")
    .execute();
  const byChain = rows.map((r) => ({
    chainId: r.chain_id,
    tokens: Number(r.tokens),
    firstLaunchAt: r.first as Date,
    latestLaunchAt: r.latest as Date,
    marketCapUsd: Number(r.market_cap),
  }));
  const sampled = byChain.reduce((n, c) => n + c.tokens, 0);
  const latestLaunchAt = byChain.length ? new Date(Math.max(...byChain.map((c) => c.latestLaunchAt.getTime()))) : null;
  if (sampled < STATS_SAMPLE) {
    const firstLaunchAt = byChain.length ? new Date(Math.min(...byChain.map((c) => c.firstLaunchAt.getTime()))) : null;
    return { byChain, tokensLaunched: sampled, firstLaunchAt, latestLaunchAt, complete: true };
  }
  const [count, oldest] = await Promise.all([
    countMatching(base),
    base.select("t.deployed_at").orderBy("t.deployed_at", "asc").orderBy("t.id", "asc").limit(1).executeTakeFirst(),
  ]);
  return {
    byChain,
    tokensLaunched: Math.max(count.count, sampled),
    firstLaunchAt: oldest?.deployed_at ?? null,
    latestLaunchAt,
    complete: count.exact && count.count === sampled,
  };
}

export async function marketRows(tokenIds: number[]) {
  if (!tokenIds.length) return new Map();
  const rows = await db().selectFrom("token_market").selectAll().where("token_id", "in", tokenIds).execute();
  return new Map(rows.map((r) => [r.token_id, r]));
}
