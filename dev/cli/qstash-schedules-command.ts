// `npm run qstash:schedules`: creates or updates the QStash schedules that call a deployment's /api/cron/* paths
// (what vercel.json's daily crons leave out), and deletes that deployment's schedules no longer planned. The entry
// point (dev/cli/qstash-schedules.ts) only runs this with the process's arguments, so tests run it in process.
// `npm run build` ends with it (--build), so a Vercel production deployment keeps its schedules without a hand.
import { Client } from "@upstash/qstash";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type CliArgs, type CliSpec, UsageError } from "./args";
import { config } from "@/lib/core/config";
import { type CronTarget, qstashTargets } from "@/lib/platform/jobs/schedule";

export const QSTASH_SCHEDULES_CLI = {
  command: "npm run qstash:schedules",
  synopsis: ["[--url <https://host>] [--dry-run] [--all | --delete]", "--build"],
  description:
    "Creates or updates one QStash schedule per /api/cron/* path that vercel.json's crons leave out (the outbox\n" +
    "sweep every minute, and every schedule more frequent than daily), each a GET with the CRON_SECRET bearer.\n" +
    "Safe to run again: a schedule's id is the deployment's host and the path's name, so a second run overwrites\n" +
    "the same schedules; any other schedule calling this deployment's /api/cron/ is deleted, so each path is\n" +
    "called once. Schedules calling other URLs are left alone. Reads QSTASH_TOKEN (and QSTASH_URL), CRON_SECRET\n" +
    "and PUBLIC_BASE_URL from the environment and the .env files. `npm run build` runs it with --build.",
  options: {
    url: {
      type: "string",
      value: "https://host",
      description: "the deployment the schedules call (default: PUBLIC_BASE_URL)",
    },
    "dry-run": { type: "boolean", description: "print what would change and change nothing" },
    all: { type: "boolean", description: "schedule the vercel.json crons' paths too (a deployment not on Vercel)" },
    delete: { type: "boolean", description: "delete every schedule that calls this deployment's /api/cron/" },
    build: {
      type: "boolean",
      description:
        "the last step of `npm run build`: on a Vercel production build with QSTASH_TOKEN, does the above; else skips",
    },
  },
} as const satisfies CliSpec;

/** QStash's retries of one cron call: a late retry only enqueues the next bucket's job, which the dedupe key allows. */
export const CRON_CALL_RETRIES = 2;

export type ScheduleChange = {
  action: "create" | "update" | "delete";
  scheduleId: string;
  destination: string;
  cron: string;
};

export type SyncOptions = {
  /** The deployment's origin (scheme and host, a path prefix at most). */
  base: string;
  qstashUrl: string;
  token: string;
  cronSecret: string;
  /** The paths to schedule; every other schedule calling `base`/api/cron/ is deleted. */
  targets: readonly CronTarget[];
  dryRun?: boolean;
};

/** The schedule id of a path on a deployment: stable across runs, distinct per deployment sharing one account. */
export function scheduleIdOf(base: string, name: string): string {
  const host = base
    .replace(/^https?:\/\//, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${host}--${name}`;
}

/** Makes QStash's schedules for `base` exactly `targets`; returns what changed (or would, on a dry run). */
export async function syncQStashSchedules(options: SyncOptions): Promise<ScheduleChange[]> {
  const base = options.base.replace(/\/+$/, "");
  const client = new Client({
    baseUrl: options.qstashUrl,
    token: options.token,
    // devMode false: QSTASH_DEV would make the SDK download and start a binary.
    devMode: false,
    enableTelemetry: false,
    retry: { retries: 2, backoff: (n) => 200 * 2 ** n },
  });
  const existing = await client.schedules.list();
  const planned = options.targets.map((t) => ({
    scheduleId: scheduleIdOf(base, t.name),
    destination: `${base}${t.path}`,
    cron: t.cron,
  }));
  const changes: ScheduleChange[] = [];
  for (const schedule of planned) {
    const action = existing.some((s) => s.scheduleId === schedule.scheduleId) ? "update" : "create";
    if (!options.dryRun)
      await client.schedules.create({
        ...schedule,
        method: "GET",
        headers: { Authorization: `Bearer ${options.cronSecret}` },
        retries: CRON_CALL_RETRIES,
        // The bearer stays out of QStash's logs and console.
        redact: { header: ["Authorization"] },
      });
    changes.push({ action, ...schedule });
  }
  const ours = existing.filter((s) => s.destination.startsWith(`${base}/api/cron/`));
  for (const stale of ours.filter((s) => !planned.some((p) => p.scheduleId === s.scheduleId))) {
    if (!options.dryRun) await client.schedules.delete(stale.scheduleId);
    changes.push({ action: "delete", scheduleId: stale.scheduleId, destination: stale.destination, cron: stale.cron });
  }
  return changes;
}

/** The crons Vercel runs for this repository (vercel.json at its root). */
export function vercelCrons(): { path: string; schedule: string }[] {
  const file = fileURLToPath(new URL("../../vercel.json", import.meta.url));
  return (JSON.parse(readFileSync(file, "utf8")).crons ?? []) as { path: string; schedule: string }[];
}

/**
 * Why the build leaves the schedules alone, or null to reconcile them. Only a Vercel production build does: it
 * owns the production host's schedules; a preview's would call production, and elsewhere a worker enqueues them
 * (or the operator runs the command).
 */
function buildSkip(cfg: ReturnType<typeof config>): string | null {
  if (!cfg.serverless || cfg.VERCEL_ENV !== "production")
    return "not a Vercel production build (elsewhere: npm run qstash:schedules)";
  if (!cfg.QSTASH_TOKEN) return "QSTASH_TOKEN is unset";
  return null;
}

/** Runs the command on parsed arguments; prints one line per change and a summary, and returns the changes. */
export async function qstashSchedulesCommand(args: CliArgs<typeof QSTASH_SCHEDULES_CLI>): Promise<ScheduleChange[]> {
  const { url, all, delete: remove, "dry-run": dryRun, build } = args.values;
  if (all && remove) throw new UsageError(QSTASH_SCHEDULES_CLI, "--all and --delete exclude each other");
  if (build && (url || all || remove || dryRun))
    throw new UsageError(QSTASH_SCHEDULES_CLI, "--build takes no other option");
  // The domains read config() as they load, so the server's jobs are loaded after the .env files are.
  const { jobs } = await import("@/lib/domains/jobs");
  const cfg = config();
  const skipped = build ? buildSkip(cfg) : null;
  if (skipped) {
    console.log(`qstash schedules skipped: ${skipped}`);
    return [];
  }
  const base = url ?? cfg.PUBLIC_BASE_URL;
  if (!base)
    throw new UsageError(
      QSTASH_SCHEDULES_CLI,
      "no deployment to call: set PUBLIC_BASE_URL or pass --url (the production URL)",
    );
  if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(base))
    throw new UsageError(QSTASH_SCHEDULES_CLI, `--url must be an http(s) URL without query, not ${base}`);
  if (!cfg.QSTASH_TOKEN) throw new Error("QSTASH_TOKEN is not set: the schedules are created with it");
  if (!cfg.CRON_SECRET && !remove)
    throw new Error("CRON_SECRET is not set: the schedules send it, and /api/cron/* answers 401 without it");
  const changes = await syncQStashSchedules({
    base,
    qstashUrl: cfg.QSTASH_URL,
    token: cfg.QSTASH_TOKEN,
    cronSecret: cfg.CRON_SECRET ?? "",
    targets: remove ? [] : qstashTargets(jobs, all ? [] : vercelCrons()),
    dryRun,
  });
  const verb = { create: "created", update: "updated", delete: "deleted" } as const;
  for (const c of changes)
    console.log(
      `${(dryRun ? `would be ${verb[c.action]}` : verb[c.action]).padEnd(16)} ${c.cron.padEnd(13)} GET ${c.destination}`,
    );
  const count = (action: ScheduleChange["action"]) => changes.filter((c) => c.action === action).length;
  console.log(
    `${count("create")} created, ${count("update")} updated, ${count("delete")} deleted on ${cfg.QSTASH_URL}` +
      (dryRun ? " (dry run: nothing changed)" : ""),
  );
  return changes;
}
