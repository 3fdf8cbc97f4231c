// npm run bench -- --tokens N [--seed S] [--scenarios a,b] [--duration 10] [--rounds 5] [--connections 1,10] [--warmup 2]
//                   [--no-build] [--no-profile] [--profile-setup]
//               or: npm run bench -- --report-only
// Builds, prepares the seeded bench database, starts `next start`, and measures every scenario beside its
// framework floor (GET /api/ping) and database floor (its SQL straight through pg), all in the same run:
// the three take turns in rounds, so a machine that slows down or speeds up over a minute weighs on all
// three alike instead of on whichever was measured then. Each scenario is measured at every level of
// concurrency, then profiled (the server's CPU under its requests). A run of every scenario rewrites
// docs/BENCH.md; --report-only rewrites it from the newest stored run of every scenario, measuring nothing.
import { execSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { type CliSpec, readCli, refuse } from "@/dev/cli/args";
import type { AirdropChain } from "@/tests/helpers/airdrop-chain";
import { httpLoad, loopLoad, Samples, stopLoad } from "./load";
import { type ProfileSummary, summariseProfile } from "./profile/summary";
import {
  type LevelResult,
  overheadOf,
  keptSections,
  renderDocument,
  renderFailures,
  renderMetrics,
  renderTable,
  type RunInfo,
  type ScenarioResult,
} from "./report";
import type { BenchContext, BenchRequest, BenchScenario, ExtraFloor, SqlRequest } from "./scenarios/types";
import { buildIsPresent, freePort, nextBuild, startServer, type RunningServer } from "./server";

const here = import.meta.dirname;
const DOCUMENT = path.resolve(here, "../../docs/BENCH.md");
const cli = {
  command: "npm run bench",
  synopsis: [
    "[--tokens N] [--seed S] [--scenarios a,b] [--duration 10] [--rounds 5] [--connections 1,10] [--warmup 2]",
    "[--no-build] [--no-profile] [--profile-setup]",
    "--report-only",
  ],
  description:
    "Builds, prepares the seeded bench database (BENCH_DATABASE_URL), starts `next start` and measures every\n" +
    "scenario beside its framework floor (GET /api/ping) and database floor, taking turns in rounds, at each\n" +
    "level of concurrency, then profiles the server under it. Results in tests/bench/results/; a run of every\n" +
    "scenario also rewrites docs/BENCH.md.",
  options: {
    tokens: { type: "string", value: "N", description: "the dataset's tokens, 0..10000000 (default 100000)" },
    seed: { type: "string", value: "S", description: "the dataset's seed (default 1)" },
    scenarios: {
      type: "string",
      value: "a,b",
      description: "only these scenarios; `name*` matches a prefix (default: every one)",
    },
    duration: {
      type: "string",
      value: "s",
      description: "seconds per measurement, split over the rounds (default 10)",
    },
    rounds: { type: "string", value: "n", description: "rounds per scenario, 1..100 (default 5)" },
    connections: {
      type: "string",
      value: "n,m",
      description: "levels of concurrent connections, each 1..200 (default 1,10)",
    },
    warmup: { type: "string", value: "s", description: "warm-up seconds per measurement, 0..60 (default 2)" },
    "no-build": { type: "boolean", description: "use the build already in .next" },
    "no-profile": { type: "boolean", description: "skip the CPU profile of each scenario" },
    "profile-setup": {
      type: "boolean",
      description: "also profile each setup (the tree uploads), whose save times are then taken under the profiler",
    },
    "report-only": {
      type: "boolean",
      description: "only rewrite docs/BENCH.md from the newest run of every scenario in tests/bench/results/",
    },
  },
} as const satisfies CliSpec;

function options() {
  const { values } = readCli(cli);
  const int = (name: "tokens" | "duration" | "rounds" | "warmup", fallback: number, min: number, max: number) => {
    const value = values[name] === undefined ? fallback : Number(values[name]);
    if (!Number.isInteger(value) || value < min || value > max)
      refuse(cli, `--${name} must be an integer ${min}..${max}`);
    return value;
  };
  return {
    tokens: int("tokens", 100_000, 0, 10_000_000),
    seed: values.seed ?? "1",
    scenarios: (values.scenarios ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    durationSeconds: int("duration", 10, 1, 600),
    rounds: int("rounds", 5, 1, 100),
    connections: connectionLevels(values.connections ?? "1,10"),
    warmupSeconds: int("warmup", 2, 0, 60),
    build: values["no-build"] !== true,
    profile: values["no-profile"] !== true,
    profileSetup: values["profile-setup"] === true,
    reportOnly: values["report-only"] === true,
  };
}

function connectionLevels(text: string): number[] {
  const levels = text.split(",").map((v) => Number(v.trim()));
  if (!levels.length || levels.some((n) => !Number.isInteger(n) || n < 1 || n > 200))
    refuse(cli, "--connections must be integers 1..200, separated by commas");
  return [...new Set(levels)].sort((a, b) => a - b);
}

async function loadScenarios(wanted: string[]): Promise<BenchScenario[]> {
  const dir = path.join(here, "scenarios");
  const all: BenchScenario[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && f !== "types.ts" && !f.startsWith("_"))
    .sort()) {
    const mod = await import(pathToFileURL(path.join(dir, file)).href);
    const exported = mod.default as BenchScenario | BenchScenario[] | undefined;
    if (!exported) throw new Error(`tests/bench/scenarios/${file} has no default export`);
    all.push(...(Array.isArray(exported) ? exported : [exported]));
  }
  if (wanted.length === 0) return all;
  const matches = (name: string, pattern: string) =>
    pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
  const unknown = wanted.filter((w) => !all.some((s) => matches(s.name, w)));
  if (unknown.length)
    throw new Error(`unknown scenarios: ${unknown.join(", ")}; known: ${all.map((s) => s.name).join(", ")}`);
  return all.filter((s) => wanted.some((w) => matches(s.name, w)));
}

/** Per-round figures of one scenario and, merged over the rounds, its three measurements. */
class Rounds {
  readonly fw = new Samples();
  readonly http = new Samples();
  readonly db = new Samples();
  readonly overheads: number[] = [];
  add(fw: Samples, http: Samples, db: Samples | undefined) {
    this.overheads.push(overheadOf(http.stats(), fw.stats(), db?.stats()));
    this.fw.merge(fw);
    this.http.merge(http);
    if (db) this.db.merge(db);
  }
}

type Measure = {
  durationSeconds: number;
  rounds: number;
  warmupSeconds: number;
  profileSeconds: number;
  /** also profile the setup (a tree upload); its save time is then measured under the profiler */
  profileSetup: boolean;
};

/** One level of concurrency: warm-up, then the rounds, then the extra floors. */
async function measureLevel(
  ctx: BenchContext,
  work: { requests: BenchRequest[]; sqlRequests: SqlRequest[]; sqlPool: pg.Pool; floors: ExtraFloor[] },
  connections: number,
  m: Measure,
  say: (what: string) => void,
): Promise<LevelResult> {
  const { requests, sqlRequests, sqlPool } = work;
  const ping = [{ path: "/api/ping" }];
  const sqlRun = async (_w: number, i: number) => {
    const client = await sqlPool.connect();
    try {
      for (const [first, ...beside] of sqlRequests[i % sqlRequests.length]) {
        const sent = client.query(first.text, first.values);
        if (first.queued) sent.catch(() => {}); // the next round (or the release) follows it on the client
        await Promise.all([first.queued ? undefined : sent, ...beside.map((q) => sqlPool.query(q.text, q.values))]);
      }
    } finally {
      client.release();
    }
  };
  const withDb = sqlRequests.length > 0;
  say(`${connections} connection(s): warm-up`);
  if (m.warmupSeconds) {
    const warmup = { connections, durationSeconds: m.warmupSeconds };
    await httpLoad(ctx.baseUrl, ping, warmup);
    await httpLoad(ctx.baseUrl, requests, warmup);
    if (withDb) await loopLoad(sqlRun, warmup);
  }
  const round = { connections, durationSeconds: m.durationSeconds / m.rounds };
  const rounds = new Rounds();
  for (let r = 1; r <= m.rounds; r++) {
    say(
      `${connections} connection(s), round ${r}/${m.rounds}: framework floor, endpoint${withDb ? ", database floor" : ""}`,
    );
    const fw = await httpLoad(ctx.baseUrl, ping, round);
    const http = await httpLoad(ctx.baseUrl, requests, round);
    rounds.add(fw, http, withDb ? await loopLoad(sqlRun, round) : undefined);
  }
  const level: LevelResult = {
    connections,
    frameworkFloor: rounds.fw.stats(),
    http: rounds.http.stats(),
    ...(withDb ? { dbFloor: rounds.db.stats() } : {}),
    roundOverheadsP50: rounds.overheads,
    extraFloors: [],
  };
  level.overheadP50 = overheadOf(level.http!, level.frameworkFloor!, level.dbFloor);
  for (const floor of work.floors) {
    say(`${connections} connection(s), floor ${floor.name}`);
    const load = { connections, durationSeconds: m.durationSeconds };
    level.extraFloors.push({ name: floor.name, ...(await loopLoad(() => floor.run(), load)).stats() });
  }
  return level;
}

/**
 * The server's CPU profile while `work` runs (SIGUSR2 to tests/bench/profile/preload.cjs starts and stops it):
 * the profile of the busiest process of the server's tree, moved to `file` and summarised per request served
 * (`work` says how many).
 */
async function profiled(
  server: RunningServer,
  file: string,
  work: () => Promise<number>,
): Promise<ProfileSummary & { file: string }> {
  const dir = path.dirname(file);
  const before = new Set(readdirSync(dir));
  server.signal("SIGUSR2");
  let served: number;
  try {
    served = await work();
  } finally {
    server.signal("SIGUSR2");
  }
  const deadline = Date.now() + 30_000;
  let fresh: string[] = [];
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    fresh = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile") && !before.has(f));
    if (fresh.length) break;
  }
  if (!fresh.length) throw new Error("the server wrote no CPU profile within 30 s");
  await new Promise((r) => setTimeout(r, 500)); // every process of the tree writes its own
  fresh = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile") && !before.has(f));
  const busiest = fresh.map((f) => path.join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0];
  renameSync(busiest, file);
  return { ...summariseProfile(file, served), file: path.relative(process.cwd(), file) };
}

/** Setup, every level of concurrency, the profile at the highest, teardown. */
async function measureScenario(
  scenario: BenchScenario,
  ctx: BenchContext,
  levels: number[],
  m: Measure,
  profile: { server: RunningServer; file: string } | undefined,
): Promise<ScenarioResult> {
  const result: ScenarioResult = {
    name: scenario.name,
    description: scenario.description,
    requestCount: 0,
    metrics: [],
    levels: [],
  };
  ctx.record = (name, value, unit) => result.metrics.push({ name, value, unit });
  const say = (what: string) => console.error(`[${scenario.name}] ${what}`);
  try {
    if (scenario.setup) {
      say("setup");
      const setup = scenario.setup;
      if (profile && m.profileSetup) {
        const file = profile.file.replace(/\.cpuprofile$/, ".setup.cpuprofile");
        result.setupProfile = await profiled(profile.server, file, async () => {
          await setup(ctx);
          return 1;
        });
      } else await setup(ctx);
    }
    if (scenario.run) {
      say("run");
      await scenario.run(ctx);
      return result;
    }
    const requests = await scenario.requests(ctx);
    result.requestCount = requests.length;
    const sqlRequests = scenario.sql ? await scenario.sql(ctx) : [];
    const sqlPool = scenario.sqlPool?.(ctx) ?? ctx.pool;
    const floors = scenario.floors ? await scenario.floors(ctx) : [];
    say(
      `${requests.length} request(s)${sqlRequests.length ? `, database floor ${sqlRequests.length} request(s) of ${sqlRequests.flat(2).length} statement(s)` : ""}`,
    );
    for (const connections of levels) {
      ctx.connections = connections;
      result.levels.push(await measureLevel(ctx, { requests, sqlRequests, sqlPool, floors }, connections, m, say));
    }
    if (profile) {
      say("CPU profile");
      const connections = levels.at(-1)!;
      const load = { connections, durationSeconds: m.profileSeconds };
      const summary = await profiled(
        profile.server,
        profile.file,
        async () => (await httpLoad(profile.server.baseUrl, requests, load)).stats().count,
      );
      result.profile = { ...summary, connections };
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    say(`failed: ${result.error}`);
  } finally {
    if (scenario.teardown) await scenario.teardown(ctx).catch((e) => say(`teardown failed: ${e}`));
  }
  return result;
}

/** A run as `main` stores it in tests/bench/results/. */
type StoredRun = RunInfo & { options: { scenarios: string[] }; results: ScenarioResult[] };

/** --report-only: docs/BENCH.md from the newest stored run of every scenario, without building or measuring. */
function reportOnly(): void {
  const dir = path.join(here, "results");
  // The runs are named by their start time (2026-11-28T12-15-10-131Z.json): newest last by name.
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => /^\d{4}-.*\.json$/.test(f)) : [];
  for (const name of files.sort().reverse()) {
    const run = JSON.parse(readFileSync(path.join(dir, name), "utf8")) as StoredRun;
    if (run.options.scenarios.length) continue;
    const kept = existsSync(DOCUMENT) ? keptSections(readFileSync(DOCUMENT, "utf8")) : "";
    writeFileSync(DOCUMENT, renderDocument(run, run.results, kept));
    console.log(`written: ${path.relative(process.cwd(), DOCUMENT)} from tests/bench/results/${name}`);
    return;
  }
  throw new Error("no stored run of every scenario in tests/bench/results/: run `npm run bench` once");
}

async function main() {
  const args = options();
  if (args.reportOnly) return reportOnly();
  // The database, seed and chain modules take seconds to load: not for --help or a refused command line.
  const [
    { closeDb, searchSession },
    { createApiKey, revokeApiKey },
    { startAirdropChain },
    { DEFAULT_BENCH_DATABASE_URL, prepareBenchDatabase },
  ] = await Promise.all([
    import("@/db"),
    import("@/lib/domains/partners/apikeys"),
    import("@/tests/helpers/airdrop-chain"),
    import("./database"),
  ]);
  const opts = { ...args, databaseUrl: process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL };
  // The server reaches PostgreSQL directly, not through a transaction-mode pooler: its searches run on a search pool
  // (SEARCH_POOL_MAX=0 in the environment measures them in a transaction each). The server inherits the variable.
  process.env.SEARCH_POOL_MAX ??= String(Math.min(100, Math.max(10, opts.connections.at(-1)!)));
  const scenarios = await loadScenarios(opts.scenarios);
  const state: {
    server?: RunningServer;
    pool?: pg.Pool;
    searchPool?: pg.Pool;
    keyPrefix?: string;
    chain?: AirdropChain;
    release?: () => Promise<void>;
  } = {};
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      stopLoad();
      await state.server?.stop();
      await state.chain?.close().catch(() => {});
      if (state.keyPrefix) await revokeApiKey(state.keyPrefix).catch(() => {});
      await Promise.all([state.pool?.end(), state.searchPool?.end()]).catch(() => {});
      await closeDb().catch(() => {});
      await state.release?.();
    })());
  const interrupted = () => {
    console.error("\ninterrupted: stopping the server");
    void cleanup().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  process.once("exit", () => {
    if (state.server && !cleaning) process.kill(-state.server.pid, "SIGKILL");
  });

  try {
    if (opts.build) await nextBuild();
    else if (!buildIsPresent()) throw new Error("--no-build given but there is no build in .next; run without it once");
    const { release, ...dataset } = await prepareBenchDatabase(opts.databaseUrl, opts.tokens, opts.seed);
    state.release = release;
    const key = await createApiKey(`bench ${new Date().toISOString()}`);
    state.keyPrefix = key.prefix;
    // Twice the load's connections: a request's floor holds one client and may send a concurrent round beside it.
    const most = opts.connections.at(-1)!;
    state.pool = new pg.Pool({ connectionString: opts.databaseUrl, max: most * 2 });
    state.searchPool = new pg.Pool({ connectionString: opts.databaseUrl, max: most * 2, ...searchSession() });

    if (scenarios.some((s) => s.chain)) {
      state.chain = await startAirdropChain();
      console.error(`local chain on ${state.chain.chain.rpcUrl}`);
    }
    const resultsDir = path.join(here, "results");
    mkdirSync(resultsDir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const profileDir = opts.profile ? path.join(resultsDir, `profiles-${stamp}`) : undefined;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const port = await freePort();
    console.error(`starting next start on port ${port} (log: tests/bench/results/server-${stamp}.log)`);
    state.server = await startServer(
      port,
      {
        ...process.env,
        ...state.chain?.env,
        NODE_ENV: "production",
        DATABASE_URL: opts.databaseUrl,
        DATABASE_POOL_MAX: String(Math.min(100, Math.max(10, most))),
        LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
        // Scheduled jobs (market refresh, leaderboard) would compete with the load; set JOB_WORKER=true to keep them.
        JOB_WORKER: process.env.JOB_WORKER ?? "false",
        // The load comes from one IP: the per-IP hourly upload limit (counted in the database, so shared with
        // earlier runs and the soak) would refuse the tree uploads of the merkle scenarios.
        MERKLE_UPLOADS_PER_HOUR: "1000000",
        // The stream scenario opens its thousand streams with the run's one API key.
        STREAM_MAX_PER_KEY: process.env.STREAM_MAX_PER_KEY ?? "100000",
      },
      path.join(resultsDir, `server-${stamp}.log`),
      profileDir,
    );
    const server = state.server;
    const ctx: BenchContext = {
      pool: state.pool,
      searchPool: state.searchPool,
      apiKey: key.key,
      baseUrl: server.baseUrl,
      fetch: (p, init) => fetch(server.baseUrl + p, init),
      server,
      dataset: { tokens: dataset.tokens, seed: dataset.seed },
      connections: most,
      durationSeconds: opts.durationSeconds,
      record: () => {},
      chain: state.chain,
    };
    const measure = {
      durationSeconds: opts.durationSeconds,
      rounds: opts.rounds,
      warmupSeconds: opts.warmupSeconds,
      profileSeconds: Math.max(3, Math.ceil(opts.durationSeconds / 2)),
      profileSetup: opts.profileSetup,
    };
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      const profile = profileDir ? { server, file: path.join(profileDir, `${scenario.name}.cpuprofile`) } : undefined;
      results.push(await measureScenario(scenario, ctx, opts.connections, measure, profile));
    }

    const info: RunInfo = {
      startedAt: new Date().toISOString(),
      commit: gitCommit(),
      machine: machine(),
      tokens: opts.tokens,
      durationSeconds: opts.durationSeconds,
      rounds: opts.rounds,
      connections: opts.connections,
      searchPoolMax: Number(process.env.SEARCH_POOL_MAX),
    };
    const file = path.join(resultsDir, `${stamp}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        { ...info, options: { ...opts, databaseUrl: redact(opts.databaseUrl) }, dataset, results },
        null,
        2,
      ),
    );
    for (const c of opts.connections) {
      console.log(
        `\n${opts.tokens.toLocaleString("en-US")} tokens, ${c} connection(s), ${opts.durationSeconds} s per measurement in ${opts.rounds} round(s); latencies in ms\n`,
      );
      console.log(renderTable(results, c));
    }
    const metrics = renderMetrics(results);
    if (metrics) console.log(`\n${metrics}`);
    const failures = renderFailures(results);
    if (failures) console.log(`\n${failures}`);
    console.log(`\nresults: ${path.relative(process.cwd(), file)}`);
    // docs/BENCH.md holds a whole run: only a run of every scenario rewrites it.
    if (opts.scenarios.length === 0) {
      const kept = existsSync(DOCUMENT) ? keptSections(readFileSync(DOCUMENT, "utf8")) : "";
      writeFileSync(DOCUMENT, renderDocument(info, results, kept));
      console.log(`written: ${path.relative(process.cwd(), DOCUMENT)}`);
    }
    if (failures) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

function gitCommit(): string | null {
  try {
    return execSync("git rev-parse --short HEAD", { cwd: here, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverage: os.loadavg(),
  };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
