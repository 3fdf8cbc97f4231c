// Leaderboard: agents ('droids'), their runs, casts and the interactions they receive, and the scores
// the scoring job computes per interval (a snapshot ranked 1..N, replaced whole on each run).
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE agents (
      id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9._:-]{1,64}$'),
      name text NOT NULL,
      fid bigint NOT NULL CHECK (fid > 0),
      creator_fid bigint NOT NULL CHECK (creator_fid > 0),
      creator_neynar_score double precision NOT NULL DEFAULT 0 CHECK (creator_neynar_score BETWEEN 0 AND 1),
      token_chain_id integer NOT NULL,
      token_address text NOT NULL CHECK (token_address ~ '^0x[0-9a-f]{40}$'),
      token_name text NOT NULL,
      token_symbol text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE agent_runs (
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      external_id text NOT NULL,
      occurred_at timestamptz NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
      PRIMARY KEY (agent_id, external_id)
    );
    CREATE INDEX agent_runs_time ON agent_runs (occurred_at);

    CREATE TABLE agent_casts (
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      external_id text NOT NULL,
      occurred_at timestamptz NOT NULL,
      kind text NOT NULL CHECK (kind IN ('post', 'reply', 'quote', 'recast')),
      PRIMARY KEY (agent_id, external_id)
    );
    CREATE INDEX agent_casts_time ON agent_casts (occurred_at);

    CREATE TABLE agent_interactions (
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      external_id text NOT NULL,
      occurred_at timestamptz NOT NULL,
      counterpart_fid bigint NOT NULL CHECK (counterpart_fid > 0),
      kind text NOT NULL CHECK (kind IN ('like', 'recast', 'reply', 'quote', 'mention', 'follow')),
      PRIMARY KEY (agent_id, external_id)
    );
    CREATE INDEX agent_interactions_time ON agent_interactions (occurred_at);

    CREATE TABLE agent_scores (
      interval text NOT NULL CHECK (interval IN ('24h', '7d', '30d')),
      agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      rank integer NOT NULL CHECK (rank > 0),
      composite double precision NOT NULL,
      components jsonb NOT NULL,
      wash_confidence double precision NOT NULL CHECK (wash_confidence BETWEEN 0 AND 1),
      wash_flags text[] NOT NULL DEFAULT '{}',
      runs_total integer NOT NULL,
      runs_succeeded integer NOT NULL,
      runs_failed integer NOT NULL,
      posts integer NOT NULL,
      replies integer NOT NULL,
      quotes integer NOT NULL,
      casts integer NOT NULL,
      interactions integer NOT NULL,
      last_active_at timestamptz NOT NULL,
      computed_at timestamptz NOT NULL,
      PRIMARY KEY (interval, agent_id)
    );
    CREATE UNIQUE INDEX agent_scores_rank ON agent_scores (interval, rank);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS agent_scores, agent_interactions, agent_casts, agent_runs, agents`.execute(db);
}
