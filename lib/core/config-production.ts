// What a production server cannot start without, beyond valid values: checked once at start-up (lib/http/startup.ts)
// and before production migrations. The variables themselves are config-schema.ts's.
import { type Config, ConfigError, runsJobWorker } from "./config";

export type Requirement = { variable: string; reason: string };

/**
 * What a production server needs beyond valid values (docs/deploy.md "Start-up checks" gives the reasons):
 * `errors` name a feature the deployment relies on that could not work, `warnings` an optional one that is off.
 * Production is NODE_ENV=production on DATABASE_URL or on Vercel; `npm start` on the embedded default is a
 * local demo and needs nothing.
 */
export function productionRequirements(cfg: Config): { errors: Requirement[]; warnings: Requirement[] } {
  const errors: Requirement[] = [];
  const warnings: Requirement[] = [];
  if (cfg.NODE_ENV !== "production" || (cfg.embedded && !cfg.serverless)) return { errors, warnings };
  const need = (variable: string, reason: string) => void errors.push({ variable, reason });
  const warn = (variable: string, reason: string) => void warnings.push({ variable, reason });
  // Vercel runs crons on production deployments only, and a preview may be left without jobs on purpose.
  const vercelProduction = cfg.serverless && cfg.VERCEL_ENV !== "preview";
  const worker = runsJobWorker(cfg);

  if (cfg.serverless && !cfg.DATABASE_URL)
    need("DATABASE_URL", "required on Vercel: the embedded database cannot live in a serverless function");
  if (cfg.serverless && cfg.JOB_WORKER === true)
    need("JOB_WORKER", "must not be true on Vercel: no polling worker can run in a serverless function");

  if (!cfg.QSTASH_TOKEN) {
    if (vercelProduction)
      need(
        "QSTASH_TOKEN",
        "required on Vercel: no worker runs there, so without QStash no job (deploys, indexing, webhooks) would run",
      );
    else if (cfg.serverless)
      warn("QSTASH_TOKEN", "unset on this preview: its jobs (deploys, indexing, webhooks) stay queued");
    else if (!worker)
      warn("QSTASH_TOKEN", "unset and JOB_WORKER=false: jobs stay queued until a worker or QStash runs them");
  } else {
    for (const key of ["QSTASH_CURRENT_SIGNING_KEY", "QSTASH_NEXT_SIGNING_KEY"] as const)
      if (!cfg[key])
        need(
          key,
          "required with QSTASH_TOKEN: deliveries are verified with both keys (after a key rotation QStash signs " +
            "with the next one); without it they would be refused",
        );
    if (!cfg.PUBLIC_BASE_URL)
      need(
        "PUBLIC_BASE_URL",
        "required with QSTASH_TOKEN: QStash delivers jobs to PUBLIC_BASE_URL/api/jobs/<name> (on Vercel it " +
          "defaults to the deployment's URL)",
      );
  }

  if (!cfg.CRON_SECRET) {
    if (vercelProduction)
      need(
        "CRON_SECRET",
        "required on Vercel: the vercel.json crons and the QStash schedules call /api/cron/* with it; without it " +
          "those routes answer 401 and no schedule runs",
      );
    else if (!cfg.serverless && cfg.QSTASH_TOKEN && !worker)
      need(
        "CRON_SECRET",
        "required with QSTASH_TOKEN when no job worker runs: schedules are then enqueued only through /api/cron/*",
      );
  }

  if (!cfg.SESSION_SECRET) {
    if (cfg.ADMIN_SECRET)
      need(
        "SESSION_SECRET",
        "required with ADMIN_SECRET: the admin secret is only exchanged for a session this key signs; without " +
          "it every admin sign-in answers 503",
      );
    else
      warn(
        "SESSION_SECRET",
        "unset: admin sessions are off (POST /api/admin/verify answers 503); ADMIN_FIDS admins can still send " +
          "their user token",
      );
  }
  return { errors, warnings };
}

/** Throws a ConfigError naming each missing variable (one line each, as for a bad value); returns the warnings. */
export function checkProduction(cfg: Config): Requirement[] {
  const { errors, warnings } = productionRequirements(cfg);
  if (errors.length) {
    const lines = errors.map((e) => `  ${e.variable}: ${e.reason}`);
    throw new ConfigError(`incomplete environment for production:\n${lines.join("\n")}`);
  }
  return warnings;
}
