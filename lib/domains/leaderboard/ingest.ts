// Writes agents and their activity. Idempotent: a record's id (per agent) is its key, and a record sent
// again replaces the stored one, so a file or job batch can be replayed safely.
import { sql } from "kysely";
import { db } from "@/db";
import type { ActivityRecord, AgentRecord } from "./records";

export class UnknownAgentsError extends Error {
  override readonly name = "UnknownAgentsError";
  constructor(readonly agentIds: string[]) {
    super(`unknown agents (send their "agent" record first): ${agentIds.slice(0, 10).join(", ")}${agentIds.length > 10 ? ", …" : ""}`);
  }
}

export type IngestCounts = { agents: number; runs: number; casts: number; interactions: number };

type Of<T extends ActivityRecord["type"]> = Extract<ActivityRecord, { type: T }>;
const ofType = <T extends ActivityRecord["type"]>(records: ActivityRecord[], type: T) => records.filter((r): r is Of<T> => r.type === type);

/** The last record for a key wins: one statement must not touch the same row twice. */
function lastPerKey<T extends { agentId: string }>(records: T[], key: (r: T) => string): T[] {
  return [...new Map(records.map((r) => [`${r.agentId}\u0000${key(r)}`, r])).values()];
}

const agentRow = (a: AgentRecord) => ({
  id: a.agentId,
  name: a.name,
  fid: a.fid,
  creator_fid: a.creatorFid,
  creator_neynar_score: a.creatorNeynarScore,
  token_chain_id: a.token.chainId,
  token_address: a.token.address,
  token_name: a.token.name,
  token_symbol: a.token.symbol,
});

/** Ingests one batch (keep it to a few thousand records) in one transaction: all of it or none. */
export async function ingestRecords(records: ActivityRecord[]): Promise<IngestCounts> {
  const agents = lastPerKey(ofType(records, "agent"), () => "");
  const runs = lastPerKey(ofType(records, "run"), (r) => r.id);
  const casts = lastPerKey(ofType(records, "cast"), (r) => r.id);
  const interactions = lastPerKey(ofType(records, "interaction"), (r) => r.id);
  return db()
    .transaction()
    .execute(async (trx) => {
      if (agents.length) {
        await trx
          .insertInto("agents")
          .values(agents.map(agentRow))
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
      const referenced = [...new Set([...runs, ...casts, ...interactions].map((r) => r.agentId))];
      if (referenced.length) {
        const known = await trx.selectFrom("agents").select("id").where("id", "=", sql<string>`ANY(${referenced})`).execute();
        const missing = referenced.filter((id) => !known.some((k) => k.id === id));
        if (missing.length) throw new UnknownAgentsError(missing);
      }
      if (runs.length) {
        await trx
          .insertInto("agent_runs")
          .values(runs.map((r) => ({ agent_id: r.agentId, external_id: r.id, occurred_at: r.at, outcome: r.outcome })))
          .onConflict((oc) => oc.columns(["agent_id", "external_id"]).doUpdateSet((eb) => ({ occurred_at: eb.ref("excluded.occurred_at"), outcome: eb.ref("excluded.outcome") })))
          .execute();
      }
      if (casts.length) {
        await trx
          .insertInto("agent_casts")
          .values(casts.map((c) => ({ agent_id: c.agentId, external_id: c.id, occurred_at: c.at, kind: c.kind })))
          .onConflict((oc) => oc.columns(["agent_id", "external_id"]).doUpdateSet((eb) => ({ occurred_at: eb.ref("excluded.occurred_at"), kind: eb.ref("excluded.kind") })))
          .execute();
      }
      if (interactions.length) {
        await trx
          .insertInto("agent_interactions")
          .values(interactions.map((i) => ({ agent_id: i.agentId, external_id: i.id, occurred_at: i.at, counterpart_fid: i.counterpartFid, kind: i.kind })))
          .onConflict((oc) =>
            oc.columns(["agent_id", "external_id"]).doUpdateSet((eb) => ({
              occurred_at: eb.ref("excluded.occurred_at"),
              counterpart_fid: eb.ref("excluded.counterpart_fid"),
              kind: eb.ref("excluded.kind"),
            })),
          )
          .execute();
      }
      return { agents: agents.length, runs: runs.length, casts: casts.length, interactions: interactions.length };
    });
}
