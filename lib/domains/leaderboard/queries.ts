// Statements on the leaderboard's tables: agents, their activity (agent_runs, agent_casts,
// agent_interactions) and the ranked snapshots (agent_scores).
import { sql, type Insertable } from "kysely";
import type { Database } from "@/db";
import type {
  AgentCastsTable,
  AgentInteractionsTable,
  AgentRunsTable,
  AgentScoresTable,
  AgentsTable,
  LeaderboardInterval,
} from "@/db/tables/leaderboard";

/** Score rows per insert statement. */
const SCORES_PER_INSERT = 1000;

// --- Agents and activity ---------------------------------------------------------------------------

/** Inserts agents, or replaces the stored fields of known ones. */
export async function upsertAgents(db: Database, rows: Insertable<AgentsTable>[]): Promise<void> {
  await db
    .insertInto("agents")
    .values(rows)
    .onConflict((oc) =>
      oc.column("id").doUpdateSet((eb) => ({
        name: eb.ref("excluded.name"),
        fid: eb.ref("excluded.fid"),
        creator_fid: eb.ref("excluded.creator_fid"),
        creator_neynar_score: eb.ref("excluded.creator_neynar_score"),
        token_chain_id: eb.ref("excluded.token_chain_id"),
        token_address: eb.ref("excluded.token_address"),
        token_name: eb.ref("excluded.token_name"),
        token_symbol: eb.ref("excluded.token_symbol"),
        updated_at: sql`now()`,
      })),
    )
    .execute();
}

/** Those of `ids` that name a stored agent. */
export async function findKnownAgentIds(db: Database, ids: string[]): Promise<string[]> {
  const known = await db.selectFrom("agents").select("id").where("id", "=", sql<string>`ANY(${ids})`).execute();
  return known.map((k) => k.id);
}

/** Runs keyed by (agent, external id): a run sent again replaces the stored one. */
export async function upsertRuns(db: Database, rows: Insertable<AgentRunsTable>[]): Promise<void> {
  await db
    .insertInto("agent_runs")
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(["agent_id", "external_id"])
        .doUpdateSet((eb) => ({ occurred_at: eb.ref("excluded.occurred_at"), outcome: eb.ref("excluded.outcome") })),
    )
    .execute();
}

/** Casts keyed by (agent, external id): a cast sent again replaces the stored one. */
export async function upsertCasts(db: Database, rows: Insertable<AgentCastsTable>[]): Promise<void> {
  await db
    .insertInto("agent_casts")
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(["agent_id", "external_id"])
        .doUpdateSet((eb) => ({ occurred_at: eb.ref("excluded.occurred_at"), kind: eb.ref("excluded.kind") })),
    )
    .execute();
}

/** Interactions keyed by (agent, external id): one sent again replaces the stored one. */
export async function upsertInteractions(db: Database, rows: Insertable<AgentInteractionsTable>[]): Promise<void> {
  await db
    .insertInto("agent_interactions")
    .values(rows)
    .onConflict((oc) =>
      oc.columns(["agent_id", "external_id"]).doUpdateSet((eb) => ({
        occurred_at: eb.ref("excluded.occurred_at"),
        counterpart_fid: eb.ref("excluded.counterpart_fid"),
        kind: eb.ref("excluded.kind"),
      })),
    )
    .execute();
}

// --- Counting activity in (since, until] -----------------------------------------------------------

/** Per agent with runs: how many, how many succeeded, and the last one's time. */
export function countRunsPerAgent(db: Database, since: Date, until: Date) {
  return db
    .selectFrom("agent_runs")
    .select(({ fn }) => ["agent_id", fn.countAll<number>().as("total"), fn.max("occurred_at").as("last")])
    .select(sql<number>`count(*) FILTER (WHERE outcome = 'succeeded')`.as("succeeded"))
    .where("occurred_at", ">", since)
    .where("occurred_at", "<=", until)
    .groupBy("agent_id")
    .execute();
}

/** Per agent with casts: how many of each kind, and the last one's time. */
export function countCastsPerAgent(db: Database, since: Date, until: Date) {
  return db
    .selectFrom("agent_casts")
    .select(({ fn }) => ["agent_id", fn.countAll<number>().as("casts"), fn.max("occurred_at").as("last")])
    .select([
      sql<number>`count(*) FILTER (WHERE kind = 'post')`.as("posts"),
      sql<number>`count(*) FILTER (WHERE kind = 'reply')`.as("replies"),
      sql<number>`count(*) FILTER (WHERE kind = 'quote')`.as("quotes"),
    ])
    .where("occurred_at", ">", since)
    .where("occurred_at", "<=", until)
    .groupBy("agent_id")
    .execute();
}

/**
 * Per agent with interactions: how many, with how many counterparts, how many with its top three
 * counterparts, and how many with itself or its creator.
 */
export async function countInteractionsPerAgent(db: Database, since: Date, until: Date) {
  const { rows } = await sql<{
    agent_id: string;
    interactions: number;
    counterparts: number;
    top3: number;
    self: number;
  }>`
      WITH per AS (
        SELECT agent_id, counterpart_fid, count(*) AS n FROM agent_interactions
        WHERE occurred_at > ${since} AND occurred_at <= ${until} GROUP BY agent_id, counterpart_fid
      ), ranked AS (
        SELECT per.*, row_number() OVER (PARTITION BY agent_id ORDER BY n DESC, counterpart_fid) AS rn FROM per
      )
      SELECT r.agent_id, sum(r.n)::int AS interactions, count(*)::int AS counterparts,
        coalesce(sum(r.n) FILTER (WHERE r.rn <= 3), 0)::int AS top3,
        coalesce(sum(r.n) FILTER (WHERE r.counterpart_fid IN (a.fid, a.creator_fid)), 0)::int AS self
      FROM ranked r JOIN agents a ON a.id = r.agent_id GROUP BY r.agent_id`.execute(db);
  return rows;
}

/** The creator's Neynar score of each of the agents. */
export function findCreatorScores(db: Database, agentIds: string[]) {
  return db
    .selectFrom("agents")
    .select(["id", "creator_neynar_score"])
    .where("id", "=", sql<string>`ANY(${agentIds})`)
    .execute();
}

// --- Snapshots -------------------------------------------------------------------------------------

/** Serializes the replacing of one interval's snapshot (a transaction lock). */
export async function lockIntervalScores(db: Database, interval: LeaderboardInterval): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`leaderboard:${interval}`}))`.execute(db);
}

export async function deleteIntervalScores(db: Database, interval: LeaderboardInterval): Promise<void> {
  await db.deleteFrom("agent_scores").where("interval", "=", interval).execute();
}

/** Inserts the rows SCORES_PER_INSERT per statement. */
export async function insertScores(db: Database, rows: Insertable<AgentScoresTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += SCORES_PER_INSERT) {
    await db
      .insertInto("agent_scores")
      .values(rows.slice(i, i + SCORES_PER_INSERT))
      .execute();
  }
}

/** When the interval's snapshot was computed, or undefined when there is none. */
export async function findSnapshotComputedAt(db: Database, interval: LeaderboardInterval): Promise<Date | undefined> {
  const row = await db
    .selectFrom("agent_scores")
    .select("computed_at")
    .where("interval", "=", interval)
    .limit(1)
    .executeTakeFirst();
  return row?.computed_at;
}

/** Up to `limit` rows of the interval's snapshot after rank `afterRank`, each with its agent's fields. */
export function findRankedAgents(db: Database, interval: LeaderboardInterval, afterRank: number, limit: number) {
  return db
    .selectFrom("agent_scores as s")
    .innerJoin("agents as a", "a.id", "s.agent_id")
    .selectAll("s")
    .select([
      "a.name",
      "a.fid",
      "a.creator_fid",
      "a.creator_neynar_score",
      "a.token_chain_id",
      "a.token_address",
      "a.token_name",
      "a.token_symbol",
    ])
    .where("s.interval", "=", interval)
    .where("s.rank", ">", afterRank)
    .orderBy("s.rank")
    .limit(limit)
    .execute();
}

/** Runs of these agents in [from, from + buckets x bucketSeconds), counted per agent, bucket and outcome. */
export function countRunsPerBucket(
  db: Database,
  agentIds: string[],
  from: Date,
  bucketSeconds: number,
  buckets: number,
) {
  const until = new Date(from.getTime() + bucketSeconds * buckets * 1000);
  return db
    .selectFrom("agent_runs")
    .select([
      "agent_id",
      "outcome",
      sql<number>`floor(extract(epoch FROM occurred_at - ${from}::timestamptz) / ${bucketSeconds})::int`.as("bucket"),
      sql<number>`count(*)::int`.as("runs"),
    ])
    .where("agent_id", "in", agentIds)
    .where("occurred_at", ">=", from)
    .where("occurred_at", "<", until)
    .groupBy(["agent_id", "outcome", "bucket"])
    .execute();
}
