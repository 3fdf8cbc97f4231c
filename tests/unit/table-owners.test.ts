// Every statement on a table lives in the queries module of the wing that owns the table (docs/architecture.md):
// a domain's `queries.ts` (or its `queries/` folder), or the platform backend that owns it. Other modules call that
// module's functions. The check reads the source: Kysely builders naming a table, and SQL text naming one.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** Each table and the modules allowed to hold statements on it. */
const OWNERS: Record<string, string[]> = {
  "lib/domains/tokens/queries": [
    "tokens",
    "token_market",
    "token_market_snapshots",
    "blocked_tokens",
    "token_events",
    "token_event_horizon",
  ],
  "lib/domains/users/queries": ["users", "user_addresses", "follows", "trusted_tokens", "trusted_deployers"],
  "lib/domains/launch/queries": ["deploy_requests", "deploy_quota", "token_submissions", "pretokens"],
  "lib/domains/rewards/queries": ["fee_claims"],
  "lib/domains/rewards/legacy/queries": ["legacy_fee_claims"],
  "lib/domains/presales/queries": ["presales"],
  "lib/domains/airdrops/queries": ["airdrop_claims"],
  "lib/domains/merkle/queries": ["merkle_trees", "merkle_tiles", "merkle_leaf_chunks"],
  "lib/domains/leaderboard/queries": ["agents", "agent_runs", "agent_casts", "agent_interactions", "agent_scores"],
  "lib/domains/webhooks/queries": ["webhook_subscriptions", "webhook_deliveries"],
  "lib/domains/partners/queries": ["api_keys"],
  "lib/platform/jobs/queries": ["jobs"],
  "lib/platform/quarantine": ["quarantined_events"],
  "lib/platform/checkpoints": ["chain_checkpoints"],
  "lib/platform/kv/postgres": ["kv_cache", "kv_counters", "rate_limits"],
};
const ownerOf = new Map(Object.entries(OWNERS).flatMap(([module, tables]) => tables.map((t) => [t, module] as const)));
const TABLES = [...ownerOf.keys()].sort((a, b) => b.length - a.length);
const tableAlternatives = TABLES.join("|");

/** A Kysely builder naming a table (`selectFrom("tokens as t")`, `innerJoin("users as u", …)`, `.with(…)` aside). */
const BUILDER = new RegExp(
  String.raw`\b(?:selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|using)\(\s*\[?\s*["'\`](${tableAlternatives})\b`,
  "g",
);
/** SQL text naming a table after FROM, JOIN, INTO, UPDATE, TABLE (inside sql`…` or a raw string). */
const SQL_TEXT = new RegExp(String.raw`\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+(?:ONLY\s+)?(${tableAlternatives})\b`, "gi");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(rel) : /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

/** The module a file belongs to for ownership: `…/queries.ts` and `…/queries/*.ts` are that folder's queries module. */
function moduleOf(file: string): string {
  return file.replace(/\/queries\/[^/]+\.tsx?$/, "/queries").replace(/\.tsx?$/, "");
}

/** Code without comments, so a comment naming a table is not a statement. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

describe("table ownership", () => {
  const files = [...sourceFiles("lib"), ...sourceFiles("app")];

  it("finds statements (the scan works)", () => {
    const found = files.filter((f) => BUILDER.test(withoutComments(readFileSync(path.join(root, f), "utf8"))));
    expect(found.length).toBeGreaterThan(5);
  });

  it("keeps every statement in the owner's queries module", () => {
    const misplaced: string[] = [];
    for (const file of files) {
      const code = withoutComments(readFileSync(path.join(root, file), "utf8"));
      const here = moduleOf(file);
      for (const re of [BUILDER, SQL_TEXT]) {
        for (const m of code.matchAll(re)) {
          const table = m[1]!.toLowerCase();
          if (ownerOf.get(table) !== here) misplaced.push(`${file}: ${table} (owner ${ownerOf.get(table)})`);
        }
      }
    }
    expect([...new Set(misplaced)].sort()).toEqual([]);
  });
});
