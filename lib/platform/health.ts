// What /api/health reports: version, whether the database answers, which backend of each part is active, and whether
// the background work keeps up ("degraded", with reasons). A database that does not answer is a 503 (load balancers
// take the instance out), not a 200 "degraded". Everything here reads the database only: no chain, no QStash.
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
import type { JobRegistry } from "./jobs/registry";
import { countRecentUnseenFailures, findSilentSchedules, findStaleJobs } from "./jobs/watch";
import pkg from "@/package.json";

/** Seconds a load balancer or client waits before asking again when the database is down. */
const RETRY_AFTER_SECONDS = 5;

export const degradedReasonCodes = ["indexer_lagging", "schedule_missing", "job_failed", "quarantined_events"] as const;
export type DegradedReason = { code: (typeof degradedReasonCodes)[number]; message: string };

export const healthResponse = z.object({
  status: z
    .enum(["ok", "degraded"])
    .describe("degraded: the service answers but its background work does not keep up (see reasons)"),
  reasons: z
    .array(
      z.object({
        code: z.enum(degradedReasonCodes),
        message: z.string(),
      }),
    )
    .meta({
      description:
        "why the status is degraded, one entry per reason; empty when ok (docs/operating.md explains each code)",
      examples: [[]],
    }),
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

export type HealthOptions = {
  /** The jobs the server runs: each of their schedules must have enqueued lately. */
  jobs: JobRegistry;
  /** The indexers' job names: each must have succeeded within INDEXER_MAX_LAG_MINUTES. */
  indexers?: readonly string[];
};

/** Why the service is degraded, from the database only: the indexers' last runs, silent schedules, failed jobs. */
export async function degradedReasons(options: HealthOptions, quarantinedEvents: number): Promise<DegradedReason[]> {
  const maxLagMinutes = config().INDEXER_MAX_LAG_MINUTES;
  const [stale, silent, failed] = await Promise.all([
    findStaleJobs(options.indexers ?? [], maxLagMinutes * 60_000),
    findSilentSchedules(options.jobs),
    countRecentUnseenFailures(),
  ]);
  const reasons: DegradedReason[] = [];
  if (stale.length)
    reasons.push({
      code: "indexer_lagging",
      message: `no successful run of ${stale.join(", ")} in the last ${maxLagMinutes} minutes`,
    });
  if (silent.length)
    reasons.push({ code: "schedule_missing", message: `no run enqueued lately by the schedules ${silent.join(", ")}` });
  if (failed)
    reasons.push({
      code: "job_failed",
      message: `jobs failed for good in the last day, not seen yet: ${failed} (GET /api/admin/status lists them)`,
    });
  if (quarantinedEvents)
    reasons.push({
      code: "quarantined_events",
      message: `open set-aside chain events: ${quarantinedEvents} (GET /api/admin/quarantined-events lists them)`,
    });
  return reasons;
}

/** The report, or a 503 provider_unavailable naming the database (and the backends) when it does not answer. */
export async function healthReport(options: HealthOptions): Promise<z.infer<typeof healthResponse>> {
  const backends = activeBackends();
  const started = Date.now();
  try {
    await sql`SELECT 1`.execute(db());
  } catch {
    const down = { part: "database", reachable: false, message: "the database did not answer", backends };
    throw providerUnavailable("unhealthy: the database did not answer", RETRY_AFTER_SECONDS, [down]);
  }
  const latencyMs = Date.now() - started;
  const quarantinedEvents = await countOpenQuarantinedEvents();
  const reasons = await degradedReasons(options, quarantinedEvents);
  return {
    status: reasons.length ? "degraded" : "ok",
    reasons,
    version: pkg.version,
    database: { reachable: true, latencyMs },
    backends,
    quarantinedEvents,
  };
}
