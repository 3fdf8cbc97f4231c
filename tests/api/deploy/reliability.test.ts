// Deployment under duress: 50 concurrent identical requests, concurrent jobs sharing the deployer's nonces,
// a job whose receipt wait times out, and a job killed between send and receipt. Never a second send.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@/db";
import { resetConfig } from "@/lib/config";
import { claimDueJobs, executeJob, runDueJobs } from "@/lib/jobs/runner";
import { useTestChain, type TestChain } from "../../helpers/chain";
import { partnerKey } from "../../helpers/auth";
import { deploy, drainJobs, key, status, v4Body } from "./helpers";

const chain = useTestChain();
let acme: string;

beforeAll(async () => {
  acme = await partnerKey("acme");
});
beforeEach(async () => {
  for (const table of ["deploy_requests", "jobs", "tokens", "rate_limits"] as const) await db().deleteFrom(table).execute();
});

const rpc = (c: TestChain, method: string, params: unknown[] = []) => (c.provider.request as (a: unknown) => Promise<unknown>)({ method, params });
const sentCount = (c: TestChain, blockTag: "latest" | "pending" = "latest") => c.publicClient.getTransactionCount({ address: c.deployment.deployer, blockTag });
const deployJob = () => db().selectFrom("jobs").selectAll().where("name", "=", "deploy-token").executeTakeFirstOrThrow();

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

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
    expect((await status(acme, key("race"))).body).toMatchObject({ status: "deployed", expectedAddress: answers[0]!.body.expectedAddress });
  });
});

describe("the deploy job", () => {
  it("jobs running at once share the deployer: distinct nonces, all deployed", async () => {
    const c = chain();
    const keys = [1, 2, 3, 4, 5].map((i) => key(`parallel-${i}`));
    for (const k of keys) expect((await deploy(acme, v4Body(c, k))).status).toBe(200);
    const before = await sentCount(c);
    const claimed = await claimDueJobs(5);
    expect(claimed).toHaveLength(5);
    const outcomes = await Promise.all(claimed.map((job) => executeJob(job)));
    expect(outcomes.map((o) => o.status)).toEqual(Array(5).fill("done"));
    expect(await sentCount(c)).toBe(before + 5);
    for (const k of keys) expect((await status(acme, k)).body.status).toBe("deployed");
  });

  it("a receipt wait that times out leaves the request submitted; the retry waits for the same transaction", async () => {
    const c = chain();
    process.env.DEPLOY_RECEIPT_TIMEOUT_MS = "300";
    resetConfig();
    try {
      await deploy(acme, v4Body(c, key("timeout")));
      await rpc(c, "evm_setAutomine", [false]);
      const before = await sentCount(c);
      expect(await runDueJobs()).toMatchObject([{ status: "retry" }]);
      const submitted = (await status(acme, key("timeout"))).body;
      expect(submitted).toMatchObject({ status: "submitted", txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      expect(await sentCount(c, "pending")).toBe(before + 1);

      await rpc(c, "evm_mine");
      await db().updateTable("jobs").set({ run_at: sql`now()` }).execute();
      expect(await runDueJobs()).toMatchObject([{ status: "done" }]);
      expect(await sentCount(c)).toBe(before + 1);
      expect((await status(acme, key("timeout"))).body).toMatchObject({ status: "deployed", txHash: submitted.txHash });
    } finally {
      await rpc(c, "evm_setAutomine", [true]);
      delete process.env.DEPLOY_RECEIPT_TIMEOUT_MS;
      resetConfig();
    }
  });

  it("a runner killed between send and receipt: the next runner resumes from the stored hash without a second send", async () => {
    const c = chain();
    await deploy(acme, v4Body(c, key("killed")));
    await rpc(c, "evm_setAutomine", [false]);
    try {
      const before = await sentCount(c);
      // Runner 1 claims the job, sends, stores the hash and waits for a receipt that cannot come yet.
      const first = runDueJobs();
      await until(async () => Boolean((await db().selectFrom("deploy_requests").select("tx_hash").executeTakeFirst())?.tx_hash), "the stored hash");
      const { tx_hash: stored } = await db().selectFrom("deploy_requests").select("tx_hash").executeTakeFirstOrThrow();
      // Runner 1 dies: it stops renewing its lease, the lease runs out, runner 2 takes the job over.
      await db().updateTable("jobs").set({ locked_until: sql`now() - interval '1 second'` }).execute();
      const second = runDueJobs();
      await until(async () => (await deployJob()).attempts === 2, "the takeover");
      expect(await sentCount(c, "pending")).toBe(before + 1);

      await rpc(c, "evm_mine");
      const [, resumed] = await Promise.all([first, second]);
      expect(resumed).toMatchObject([{ status: "done" }]);
      expect(await deployJob()).toMatchObject({ status: "done", attempts: 2 });
      expect(await sentCount(c)).toBe(before + 1);
      expect(await sentCount(c, "pending")).toBe(before + 1);
      expect((await status(acme, key("killed"))).body).toMatchObject({ status: "deployed", txHash: stored });
    } finally {
      await rpc(c, "evm_setAutomine", [true]);
    }
  });
});

