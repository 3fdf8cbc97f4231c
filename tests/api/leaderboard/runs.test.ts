// GET /api/droid/leaderboard/runs: per-agent run series over a scoring window (the leaderboard page's sparklines).
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/droid/leaderboard/runs/route";
import { computeLeaderboard } from "@/lib/domains/leaderboard/compute";
import { ingestFile } from "@/dev/cli/agents-file";
import { call, expectError } from "@/tests/helpers/http";
import { activity, agent, writeJsonLines } from "@/tests/unit/leaderboard/fixtures";

beforeAll(async () => {
  const records: object[] = [agent(3), ...activity(3, 5), agent(4), ...activity(4, 50)];
  records.push({ type: "run", agentId: "droid-003", id: "failed-1", at: new Date().toISOString(), outcome: "failed" });
  const report = await ingestFile(writeJsonLines(records));
  expect(report.invalid).toEqual([]);
  await computeLeaderboard("7d");
});

const runs = (query: string) => call(GET, `/api/droid/leaderboard/runs${query}`);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("GET /api/droid/leaderboard/runs", () => {
  it("counts each agent's runs per day of the 7d window, in the order asked", async () => {
    const res = await runs("?interval=7d&agentIds=droid-004,droid-003,nobody");
    expect(res.status, res.text).toBe(200);
    expect(res.body.bucketSeconds).toBe(86_400);
    expect(res.body.agents.map((a: any) => a.agentId)).toEqual(["droid-004", "droid-003", "nobody"]);
    const [four, three, nobody] = res.body.agents;
    expect(four.succeeded).toHaveLength(7);
    expect(sum(four.succeeded)).toBe(4);
    expect(sum(three.succeeded)).toBe(3);
    expect(sum(nobody.succeeded) + sum(nobody.failed)).toBe(0);
  });

  it("uses hourly buckets for 24h, ending at now when the interval was never scored", async () => {
    const res = await runs("?interval=24h&agentIds=droid-003");
    expect(res.body.bucketSeconds).toBe(3600);
    expect(res.body.agents[0].succeeded).toHaveLength(24);
    expect(sum(res.body.agents[0].succeeded)).toBe(3);
    expect(sum(res.body.agents[0].failed)).toBe(1);
  });

  it("takes the interval's word in any case, as the leaderboard does", async () => {
    const res = await runs("?interval=24H&agentIds=droid-003");
    expect([res.status, res.body.interval, res.body.bucketSeconds]).toEqual([200, "24h", 3600]);
    expect(expectError(await runs("?interval=1d&agentIds=droid-003"), 400, "invalid_request").error).toContain(
      "must be 24h, 7d or 30d",
    );
  });

  it("refuses a bad agent list", async () => {
    expectError(await runs("?agentIds=a b"), 400, "invalid_request");
    expectError(
      await runs(`?agentIds=${Array.from({ length: 101 }, (_, i) => `a${i}`).join(",")}`),
      400,
      "invalid_request",
    );
    expectError(await runs(""), 400, "invalid_request");
  });
});
