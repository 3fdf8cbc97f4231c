// What a server process does once Next starts it (instrumentation.ts): check the configuration (and what production
// needs), answer the methods no route serves (TRACE among them), take the client address from the socket where no
// proxy vouches, and run the job worker over every domain's jobs. (instrumentation.ts serves the embedded database
// in between.)
import { config, ConfigError } from "@/lib/core/config";
import { checkProduction } from "@/lib/core/config-production";
import { checkChainSettings } from "@/lib/platform/chain/settings";
import { guardServerRequests } from "./refusals";
import { log } from "@/lib/core/log";
import { startWorker } from "@/lib/platform/jobs/worker";
import { startHeadFollower } from "@/lib/domains/launch/indexer/head";
import { jobs } from "@/lib/domains/jobs";

export function prepareServerProcess(): void {
  try {
    checkServerConfiguration();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // A bad value, or a variable production cannot do without, stops start-up naming it (one line each).
    console.error(error.message);
    process.exit(1);
  }
  guardServerRequests();
}

/**
 * Throws a ConfigError for a bad value or a variable a production server needs (lib/core/config-production.ts
 * productionRequirements); logs the optional features that are off. `next build` is not a start: it skips them.
 */
export function checkServerConfiguration(): void {
  const cfg = config();
  // Per-chain variables (RPC_URL_<chainId>, ...) are read by lib/platform/chain/settings.ts, not by config().
  checkChainSettings();
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  for (const { variable, reason } of checkProduction(cfg)) log.warn(`${variable}: ${reason}`, { variable });
}

/** The worker claims jobs through db(), so it starts after the database is open (and served). */
export function startJobWorker(): void {
  // Where the worker runs (self-hosted), the head follower runs beside it; on Vercel the follow-head job follows.
  if (startWorker(jobs)) startHeadFollower();
  log.debug("server process started", { pid: process.pid });
}
