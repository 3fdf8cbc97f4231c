// What /api/health reports: version, whether the database answers, and which backend of each part is active.
// A database that does not answer is a 503 (load balancers take the instance out), not a 200 "degraded".
import { sql } from "kysely";
import { z } from "zod";
import { db } from "@/db";
import { config } from "@/lib/core/config";
// Settings, not the chain layer's entry point: the probe reads the environment only and loads no viem clients or contract artifacts.
import { configuredChainIds } from "./chain/settings";
import { providerUnavailable } from "@/lib/core/errors";
import { workerEnabled } from "./jobs/worker";
import { upstashCredentials } from "./kv";
import { countOpenQuarantinedEvents } from "./quarantine";
import pkg from "@/package.json";

/** Seconds a load balancer or client waits before asking again when the database is down. */
const RETRY_AFTER_SECONDS = 5;

export const healthResponse = z.object({
  status: z.literal("ok"),
  version: z.string(),
  database: z.object({ reachable: z.literal(true), latencyMs: z.number().int() }),
  backends: z.object({
    database: z.enum(["pglite", "postgres", "neon"]),
    cache: z.enum(["upstash", "postgres"]),
    jobs: z
      .enum(["qstash", "local-worker", "qstash+local-worker", "none"])
      .describe(
        "who runs jobs enqueued here: QStash (QSTASH_TOKEN), this process's worker (JOB_WORKER, default on without QStash), both, or neither (another process's worker must)",
      ),
    chain: z.enum(["rpc", "none"]),
    profiles: z.enum(["neynar", "stored"]),
  }),
  quarantinedEvents: z
    .number()
    .int()
    .describe(
      "chain events the indexer set aside and nobody has resolved, counted up to 1000: GET /api/admin/quarantined-events lists them",
    ),
});

type Backends = z.infer<typeof healthResponse>["backends"];

export function activeBackends(): Backends {
  const cfg = config();
  const qstash = Boolean(cfg.QSTASH_TOKEN);
  const worker = workerEnabled();
  return {
    database: cfg.DATABASE_URL ? (cfg.DATABASE_DRIVER === "neon" ? "neon" : "postgres") : "pglite",
    cache: upstashCredentials() ? "upstash" : "postgres",
    jobs: qstash && worker ? "qstash+local-worker" : qstash ? "qstash" : worker ? "local-worker" : "none",
    chain: configuredChainIds().length ? "rpc" : "none",
    profiles: cfg.NEYNAR_API_KEY ? "neynar" : "stored",
  };
}

/** The report, or a 503 provider_unavailable naming the database (and the backends) when it does not answer. */
export async function healthReport(): Promise<z.infer<typeof healthResponse>> {
  const backends = activeBackends();
  const started = Date.now();
  try {
    await sql`SELECT 1`.execute(db());
  } catch {
    const down = { part: "database", reachable: false, message: "the database did not answer", backends };
    throw providerUnavailable("unhealthy: the database did not answer", RETRY_AFTER_SECONDS, [down]);
  }
  return {
    status: "ok",
    version: pkg.version,
    database: { reachable: true, latencyMs: Date.now() - started },
    backends,
    quarantinedEvents: await countOpenQuarantinedEvents(),
  };
}
