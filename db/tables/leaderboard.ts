// Row types of the leaderboard domain's tables (db/migrations/20261122050000_leaderboard.ts).
import type { ColumnType, Generated } from "kysely";

export type LeaderboardInterval = "24h" | "7d" | "30d";

export interface AgentsTable {
  id: string;
  name: string;
  fid: number;
  creator_fid: number;
  creator_neynar_score: ColumnType<number, number | undefined, number>;
  token_chain_id: number;
  token_address: string;
  token_name: string;
  token_symbol: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface AgentRunsTable {
  agent_id: string;
  external_id: string;
  occurred_at: Date;
  outcome: "succeeded" | "failed";
}

export interface AgentCastsTable {
  agent_id: string;
  external_id: string;
  occurred_at: Date;
  kind: "post" | "reply" | "quote" | "recast";
}

export interface AgentInteractionsTable {
  agent_id: string;
  external_id: string;
  occurred_at: Date;
  counterpart_fid: number;
  kind: "like" | "recast" | "reply" | "quote" | "mention" | "follow";
}

export interface AgentScoresTable {
  interval: LeaderboardInterval;
  agent_id: string;
  rank: number;
  composite: number;
  /** JSON: ScoreComponents (lib/domains/leaderboard/scoring.ts). */
  components: ColumnType<Record<string, number>, string, string>;
  wash_confidence: number;
  wash_flags: string[];
  runs_total: number;
  runs_succeeded: number;
  runs_failed: number;
  posts: number;
  replies: number;
  quotes: number;
  casts: number;
  interactions: number;
  last_active_at: Date;
  computed_at: Date;
}

export interface LeaderboardTables {
  agents: AgentsTable;
  agent_runs: AgentRunsTable;
  agent_casts: AgentCastsTable;
  agent_interactions: AgentInteractionsTable;
  agent_scores: AgentScoresTable;
}
