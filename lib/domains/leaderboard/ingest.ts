// Writes agents and their activity. Idempotent: a record's id (per agent) is its key, and a record sent
// again replaces the stored one, so a file or job batch can be replayed safely.
import { db } from "@/db";
import { findKnownAgentIds, upsertAgents, upsertCasts, upsertInteractions, upsertRuns } from "./queries";
import type { ActivityRecord, AgentRecord } from "./records";

export class UnknownAgentsError extends Error {
  override readonly name = "UnknownAgentsError";
  constructor(readonly agentIds: string[]) {
    super(
      `unknown agents (send their "agent" record first): ${agentIds.slice(0, 10).join(", ")}${agentIds.length > 10 ? ", …" : ""}`,
    );
  }
}

export type IngestCounts = { agents: number; runs: number; casts: number; interactions: number };

type Of<T extends ActivityRecord["type"]> = Extract<ActivityRecord, { type: T }>;
const ofType = <T extends ActivityRecord["type"]>(records: ActivityRecord[], type: T) =>
  records.filter((r): r is Of<T> => r.type === type);

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
      if (agents.length) await upsertAgents(trx, agents.map(agentRow));
      const referenced = [...new Set([...runs, ...casts, ...interactions].map((r) => r.agentId))];
      if (referenced.length) {
        const known = await findKnownAgentIds(trx, referenced);
        const missing = referenced.filter((id) => !known.includes(id));
        if (missing.length) throw new UnknownAgentsError(missing);
      }
      if (runs.length) {
        await upsertRuns(
          trx,
          runs.map((r) => ({ agent_id: r.agentId, external_id: r.id, occurred_at: r.at, outcome: r.outcome })),
        );
      }
      if (casts.length) {
        await upsertCasts(
          trx,
          casts.map((c) => ({ agent_id: c.agentId, external_id: c.id, occurred_at: c.at, kind: c.kind })),
        );
      }
      if (interactions.length) {
        await upsertInteractions(
          trx,
          interactions.map((i) => ({
            agent_id: i.agentId,
            external_id: i.id,
            occurred_at: i.at,
            counterpart_fid: i.counterpartFid,
            kind: i.kind,
          })),
        );
      }
      return { agents: agents.length, runs: runs.length, casts: casts.length, interactions: interactions.length };
    });
}
