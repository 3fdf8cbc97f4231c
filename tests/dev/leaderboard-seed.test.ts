// The agents' seeder: agents on seeded tokens, activity ending now, every interval scored.
import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@/db";
import { seedDatabase } from "@/dev/seed";
import { agentsFor } from "@/dev/seed/leaderboard";
import { listLeaderboard } from "@/lib/domains/leaderboard/service";

describe("leaderboard seeder", () => {
  // Generous timeout: the whole core dataset is seeded first.
  it("seeds agents with activity and leaves every interval ranked", { timeout: 120_000 }, async () => {
    await seedDatabase({ tokens: 200, seed: "agents" });
    const { rows } = await sql<{ agents: number; runs: number; casts: number; interactions: number; orphans: number }>`
      SELECT (SELECT count(*) FROM agents)::int AS agents,
             (SELECT count(*) FROM agent_runs)::int AS runs,
             (SELECT count(*) FROM agent_casts)::int AS casts,
             (SELECT count(*) FROM agent_interactions)::int AS interactions,
             (SELECT count(*) FROM agents a WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.contract_address = a.token_address))::int AS orphans`.execute(
      db(),
    );
    expect(rows[0].agents).toBe(agentsFor(200));
    expect(rows[0].runs).toBeGreaterThan(rows[0].agents);
    expect(rows[0].casts).toBeGreaterThan(0);
    expect(rows[0].interactions).toBeGreaterThan(0);
    expect(rows[0].orphans).toBe(0);
    for (const interval of ["24h", "7d", "30d"] as const) {
      const page = await listLeaderboard({ interval, limit: 100 }, true);
      expect(page.data.length).toBeGreaterThan(0);
    }
    const month = await listLeaderboard({ interval: "30d", limit: 100 }, true);
    expect(month.data.some((r) => r.score!.washFlags.length > 0)).toBe(true);
  });
});
