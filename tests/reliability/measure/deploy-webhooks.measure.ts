// Deploy latency beside webhook receivers that never answer, for `npm run reliability`: the time from the deploy
// request to `deployed` through the in-process worker (as tests/api/webhooks/isolation.test.ts does), first with no
// subscription, then with 40 whose deliveries hang. Passing: every deploy reaches `deployed`, and the median with
// the black holes is within max(10 s, 5 × the median without), the bound the isolation test holds a deploy to.
// The figures go to RELIABILITY_OUT/webhooks.json, also when the criterion fails.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { startWorker, stopWorker } from "@/lib/platform/jobs/worker";
import { jobs } from "@/lib/domains/jobs";
import { createSubscription } from "@/lib/domains/webhooks/service";
import { partnerKey } from "@/tests/helpers/auth";
import { useTestChain } from "@/tests/helpers/chain";
import { startFakeServer } from "@/tests/helpers/fake-server";
import { deploy, key, partnerIdOf, status, v4Body } from "@/tests/api/deploy/helpers";
import type { WebhookLatency } from "./webhook-latency";

const chain = useTestChain();
const DEPLOYS = 5;
const WARM_UP = 5;
const SUBSCRIPTIONS_PER_PARTNER = 20; // WEBHOOK_MAX_PER_PARTNER's default
const DEPLOY_TIMEOUT_MS = 60_000;
const ENV = { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_TIMEOUT_MS: "30000" };

const median = (xs: (number | null)[]) => {
  if (xs.some((x) => x === null) || !xs.length) return null;
  const sorted = (xs as number[]).slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

let launches = 0;
async function deployAndWait(apiKey: string): Promise<number | null> {
  const requestKey = key(`reliability-${++launches}-${Date.now()}`);
  const started = Date.now();
  const res = await deploy(apiKey, v4Body(chain(), requestKey));
  if (res.status !== 200) throw new Error(`deploy answered ${res.status}: ${res.text}`);
  while (Date.now() - started < DEPLOY_TIMEOUT_MS) {
    if ((await status(apiKey, requestKey)).body.status === "deployed") return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return null;
}

it("measures deploy latency with 0 and with 40 black-hole webhook subscriptions", async () => {
  Object.assign(process.env, ENV);
  resetConfig();
  const acme = await partnerKey("acme");
  await partnerKey("other");
  const blackHole = await startFakeServer(() => ({ hang: true }));
  startWorker(jobs, { force: true, schedules: false, pollMs: 100 });
  const usualMs: (number | null)[] = [];
  const loadedMs: (number | null)[] = [];
  let hangingBefore = 0;
  let hangingAfter = 0;
  let finished = 0;
  try {
    // The first deploys of a process load and compile its modules (the first takes twice as long, the next few still drift down): not the usual time.
    for (let i = 0; i < WARM_UP; i++) await deployAndWait(acme);
    for (let i = 0; i < DEPLOYS; i++) usualMs.push(await deployAndWait(acme));
    for (const partner of ["acme", "other"]) {
      const partnerId = await partnerIdOf(partner);
      for (let i = 0; i < SUBSCRIPTIONS_PER_PARTNER; i++) {
        await createSubscription({ partnerId }, { url: `${blackHole.url}/${partner}/${i}`, events: ["token.created"] });
      }
    }
    // This deploy's token fans out to the 40 subscriptions; the measured deploys run while those attempts hang.
    await deployAndWait(acme);
    const waitUntil = Date.now() + 15_000;
    while (blackHole.requests.length < 4 && Date.now() < waitUntil)
      await new Promise((resolve) => setTimeout(resolve, 25));
    hangingBefore = blackHole.requests.length;
    for (let i = 0; i < DEPLOYS; i++) loadedMs.push(await deployAndWait(acme));
    hangingAfter = blackHole.requests.length;
    // Counted before the receivers close: closing them ends the hanging attempts.
    finished = (await db().selectFrom("webhook_deliveries").select("id").execute()).length;
  } finally {
    const stopping = stopWorker();
    await blackHole.close();
    await stopping;
  }
  const usual = median(usualMs);
  const loaded = median(loadedMs);
  const boundMs = usual === null ? null : Math.max(10_000, 5 * usual);
  const failures: string[] = [];
  if (usual === null || loaded === null)
    failures.push(`a deploy did not reach deployed within ${DEPLOY_TIMEOUT_MS / 1000} s`);
  else if (loaded > boundMs!)
    failures.push(`deploys took ${loaded} ms with the black holes, over max(10 s, 5 × ${usual} ms)`);
  if (hangingBefore < 4)
    failures.push(`only ${hangingBefore} delivery attempts were hanging when the loaded deploys started`);
  if (finished > 0)
    failures.push(
      `${finished} delivery attempt(s) to a black hole ended during the measurement (it would not measure hanging receivers)`,
    );
  const result: WebhookLatency = {
    at: new Date().toISOString(),
    deploys: DEPLOYS,
    subscriptions: 2 * SUBSCRIPTIONS_PER_PARTNER,
    usualMs,
    loadedMs,
    usualMedianMs: usual,
    loadedMedianMs: loaded,
    ratio: usual && loaded !== null ? Math.round((loaded / usual) * 100) / 100 : null,
    boundMs,
    hangingBefore,
    hangingAfter,
    passed: failures.length === 0,
    failures,
  };
  console.info(
    `deploy latency: median ${usual} ms without subscriptions, ${loaded} ms with 40 black holes (ratio ${result.ratio})`,
  );
  const dir = process.env.RELIABILITY_OUT;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "webhooks.json"), JSON.stringify(result, null, 2));
  }
  expect(failures).toEqual([]);
});
