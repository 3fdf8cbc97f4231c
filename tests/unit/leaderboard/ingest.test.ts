// Feeding the leaderboard: the JSON-lines file ingest, the ingest job, replays, and the scoring job.
import { describe, expect, it } from "vitest";
import { db } from "@/db";
import { ingestFile } from "@/dev/cli/agents-file";
import { ingestAgentActivityJob, scoreLeaderboardJob } from "@/lib/domains/leaderboard/jobs";
import { computeLeaderboard } from "@/lib/domains/leaderboard/compute";
import { enqueue } from "@/lib/platform/jobs/define";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { enqueueDueSchedules } from "@/lib/platform/jobs/schedule";
import { activity, agent, hoursAgo, writeJsonLines } from "./fixtures";

const count = async (table: "agents" | "agent_runs" | "agent_casts" | "agent_interactions") =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select(({ fn }) => fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("ingestFile", () => {
  it("writes nothing when a line is invalid, and names the lines", async () => {
    const file = writeJsonLines([
      agent(1),
      ...activity(1),
      { type: "run", agentId: "droid-001", id: "bad", at: "yesterday", outcome: "succeeded" },
      {
        type: "cast",
        agentId: "droid-001",
        id: "future",
        at: new Date(Date.now() + 86_400_000).toISOString(),
        kind: "post",
      },
      { type: "unknown" },
    ]);
    const report = await ingestFile(file);
    expect(report.invalid.map((i) => i.error)).toEqual([
      expect.stringContaining("at"),
      expect.stringContaining("must not be in the future"),
      expect.stringContaining("type"),
    ]);
    expect(await count("agents")).toBe(0);
    expect(await count("agent_runs")).toBe(0);
  });

  it("ingests valid lines with skipInvalid, agents first wherever they appear in the file", async () => {
    const file = writeJsonLines(
      [...activity(2), "not json" as unknown as object, agent(2)].map((r) => r),
      "mixed",
    );
    const report = await ingestFile(file, { skipInvalid: true, batchSize: 3 });
    expect(report.invalid).toHaveLength(1);
    expect(report).toMatchObject({ agents: 1, runs: 2, casts: 2, interactions: 6 });
  });

  it("is idempotent: the same file twice stores each record once, and a replay updates it", async () => {
    const records = [agent(3), ...activity(3)];
    await ingestFile(writeJsonLines(records));
    const before = await count("agent_interactions");
    await ingestFile(writeJsonLines(records));
    expect(await count("agent_interactions")).toBe(before);
    await ingestFile(
      writeJsonLines([
        agent(3, { name: "Renamed" }),
        { type: "run", agentId: "droid-003", id: "run-0", at: hoursAgo(1), outcome: "failed" },
      ]),
    );
    const row = await db().selectFrom("agents").select("name").where("id", "=", "droid-003").executeTakeFirstOrThrow();
    expect(row.name).toBe("Renamed");
    const run = await db()
      .selectFrom("agent_runs")
      .select("outcome")
      .where("agent_id", "=", "droid-003")
      .where("external_id", "=", "run-0")
      .executeTakeFirstOrThrow();
    expect(run.outcome).toBe("failed");
  });

  it("refuses activity of an unknown agent", async () => {
    const file = writeJsonLines([{ type: "run", agentId: "ghost", id: "r", at: hoursAgo(1), outcome: "succeeded" }]);
    await expect(ingestFile(file)).rejects.toThrow(/unknown agents.*ghost/);
  });
});

describe("jobs", () => {
  it("ingests a queued batch and scores it on the schedule", async () => {
    await enqueue(ingestAgentActivityJob, { records: [agent(4), ...activity(4)] as never });
    const outcomes = await runDueJobs(jobs);
    expect(outcomes.map((o) => o.status)).toEqual(["done"]);
    expect([...jobs.schedules.values()].map((s) => s.name)).toEqual(
      expect.arrayContaining(["leaderboard-score-24h", "leaderboard-score-7d", "leaderboard-score-30d"]),
    );
    expect(await enqueueDueSchedules(jobs, new Date(), ["leaderboard-score-24h"])).toBe(1);
    expect((await runDueJobs(jobs)).map((o) => o.status)).toEqual(["done"]);
    const rows = await db()
      .selectFrom("agent_scores")
      .select(["agent_id", "rank"])
      .where("interval", "=", "24h")
      .orderBy("rank")
      .execute();
    expect(rows.map((r) => r.agent_id)).toContain("droid-004");
  });

  it("queues activity batches with enqueue and leaves a queued batch of unknown agents to retry", async () => {
    const report = await ingestFile(writeJsonLines([agent(5), ...activity(5)]), { enqueue: true, batchSize: 4 });
    expect(report.jobs).toBe(Math.ceil(activity(5).length / 4));
    expect((await runDueJobs(jobs, 50)).every((o) => o.status === "done")).toBe(true);
    await enqueue(ingestAgentActivityJob, {
      records: [{ type: "cast", agentId: "nobody", id: "c", at: hoursAgo(1), kind: "post" }] as never,
    });
    expect((await runDueJobs(jobs)).map((o) => o.status)).toEqual(["retry"]);
  });

  it("refuses a bad interval in a scoring payload", () => {
    expect(() => scoreLeaderboardJob.schema.parse({ interval: "1y" })).toThrow();
  });
});

describe("computeLeaderboard", () => {
  it("ranks only agents active in the interval and replaces the previous snapshot", async () => {
    await ingestFile(writeJsonLines([agent(6), ...activity(6, 72)]));
    const day = await computeLeaderboard("24h");
    const week = await computeLeaderboard("7d");
    const ids = async (interval: "24h" | "7d") =>
      (await db().selectFrom("agent_scores").select("agent_id").where("interval", "=", interval).execute()).map(
        (r) => r.agent_id,
      );
    expect(await ids("24h")).not.toContain("droid-006");
    expect(await ids("7d")).toContain("droid-006");
    expect(week.agents).toBe(day.agents + 1);
    await computeLeaderboard("24h");
    expect((await ids("24h")).length).toBe(day.agents);
  });
});
