// Seeds agents and 30 days of their activity (runs, casts, interactions), then scores every interval.
// Agents run seeded tokens and are seeded users. Everything is deterministic except the time anchor:
// activity ends at the hour of seeding, so the 24h and 7d boards are populated whenever the seed runs.
import { sql } from "kysely";
import type { DomainSeeder, SeedContext } from "./types";
import type { Prng } from "./prng";
import { Weighted } from "./prng";
import { computeLeaderboard } from "@/lib/domains/leaderboard/compute";
import { INTERVALS } from "@/lib/domains/leaderboard/scoring";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CAST_KINDS = new Weighted([
  ["post", 0.5],
  ["reply", 0.3],
  ["quote", 0.15],
  ["recast", 0.05],
] as const);
const INTERACTION_KINDS = new Weighted([
  ["like", 0.6],
  ["recast", 0.15],
  ["reply", 0.12],
  ["quote", 0.05],
  ["mention", 0.05],
  ["follow", 0.03],
] as const);

/** About one agent per thousand tokens, at least 25 and at most 1,000. */
export const agentsFor = (tokens: number) => Math.min(1000, Math.max(25, Math.round(tokens / 1000)));

type Table = { columns: Record<string, unknown[]>; total: number };
const table = (names: string[]): Table => ({ columns: Object.fromEntries(names.map((n) => [n, []])), total: 0 });
function push(t: Table, row: Record<string, unknown>) {
  for (const [k, v] of Object.entries(row)) t.columns[k].push(v);
  t.total++;
}

function agentActivity(
  r: Prng,
  agentId: string,
  ctx: SeedContext,
  anchor: number,
  self: { fid: number; creatorFid: number },
  out: { runs: Table; casts: Table; interactions: Table },
) {
  const profile = r.chance(0.05) ? "washer" : r.chance(0.03) ? "broken" : "normal";
  // Last activity: most agents today, some this week, the rest this month.
  const idleDays = r.chance(0.6) ? r.float() : r.chance(0.6) ? 1 + 6 * r.float() : 7 + 20 * r.float();
  const activeDays = Math.max(0.5, (30 - idleDays) * (0.3 + 0.7 * r.float()));
  const when = () => new Date(anchor - (idleDays + activeDays * r.float()) * DAY).toISOString();
  const runs = Math.min(600, Math.round(r.logNormal(2, 0.8) * activeDays));
  const successRate = profile === "broken" ? 0 : profile === "washer" ? 0.5 + 0.4 * r.float() : 0.7 + 0.29 * r.float();
  let castCount = 0;
  for (let k = 0; k < runs; k++) {
    const succeeded = r.chance(successRate);
    push(out.runs, {
      agent_id: agentId,
      external_id: `run-${k}`,
      occurred_at: when(),
      outcome: succeeded ? "succeeded" : "failed",
    });
    if (succeeded && r.chance(0.85))
      push(out.casts, {
        agent_id: agentId,
        external_id: `cast-${castCount++}`,
        occurred_at: when(),
        kind: CAST_KINDS.sample(r),
      });
  }
  const fids = ctx.users.lastFid - ctx.users.firstFid + 1;
  const washers = [self.creatorFid, ctx.users.firstFid + r.int(fids), ctx.users.firstFid + r.int(fids)];
  const interactions = Math.min(3000, Math.round(castCount * (profile === "washer" ? 8 : r.logNormal(2.5, 1))));
  for (let k = 0; k < interactions; k++) {
    const counterpart = profile === "washer" ? r.pick(washers) : ctx.users.firstFid + r.int(fids);
    push(out.interactions, {
      agent_id: agentId,
      external_id: `i-${k}`,
      occurred_at: when(),
      counterpart_fid: counterpart,
      kind: INTERACTION_KINDS.sample(r),
    });
  }
}

async function run(ctx: SeedContext) {
  if (!ctx.tokens.count || !ctx.users.count) return;
  const count = agentsFor(ctx.tokens.count);
  const r = ctx.rng;
  const anchor = Math.floor(Date.now() / HOUR) * HOUR;
  const tokenIds = Array.from({ length: count }, (_, i) => ctx.tokens.firstId + ((i * 7919) % ctx.tokens.count));
  const tokens = await ctx.db
    .selectFrom("tokens")
    .select(["id", "chain_id", "contract_address", "name", "symbol"])
    .where("id", "=", sql<number>`ANY(${tokenIds})`)
    .execute();
  const byId = new Map(tokens.map((t) => [t.id, t]));
  const agents = table([
    "id",
    "name",
    "fid",
    "creator_fid",
    "creator_neynar_score",
    "token_chain_id",
    "token_address",
    "token_name",
    "token_symbol",
  ]);
  const out = {
    runs: table(["agent_id", "external_id", "occurred_at", "outcome"]),
    casts: table(["agent_id", "external_id", "occurred_at", "kind"]),
    interactions: table(["agent_id", "external_id", "occurred_at", "counterpart_fid", "kind"]),
  };
  const fids = ctx.users.lastFid - ctx.users.firstFid + 1;
  for (let i = 0; i < count; i++) {
    const token = byId.get(tokenIds[i]);
    if (!token) continue;
    const id = `agent-${String(i + 1).padStart(4, "0")}`;
    const self = { fid: ctx.users.firstFid + r.int(fids), creatorFid: ctx.users.firstFid + r.int(fids) };
    push(agents, {
      id,
      name: `${token.name} Agent`.slice(0, 100),
      fid: self.fid,
      creator_fid: self.creatorFid,
      creator_neynar_score: Math.round((0.2 + 0.8 * r.float()) * 100) / 100,
      token_chain_id: token.chain_id,
      token_address: token.contract_address,
      token_name: token.name,
      token_symbol: token.symbol,
    });
    agentActivity(r.fork(id), id, ctx, anchor, self, out);
  }
  const phase = (name: string, t: Table, types: Record<string, string>) =>
    ctx.insert({
      phase: name,
      table: name,
      total: t.total,
      columns: Object.keys(t.columns).map((c) => [c, types[c] ?? "text"] as const),
      generate: (start, end) => Object.fromEntries(Object.entries(t.columns).map(([k, v]) => [k, v.slice(start, end)])),
    });
  await phase("agents", agents, {
    fid: "int8",
    creator_fid: "int8",
    creator_neynar_score: "float8",
    token_chain_id: "int4",
  });
  await phase("agent_runs", out.runs, { occurred_at: "timestamptz" });
  await phase("agent_casts", out.casts, { occurred_at: "timestamptz" });
  await phase("agent_interactions", out.interactions, { occurred_at: "timestamptz", counterpart_fid: "int8" });
  for (const interval of INTERVALS) await computeLeaderboard(interval, new Date(), ctx.db);
}

export const leaderboardSeeder: DomainSeeder = {
  name: "leaderboard",
  version: 1,
  tables: ["agents", "agent_runs", "agent_casts", "agent_interactions", "agent_scores"],
  run,
};
