// Token events past STREAM_RETENTION_HOURS go in the daily prune (jobs-prune), with no stream open, and the pruned
// horizon moves past them (a cursor before it gets the stream's `gap` event).
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db } from "@/db";
import { config } from "@/lib/core/config";
import { recordTokenIndexed } from "@/lib/domains/stream/service";
import { comparePositions, findHorizon } from "@/lib/domains/tokens/queries/events";
import { pruneAll } from "@/lib/platform/jobs/retention";
import { insertTokens } from "@/tests/api/tokens/fixtures";
import { jobs } from "@/lib/domains/jobs";

describe("token events retention", () => {
  it("prunes events past the retention in the daily prune, keeps newer ones, and moves the horizon", async () => {
    const [old, recent] = await insertTokens([{}, {}]);
    const oldAt = await recordTokenIndexed(db(), { ...old, chain_id: 8453 });
    await recordTokenIndexed(db(), { ...recent, chain_id: 8453 });
    await db()
      .updateTable("token_events")
      .set({ created_at: new Date(Date.now() - (config().STREAM_RETENTION_HOURS + 1) * 3600 * 1000) })
      .where("contract_address", "=", old.contract_address)
      .execute();
    const result = await pruneAll(jobs.retentions);
    expect(result["token-events"]).toBeGreaterThanOrEqual(1);
    const left = await db()
      .selectFrom("token_events")
      .select("contract_address")
      .where("contract_address", "in", [old.contract_address, recent.contract_address])
      .execute();
    expect(left.map((r) => r.contract_address)).toEqual([recent.contract_address]);
    const horizon = await findHorizon(db());
    expect(horizon).not.toBeNull();
    expect(comparePositions(horizon!, oldAt!)).toBeGreaterThanOrEqual(0);
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM token_event_horizon`.execute(db())).rows[0].n).toBe(
      1,
    );
  });
});
