// How the deploy job sends: the deployer's transaction-level lock shared across processes, the nonce from the
// node and the stored transactions in flight, the transaction signed and stored before it is broadcast, and
// a job that crashes or dies at each step. Always exactly one deployment.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { toHex, type Hash } from "viem";
import { db, ownedPglite, type Database } from "@/db";
import { sendDeployToken } from "@/lib/platform/chain";
import { configFromJson } from "@/lib/domains/launch/deploy/stored";
import { deployerLockKey } from "@/lib/domains/launch/deploy/sender";
import { claimDueJobs, executeJob, runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { useTestChain, type TestChain } from "@/tests/helpers/chain";
import { partnerKey } from "@/tests/helpers/auth";
import { deploy, interceptChain, key, status, until, v4Body } from "./helpers";

const chain = useTestChain();
let acme: string;
let restoreChain: (() => void) | undefined;

beforeAll(async () => {
  acme = await partnerKey("acme");
});
beforeEach(async () => {
  for (const table of ["deploy_requests", "deploy_quota", "jobs", "tokens"] as const)
    await db().deleteFrom(table).execute();
});
afterEach(async () => {
  restoreChain?.();
  restoreChain = undefined;
  await rpc(chain(), "evm_setAutomine", [true]);
});

const rpc = (c: TestChain, method: string, params: unknown[] = []) =>
  (c.provider.request as (a: unknown) => Promise<unknown>)({ method, params });
const sentCount = (c: TestChain, blockTag: "latest" | "pending" = "latest") =>
  c.publicClient.getTransactionCount({ address: c.deployment.deployer, blockTag });
const request = () => db().selectFrom("deploy_requests").selectAll().executeTakeFirstOrThrow();
const deployJob = () =>
  db().selectFrom("jobs").selectAll().where("name", "=", "deploy-token").executeTakeFirstOrThrow();
const tokenRows = () => db().selectFrom("tokens").select("contract_address").execute();
const dueNow = () => db().updateTable("jobs").set({ run_at: sql`now()` }).execute();

/** Advisory locks held on the current database, by any connection. */
async function advisoryLocksHeld(): Promise<number> {
  const { rows } = await sql<{ held: number }>`
    SELECT count(*)::int AS held FROM pg_locks
    WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(
    db(),
  );
  return rows[0]!.held;
}

/** Connections of the current database waiting for an advisory lock. */
async function lockWaiters(through: Database): Promise<number> {
  const { rows } = await sql<{ waiting: number }>`
    SELECT count(*)::int AS waiting FROM pg_locks
    WHERE locktype = 'advisory' AND NOT granted
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(through);
  return rows[0]!.waiting;
}

/** A job process that crashes at `eth_sendRawTransaction`, before or after the node got the transaction. */
const crashAtBroadcast = (c: TestChain, after: "before" | "after") =>
  interceptChain(c, async (method, forward) => {
    if (method !== "eth_sendRawTransaction") return forward();
    if (after === "after") await forward();
    throw new Error(`the job process crashed ${after} broadcasting`);
  });

describe("the deployer's lock", () => {
  it("while another process holds it, the job signs and sends nothing; once released, it deploys", async () => {
    const c = chain();
    await deploy(acme, v4Body(c, key("locked")));
    const before = await sentCount(c, "pending");
    const lockKey = deployerLockKey(c.chainId, c.deployment.deployer);
    let job: Promise<unknown> | undefined;
    // Checked through the lock holder's own connection (on PGlite that connection is the whole database).
    await db()
      .connection()
      .execute(async (conn) => {
        await sql`SELECT pg_advisory_lock(hashtext(${lockKey}))`.execute(conn);
        job = runDueJobs(jobs);
        // Until the job is held up: waiting for the lock on PostgreSQL; on PGlite, for the one session this holds.
        const pglite = ownedPglite();
        await until(
          async () => (pglite ? pglite.gate.waiting > 0 : (await lockWaiters(conn)) > 0),
          "the job to wait for the deployer's lock",
        );
        const row = await conn.selectFrom("deploy_requests").select(["signed_tx", "status"]).executeTakeFirstOrThrow();
        expect(row).toEqual({ signed_tx: null, status: "queued" });
        expect(await sentCount(c, "pending")).toBe(before);
        await sql`SELECT pg_advisory_unlock(hashtext(${lockKey}))`.execute(conn);
      });
    expect(await job).toMatchObject([{ status: "done" }]);
    expect(await sentCount(c)).toBe(before + 1);
    expect(await request()).toMatchObject({ status: "deployed", tx_nonce: before });
  });
});

describe("the deployer's lock is a transaction's (works behind a transaction-pooling URL)", () => {
  it("is free again once the signed transaction is committed, before the broadcast; no lock is left after the job", async () => {
    const c = chain();
    await deploy(acme, v4Body(c, key("xact-lock")));
    const lockKey = deployerLockKey(c.chainId, c.deployment.deployer);
    const atBroadcast: Array<{ free: boolean; stored: boolean }> = [];
    restoreChain = interceptChain(c, async (method, forward) => {
      if (method !== "eth_sendRawTransaction") return forward();
      // Another connection (on PGlite: the database, free again) takes the same lock at once.
      const free = await db()
        .transaction()
        .execute(
          async (trx) =>
            (
              await sql<{ taken: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext(${lockKey})) AS taken`.execute(
                trx,
              )
            ).rows[0]!.taken,
        );
      atBroadcast.push({ free, stored: (await request()).signed_tx !== null });
      return forward();
    });
    expect(await runDueJobs(jobs)).toMatchObject([{ status: "done" }]);
    expect(atBroadcast).toEqual([{ free: true, stored: true }]);
    expect(await advisoryLocksHeld()).toBe(0);
  });

  it("an attempt that fails while holding it (signing fails) leaves no lock behind", async () => {
    const c = chain();
    await deploy(acme, v4Body(c, key("xact-lock-failure")));
    restoreChain = interceptChain(c, async (method, forward) => {
      if (method === "eth_estimateGas") throw new Error("the node failed while the lock was held");
      return forward();
    });
    const [outcome] = await runDueJobs(jobs);
    expect(outcome?.status).not.toBe("done");
    expect(await request()).toMatchObject({ status: "queued", signed_tx: null });
    // A session-level lock taken and not released on this path would still be listed here.
    expect(await advisoryLocksHeld()).toBe(0);
  });
});

describe("the nonce", () => {
  it("a node whose pending count lags: two jobs in flight still get distinct nonces, both deployed on the first attempt", async () => {
    const c = chain();
    for (const k of ["stale-1", "stale-2"]) await deploy(acme, v4Body(c, key(k)));
    const stale = await sentCount(c, "pending");
    await rpc(c, "evm_setAutomine", [false]);
    // A load-balanced RPC whose pending count stays where it was before either job sent anything.
    restoreChain = interceptChain(c, (method, forward, params) =>
      method === "eth_getTransactionCount" && params[1] === "pending" ? Promise.resolve(toHex(stale)) : forward(),
    );
    const claimed = await claimDueJobs(jobs, 2);
    expect(claimed).toHaveLength(2);
    const outcomes = Promise.all(claimed.map((job) => executeJob(jobs, job)));
    const submitted = () => db().selectFrom("deploy_requests").select("id").where("status", "=", "submitted").execute();
    await until(async () => (await submitted()).length === 2, "both jobs to broadcast");
    await rpc(c, "evm_mine");
    expect((await outcomes).map((o) => o.status)).toEqual(["done", "done"]);
    const rows = await db().selectFrom("deploy_requests").select(["tx_nonce", "tx_from", "status"]).execute();
    expect(rows.map((r) => r.status)).toEqual(["deployed", "deployed"]);
    expect(rows.map((r) => r.tx_nonce!).sort((a, b) => a - b)).toEqual([stale, stale + 1]);
    expect(rows.map((r) => r.tx_from)).toEqual(Array(2).fill(c.deployment.deployer.toLowerCase()));
    expect(await tokenRows()).toHaveLength(2);
  });
});

describe("sign, store, broadcast", () => {
  it("crash after storing the signed transaction, before broadcasting: the retry broadcasts the stored one", async () => {
    const c = chain();
    await deploy(acme, v4Body(c, key("before-broadcast")));
    const before = await sentCount(c);
    restoreChain = crashAtBroadcast(c, "before");
    expect(await runDueJobs(jobs)).toMatchObject([{ status: "retry" }]);
    const stored = await request();
    expect(stored).toMatchObject({
      status: "queued",
      tx_nonce: before,
      signed_tx: expect.stringMatching(/^0x[0-9a-f]+$/),
    });
    expect(await sentCount(c, "pending")).toBe(before);

    restoreChain();
    await dueNow();
    expect(await runDueJobs(jobs)).toMatchObject([{ status: "done" }]);
    expect(await sentCount(c)).toBe(before + 1);
    expect(await request()).toMatchObject({ status: "deployed", tx_hash: stored.tx_hash });
    expect(await tokenRows()).toHaveLength(1);
  });

  it("crash after broadcasting, before recording it: the retry's broadcast is 'already known', it waits for the same transaction", async () => {
    const c = chain();
    await deploy(acme, v4Body(c, key("after-broadcast")));
    const before = await sentCount(c);
    await rpc(c, "evm_setAutomine", [false]);
    restoreChain = crashAtBroadcast(c, "after");
    expect(await runDueJobs(jobs)).toMatchObject([{ status: "retry" }]);
    const stored = await request();
    expect(stored.status).toBe("queued");
    expect(await sentCount(c, "pending")).toBe(before + 1);

    restoreChain();
    await dueNow();
    const retry = runDueJobs(jobs);
    await until(async () => (await request()).status === "submitted", "the retry to broadcast again");
    await rpc(c, "evm_mine");
    expect(await retry).toMatchObject([{ status: "done" }]);
    expect(await sentCount(c, "pending")).toBe(before + 1);
    expect(await request()).toMatchObject({ status: "deployed", tx_hash: stored.tx_hash });
    expect(await tokenRows()).toHaveLength(1);
  });

  it("crash after broadcasting with the transaction mined meanwhile: the retry adopts its receipt, sends nothing", async () => {
    const c = chain();
    await deploy(acme, v4Body(c, key("mined-meanwhile")));
    const before = await sentCount(c);
    restoreChain = crashAtBroadcast(c, "after");
    expect(await runDueJobs(jobs)).toMatchObject([{ status: "retry" }]);
    expect(await sentCount(c)).toBe(before + 1);
    restoreChain();
    await dueNow();
    expect(await runDueJobs(jobs)).toMatchObject([{ status: "done" }]);
    expect(await sentCount(c, "pending")).toBe(before + 1);
    expect(await tokenRows()).toHaveLength(1);
  });

  it("a stored transaction whose nonce another transaction took is provably dropped: one replacement, one token", async () => {
    const c = chain();
    await deploy(acme, v4Body(c, key("dropped")));
    restoreChain = crashAtBroadcast(c, "before");
    expect(await runDueJobs(jobs)).toMatchObject([{ status: "retry" }]);
    const stored = await request();
    restoreChain();
    // Another sender (a second service with the same key, a person) uses that nonce first.
    await c.publicClient.waitForTransactionReceipt({
      hash: await c.wallet(1).sendTransaction({ to: c.accounts[5]!, value: 1n, nonce: stored.tx_nonce! }),
    });
    await dueNow();
    expect(await runDueJobs(jobs)).toMatchObject([{ status: "done" }]);
    const replaced = await request();
    expect(replaced).toMatchObject({ status: "deployed", tx_nonce: stored.tx_nonce! + 1 });
    expect(replaced.tx_hash).not.toBe(stored.tx_hash);
    expect(await c.publicClient.getTransactionReceipt({ hash: stored.tx_hash as Hash }).catch(() => null)).toBeNull();
    expect(await tokenRows()).toHaveLength(1);
  });
});

describe("a request sent before transactions were stored signed", () => {
  it("with only its hash stored, the job waits for that transaction and signs nothing", async () => {
    const c = chain();
    await deploy(acme, v4Body(c, key("hash-only")));
    await rpc(c, "evm_setAutomine", [false]);
    const before = await sentCount(c);
    const hash = await sendDeployToken(c.chainId, configFromJson((await request()).config));
    await db().updateTable("deploy_requests").set({ status: "submitted", tx_hash: hash.toLowerCase() }).execute();
    const job = runDueJobs(jobs);
    await until(async () => (await deployJob()).attempts === 1, "the job to start");
    await rpc(c, "evm_mine");
    expect(await job).toMatchObject([{ status: "done" }]);
    expect(await sentCount(c, "pending")).toBe(before + 1);
    expect(await request()).toMatchObject({ status: "deployed", tx_hash: hash.toLowerCase(), signed_tx: null });
  });
});

describe("a dead runner", () => {
  it("killed while waiting for the receipt: it does nothing more; the next runner resumes from the stored transaction", async () => {
    const c = chain();
    await deploy(acme, v4Body(c, key("killed")));
    await rpc(c, "evm_setAutomine", [false]);
    const before = await sentCount(c);
    // Runner 1's chain connection: once it is dead, nothing it asks is ever answered.
    let dead = false;
    let waiting = false;
    restoreChain = interceptChain(c, (method, forward) => {
      if (dead) return new Promise(() => {});
      if (method === "eth_getTransactionReceipt" || method === "eth_blockNumber") waiting = true;
      return forward();
    });
    let firstEnded = false;
    void runDueJobs(jobs)
      .catch(() => undefined)
      .finally(() => (firstEnded = true));
    await until(async () => (await request()).status === "submitted" && waiting, "runner 1 to wait for its receipt");
    const { tx_hash: stored } = await request();
    dead = true;
    // Runner 1's lease runs out; runner 2 (its own chain clients) takes the job over.
    restoreChain();
    await db().updateTable("jobs").set({ locked_until: sql`now() - interval '1 second'` }).execute();
    const second = runDueJobs(jobs);
    await until(async () => (await deployJob()).attempts === 2, "the takeover");
    expect(await sentCount(c, "pending")).toBe(before + 1);

    await rpc(c, "evm_mine");
    expect(await second).toMatchObject([{ status: "done" }]);
    expect(firstEnded).toBe(false);
    expect(await deployJob()).toMatchObject({ status: "done", attempts: 2 });
    expect(await sentCount(c, "pending")).toBe(before + 1);
    expect((await status(acme, key("killed"))).body).toMatchObject({ status: "deployed", txHash: stored });
  });
});
