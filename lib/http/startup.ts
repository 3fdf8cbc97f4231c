// What a server process does once Next starts it (instrumentation.ts): check the configuration, answer the
// methods no route serves (TRACE among them), take the client address from the socket where no proxy vouches,
// and run the job worker over every domain's jobs. (instrumentation.ts serves the embedded database in between.)
import { config, ConfigError } from "@/lib/core/config";
import { checkChainSettings } from "@/lib/platform/chain/settings";
import { guardServerRequests } from "./refusals";
import { log } from "@/lib/core/log";
import { startWorker } from "@/lib/platform/jobs/worker";
// Registers every job definition (the platform's runner knows only the names it is given).
import "@/lib/domains/jobs";

export function prepareServerProcess(): void {
  try {
    config();
    // Per-chain variables (RPC_URL_<chainId>, ...) are read by lib/platform/chain/settings.ts, not by config().
    checkChainSettings();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // A bad value stops start-up, naming the variable (the message lists each one).
    console.error(error.message);
    process.exit(1);
  }
  guardServerRequests();
}

/** The worker claims jobs through db(), so it starts after the database is open (and served). */
export function startJobWorker(): void {
  startWorker();
  log.debug("server process started", { pid: process.pid });
}
