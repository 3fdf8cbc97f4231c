// npm run db:migrate: applies pending migrations to the configured database. With --build it is the first step of
// `npm run build`: skipped without DATABASE_URL or with MIGRATE_ON_BUILD=false, and on Vercel it first refuses a
// deployment that lacks what production needs.
import { db } from "@/db";
import { migrateToLatest } from "@/db/migrate";
import { config, isNeonPooledHost, resetConfig } from "@/lib/core/config";
import { checkProduction } from "@/lib/core/config-production";
import { type CliSpec, readCli, runCommand } from "./args";

const cli = {
  command: "npm run db:migrate",
  synopsis: ["[--build]"],
  description:
    "Applies the pending migrations of db/migrations/ to the configured database: DATABASE_URL (through\n" +
    "DATABASE_URL_UNPOOLED when set), else a running service's embedded database, else the embedded one in\n" +
    "DATA_DIR. Safe to run again, and at the same time as another run: one applies, the other waits and finds\n" +
    "nothing left.",
  options: {
    build: {
      type: "boolean",
      description:
        "the first step of `npm run build` (docs/deploy.md): skipped without DATABASE_URL or with MIGRATE_ON_BUILD=false",
    },
  },
} as const satisfies CliSpec;

// `next build` reads the production .env files: its first step reads the same ones.
if (readCli(cli).values.build) (process.env as Record<string, string | undefined>).NODE_ENV ??= "production";

await runCommand(cli, async ({ values }) => {
  if (values.build) {
    const skipped = buildStep();
    if (skipped) {
      console.log(`migrations skipped: ${skipped}`);
      return;
    }
  }
  pointAtDirectConnection();
  const applied = await migrateToLatest(db());
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
});

/** The build's checks; returns why migrating is skipped, or null to migrate. */
function buildStep(): string | null {
  const flag = process.env.MIGRATE_ON_BUILD;
  if (flag && flag !== "true" && flag !== "false")
    throw new Error(`MIGRATE_ON_BUILD must be true or false, not ${flag}`);
  const cfg = config(); // a bad value stops the build here, naming the variable
  // On Vercel a deployment that would refuse to start fails its build instead, before it can go live.
  if (cfg.serverless) for (const w of checkProduction(cfg)) console.warn(`warning: ${w.variable}: ${w.reason}`);
  if (flag === "false") return "MIGRATE_ON_BUILD=false";
  if (!cfg.DATABASE_URL) return "DATABASE_URL is unset (the embedded database is migrated when the service starts)";
  return null;
}

/**
 * Kysely holds a session-level advisory lock across the migrations' transaction; a transaction-mode pooler (Neon's
 * `-pooler` host, PgBouncer) may run each statement on another server connection and leave the lock behind. So
 * the direct URL (DATABASE_URL_UNPOOLED, which Neon's Vercel integration sets), and the longest statement limit:
 * an index build may outlast a request's.
 */
function pointAtDirectConnection(): void {
  if (process.env.DATABASE_URL_UNPOOLED) process.env.DATABASE_URL = process.env.DATABASE_URL_UNPOOLED;
  process.env.STATEMENT_TIMEOUT_MS = "60000";
  resetConfig();
  const url = config().DATABASE_URL;
  if (url && isNeonPooledHost(url))
    throw new Error(
      "DATABASE_URL is Neon's pooled host (-pooler), which cannot hold the migrations' lock: set " +
        "DATABASE_URL_UNPOOLED to the direct connection string (Neon's Vercel integration sets it)",
    );
}
