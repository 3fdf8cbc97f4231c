// Webhook deliveries to receivers that never answer, through the in-process worker: deploys still reach
// `deployed` in their usual time (deliveries have their own lane), one subscription never has two delivery
// attempts in flight, and an attempt to a host that never completes the TCP handshake ends at the connect timeout.
import { connect, type Socket } from "node:net";
import { Worker } from "node:worker_threads";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { startWorker, stopWorker } from "@/lib/platform/jobs/worker";
import { jobs } from "@/lib/domains/jobs";
import { createSubscription, enqueueTokenCreatedWebhooks } from "@/lib/domains/webhooks/service";
import { useTestChain } from "@/tests/helpers/chain";
import { partnerKey } from "@/tests/helpers/auth";
import { startFakeServer, type FakeServer } from "@/tests/helpers/fake-server";
import { deploy, key, partnerIdOf, status, v4Body } from "@/tests/api/deploy/helpers";
import { address, insertTokens } from "@/tests/api/tokens/fixtures";

const chain = useTestChain();
const ENV = { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_TIMEOUT_MS: "30000" };
let acme: string;

beforeAll(async () => {
  Object.assign(process.env, ENV);
  resetConfig();
  acme = await partnerKey("acme");
  await partnerKey("other");
});
afterAll(() => {
  for (const name of Object.keys(ENV)) delete process.env[name];
  resetConfig();
});
afterEach(async () => {
  await stopWorker();
  for (const table of ["webhook_subscriptions", "jobs"] as const) await db().deleteFrom(table).execute();
});

/** Deploys a token through the API and the worker; the milliseconds from the request to `deployed`. */
async function deployAndWait(label: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  const requestKey = key(label);
  const res = await deploy(acme, v4Body(chain(), requestKey));
  expect(res.status, res.text).toBe(200);
  await vi.waitFor(async () => expect((await status(acme, requestKey)).body.status).toBe("deployed"), {
    timeout: timeoutMs,
    interval: 25,
  });
  return Date.now() - started;
}

/** Stops the worker while `receiver` is closed, so that attempts hanging on it end at once. */
async function stopWith(receiver: FakeServer): Promise<void> {
  const stopping = stopWorker();
  await receiver.close();
  await stopping;
}

/**
 * A port whose listener never accepts (its thread is blocked) and whose backlog is full: the kernel drops
 * further SYNs, so a connect stays pending, as to a host that drops packets.
 */
async function unconnectablePort(): Promise<{ url: string; close(): Promise<void> }> {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const listener = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const server = require("node:net").createServer().listen({ port: 0, host: "127.0.0.1", backlog: 1 }, () => {
       parentPort.postMessage(server.address().port);
       Atomics.wait(workerData, 0, 0);
       process.exit(0);
     });`,
    { eval: true, workerData: gate },
  );
  const port = (await new Promise((resolve) => listener.once("message", resolve))) as number;
  const fillers: Socket[] = [];
  for (let i = 0; i < 3; i++) {
    fillers.push(connect({ host: "127.0.0.1", port }).on("error", () => {}));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const s of fillers) s.destroy();
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await listener.terminate();
    },
  };
}

describe("webhook deliveries and the worker's other jobs", () => {
  it("a deploy reaches deployed in its usual time while 40 subscriptions' deliveries hang on receivers that never answer", async () => {
    const blackHole = await startFakeServer(() => ({ hang: true }));
    try {
      for (const partner of ["acme", "other"]) {
        const partnerId = await partnerIdOf(partner);
        for (let i = 0; i < 20; i++)
          await createSubscription(
            { partnerId },
            { url: `${blackHole.url}/${partner}/${i}`, events: ["token.created"] },
          );
      }
      startWorker(jobs, { force: true, schedules: false, pollMs: 100 });
      // No delivery is due yet: this deploy's time is the usual one. Its token fans out to the 40 subscriptions.
      const usual = await deployAndWait("lanes-usual", 20_000);
      await vi.waitFor(() => expect(blackHole.requests.length).toBeGreaterThanOrEqual(4), {
        timeout: 10_000,
        interval: 25,
      });
      const loaded = await deployAndWait("lanes-loaded", Math.max(10_000, 5 * usual));
      console.info(`deploy latency: ${usual} ms usual, ${loaded} ms with 40 black-hole subscriptions`);
      // Every attempt that reached a receiver is still hanging: the deploy did not wait for one to give up.
      expect(await db().selectFrom("webhook_deliveries").select("id").execute()).toEqual([]);
      expect(blackHole.requests.length).toBeGreaterThanOrEqual(4);
    } finally {
      await stopWith(blackHole);
    }
  });

  it("never runs two due deliveries of the same subscription at once", async () => {
    const active = new Map<string, number>();
    const peak = new Map<string, number>();
    let peakAll = 0;
    const receiver = await startFakeServer(async (r) => {
      active.set(r.path, (active.get(r.path) ?? 0) + 1);
      peak.set(r.path, Math.max(peak.get(r.path) ?? 0, active.get(r.path)!));
      peakAll = Math.max(
        peakAll,
        [...active.values()].reduce((a, b) => a + b, 0),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      active.set(r.path, active.get(r.path)! - 1);
      return { status: 204 };
    });
    try {
      const partnerId = await partnerIdOf("acme");
      for (const path of ["/one", "/two"])
        await createSubscription({ partnerId }, { url: `${receiver.url}${path}`, events: ["token.created"] });
      // Three launches: each subscription has three deliveries due at once.
      const tokens = await insertTokens(
        [1, 2, 3].map((n) => ({
          contract_address: address("e", n),
          name: `Busy ${n}`,
          symbol: `BZ${n}`,
          deployed_at: new Date(),
        })),
      );
      for (const t of tokens)
        await enqueueTokenCreatedWebhooks(
          db(),
          await db().selectFrom("tokens").selectAll().where("id", "=", t.id).executeTakeFirstOrThrow(),
        );
      startWorker(jobs, { force: true, schedules: false, pollMs: 50 });
      await vi.waitFor(
        async () => expect(await db().selectFrom("webhook_deliveries").select("id").execute()).toHaveLength(6),
        { timeout: 15_000, interval: 50 },
      );
      expect(Object.fromEntries(peak)).toEqual({ "/one": 1, "/two": 1 });
      expect(peakAll).toBe(2); // one subscription's deliveries do not hold back the other's
    } finally {
      await stopWith(receiver);
    }
  });

  it("ends an attempt that cannot connect after WEBHOOK_CONNECT_TIMEOUT_MS, well before WEBHOOK_TIMEOUT_MS", async () => {
    const target = await unconnectablePort();
    Object.assign(process.env, { WEBHOOK_CONNECT_TIMEOUT_MS: "300", WEBHOOK_TIMEOUT_MS: "15000" });
    resetConfig();
    try {
      await createSubscription(
        { partnerId: await partnerIdOf("acme") },
        { url: `${target.url}/never`, events: ["token.created"] },
      );
      const [t] = await insertTokens([
        { contract_address: address("f", 1), name: "Unreachable", symbol: "UNR", deployed_at: new Date() },
      ]);
      await enqueueTokenCreatedWebhooks(
        db(),
        await db().selectFrom("tokens").selectAll().where("id", "=", t.id).executeTakeFirstOrThrow(),
      );
      const started = Date.now();
      await runDueJobs(jobs);
      expect(Date.now() - started).toBeLessThan(10_000);
      const log = await db().selectFrom("webhook_deliveries").select(["status", "response_code", "error"]).execute();
      expect(log).toEqual([{ status: "failed", response_code: null, error: "could not connect within 300 ms" }]);
    } finally {
      delete process.env.WEBHOOK_CONNECT_TIMEOUT_MS;
      process.env.WEBHOOK_TIMEOUT_MS = ENV.WEBHOOK_TIMEOUT_MS;
      resetConfig();
      await target.close();
    }
  });
});
