// Deployment under duress: 50 concurrent identical requests (one simulation), concurrent jobs sharing the deployer's nonces,
// and a job whose receipt wait times out. Never a second send (crashes and dead runners: sending.test.ts).
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { claimDueJobs, executeJob, runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { useTestChain, type TestChain } from "@/tests/helpers/chain";
import { partnerKey } from "@/tests/helpers/auth";
import { deploy, drainJobs, interceptChain, key, status, v4Body } from "./helpers";

const chain = useTestChain();
let acme: string;

beforeAll(async () => {
  acme = await partnerKey("acme");
});
beforeEach(async () => {
  for (const table of ["deploy_requests", "deploy_quota", "jobs", "tokens"] as const)
    await db().deleteFrom(table).execute();
});

const rpc = (c: TestChain, method: string, params: unknown[] = []) =>
  (c.provider.request as (a: unknown) => Promise<unknown>)({ method, params });
const sentCount = (c: TestChain, blockTag: "latest" | "pending" = "latest") =>
  c.publicClient.getTransactionCount({ address: c.deployment.deployer, blockTag });

describe("the idempotency race", () => {
  it("50 concurrent identical requests: every answer the same address, one deployment row, one job, one transaction", async () => {
    const c = chain();
    const body = v4Body(c, key("race"));
    const answers = await Promise.all(Array.from({ length: 50 }, () => deploy(acme, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((a) => a.body.expectedAddress)).size).toBe(1);
    expect(await db().selectFrom("deploy_requests").select("id").execute()).toHaveLength(1);
    expect(await db().selectFrom("jobs").select("id").execute()).toHaveLength(1);
    const before = await sentCount(c);
    await drainJobs();
    expect(await sentCount(c)).toBe(before + 1);
    expect((await status(acme, key("race"))).body).toMatchObject({
      status: "deployed",
      expectedAddress: answers[0]!.body.expectedAddress,
    });
  });

  it("concurrent identical requests share one simulation; another body, or a later request, simulates its own", async () => {
    const c = chain();
    let calls = 0;
    // The first simulation is held for three seconds, so the ten requests are all in flight while it runs (each first
    // goes through its key lookup and the partner's rate limit, which on a busy database, or through the neon
    // driver's new connections, can take longer than a simulation on the local chain).
    const restore = interceptChain(c, async (method, forward) => {
      if (method === "eth_call" && ++calls === 1) await new Promise((r) => setTimeout(r, 3000));
      return forward();
    });
    try {
      const body = { ...v4Body(c, key("shared")), dryRun: true };
      const answers = await Promise.all(Array.from({ length: 10 }, () => deploy(acme, body)));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(calls).toBe(1);
      await deploy(acme, body);
      await deploy(acme, { ...v4Body(c, key("shared-other")), dryRun: true });
      expect(calls).toBe(3);
    } finally {
      restore();
    }
  });
});

describe("the deploy job", () => {
  it("jobs running at once: distinct nonces, all deployed", async () => {
    const c = chain();
    const keys = [1, 2, 3, 4, 5].map((i) => key(`parallel-${i}`));
    for (const k of keys) expect((await deploy(acme, v4Body(c, k))).status).toBe(200);
    const before = await sentCount(c);
    const claimed = await claimDueJobs(jobs, 5);
    expect(claimed).toHaveLength(5);
    // Nothing in the process orders the jobs' sends (the job path skips sendDeployToken's queue): only the
    // database lock on the deployer does.
    const outcomes = await Promise.all(claimed.map((job) => executeJob(jobs, job)));
    expect(outcomes.map((o) => o.status)).toEqual(Array(5).fill("done"));
    expect(await sentCount(c)).toBe(before + 5);
    const rows = await db().selectFrom("deploy_requests").select(["tx_nonce", "status"]).execute();
    expect(rows.map((r) => r.status)).toEqual(Array(5).fill("deployed"));
    expect(rows.map((r) => r.tx_nonce!).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4].map((i) => before + i));
  });

  it("a receipt wait that times out leaves the request submitted; the retry waits for the same transaction", async () => {
    const c = chain();
    process.env.DEPLOY_RECEIPT_TIMEOUT_MS = "300";
    resetConfig();
    try {
      await deploy(acme, v4Body(c, key("timeout")));
      await rpc(c, "evm_setAutomine", [false]);
      const before = await sentCount(c);
      expect(await runDueJobs(jobs)).toMatchObject([{ status: "retry" }]);
      const submitted = (await status(acme, key("timeout"))).body;
      expect(submitted).toMatchObject({ status: "submitted", txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      expect(await sentCount(c, "pending")).toBe(before + 1);

      await rpc(c, "evm_mine");
      await db().updateTable("jobs").set({ run_at: sql`now()` }).execute();
      expect(await runDueJobs(jobs)).toMatchObject([{ status: "done" }]);
      expect(await sentCount(c)).toBe(before + 1);
      expect((await status(acme, key("timeout"))).body).toMatchObject({ status: "deployed", txHash: submitted.txHash });
    } finally {
      await rpc(c, "evm_setAutomine", [true]);
      delete process.env.DEPLOY_RECEIPT_TIMEOUT_MS;
      resetConfig();
    }
  });
});
