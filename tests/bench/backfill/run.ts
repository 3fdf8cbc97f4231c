// npm run bench:backfill -- [--tokens N] [--seed S] [--mode follow|backfill] [--generations v4|all] [--kill-at F]
//                            [--seconds T] [--from-block B] [--sample K] [--source DIR]
// Indexes a synthetic history of TokenCreated events, served by a fake public provider (provider.ts), into a fresh
// database on the PostgreSQL server, with the indexer in a child process, and reports tokens a second, HTTP requests
// per 20 tokens, calls per method, the child's peak RSS, the CPU of the indexer, the provider and PostgreSQL, a check
// of the stored set (count and checksum against the history: no gap, no duplicate), and a sample of rows against what
// the minute indexer writes for the same events.
import { type ChildProcess, execSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import pg from "pg";
import { type CliSpec, readCli, refuse } from "@/dev/cli/args";
import { factoryOf, type Generation, GENERATIONS, type History } from "./history";
import { PUBLIC_PROVIDER, type ProviderCounts, startFakeProvider } from "./provider";

const here = import.meta.dirname;
const ROOT = path.resolve(here, "../../..");
const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/tls_backfill";
const cli = {
  command: "npm run bench:backfill",
  synopsis: [
    "[--tokens N] [--seed S] [--mode follow|backfill] [--kill-at F] [--seconds T] [--from-block B] [--sample K]",
    "[--source DIR]",
  ],
  description:
    "Indexes a synthetic TokenCreated history served by a fake public provider (25 ms a request, 10,000 logs and\n" +
    "blocks per eth_getLogs, 25 requests a second, batches of 100) into a fresh database (BACKFILL_DATABASE_URL),\n" +
    "and reports tokens a second, requests per 20 tokens, peak RSS, the stored set's checksum and a row sample.",
  options: {
    tokens: { type: "string", value: "N", description: "tokens in the history, all generations (default 100000)" },
    seed: { type: "string", value: "S", description: "the history's seed (default 1)" },
    mode: {
      type: "string",
      value: "m",
      description: "follow: the minute indexer run after run (v4 only); backfill: the backfill entry point",
    },
    generations: {
      type: "string",
      value: "g",
      description: "v4 (the v4 factory only) or all (every generation); default v4 for follow, all for backfill",
    },
    "kill-at": {
      type: "string",
      value: "F",
      description: "kill -9 the indexer once this fraction of the tokens is stored, then resume (0..1)",
    },
    seconds: { type: "string", value: "T", description: "stop the indexer after T seconds (the rate so far)" },
    "from-block": {
      type: "string",
      value: "B",
      description: "backfill from block B (31000000: the v4 launch rush, the densest ranges, reached at once)",
    },
    sample: { type: "string", value: "K", description: "rows compared with the minute indexer's (default 60)" },
    source: { type: "string", value: "DIR", description: "the service tree whose indexer runs (default this one)" },
  },
} as const satisfies CliSpec;

function options() {
  const { values } = readCli(cli);
  const num = (name: "tokens" | "kill-at" | "seconds" | "from-block" | "sample", fallback: number, max: number) => {
    const value = values[name] === undefined ? fallback : Number(values[name]);
    if (!Number.isFinite(value) || value < 0 || value > max) refuse(cli, `--${name} must be a number 0..${max}`);
    return value;
  };
  const mode = values.mode ?? "backfill";
  if (mode !== "follow" && mode !== "backfill") refuse(cli, "--mode must be follow or backfill");
  const generations = values.generations ?? (mode === "follow" ? "v4" : "all");
  if (generations !== "v4" && generations !== "all") refuse(cli, "--generations must be v4 or all");
  const fromBlock = Math.floor(num("from-block", 0, 100_000_000));
  if (fromBlock && mode !== "backfill") refuse(cli, "--from-block is a backfill's option");
  return {
    generations,
    tokens: Math.floor(num("tokens", 100_000, 10_000_000)),
    seed: values.seed ?? "1",
    mode,
    killAt: num("kill-at", 0, 1),
    seconds: num("seconds", 0, 86_400),
    fromBlock,
    sample: Math.floor(num("sample", 60, 10_000)),
    source: path.resolve(values.source ?? ROOT),
  };
}

async function freshDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^\w+$/.test(name)) throw new Error(`unusual database name "${name}"`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
}

type ChildRun = {
  exitCode: number | null;
  killed: boolean;
  lines: Record<string, unknown>[];
  peakRssMiB: number;
  /** The child's own CPU (user + system) at its last poll, ms: what a token costs whatever the machine's load. */
  cpuMs: number;
};

let lastProgress = 0;
/** A child's line on stderr now and then (every one that is not a run's). */
function progress(line: Record<string, unknown>) {
  if (!line.failure && !line.done && Date.now() - lastProgress < 10_000) return;
  lastProgress = Date.now();
  console.error(`${new Date().toISOString().slice(11, 19)} ${JSON.stringify(line).slice(0, 300)}`);
}

/** Runs the indexer child; `killWhen` is polled every second and SIGKILLs it when true. */
function runIndexer(
  o: ReturnType<typeof options>,
  mode: string,
  env: NodeJS.ProcessEnv,
  killWhen?: () => Promise<boolean>,
): Promise<ChildRun> {
  // BENCH_CPU_PROF=1: the child writes a V8 CPU profile to tests/bench/results/ when it exits (not when killed -9).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.join(here, "../results")}`] : [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...profile, "--import", "tsx", path.join(here, "indexer.ts"), mode],
    {
      cwd: o.source,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const run: ChildRun = { exitCode: null, killed: false, lines: [], peakRssMiB: 0, cpuMs: 0 };
  createInterface({ input: child.stdout! }).on("line", (line) => {
    try {
      const parsed = JSON.parse(line);
      if (parsed.failure || parsed.done || parsed.migrated === undefined) progress(parsed);
      if (!parsed.progress) run.lines.push(parsed);
    } catch {
      process.stderr.write(`${line}\n`);
    }
  });
  const started = Date.now();
  const timer = setInterval(async () => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      run.peakRssMiB = Math.max(run.peakRssMiB, hwm);
      const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      run.cpuMs = ((Number(stat[11]) + Number(stat[12])) * 1000) / CLOCK_TICKS;
    } catch {}
    // Out of time: SIGTERM, on which the child exits (writing its profile); the kill check is a SIGKILL.
    if (!run.killed && o.seconds > 0 && Date.now() - started > o.seconds * 1000) {
      run.killed = true;
      child.kill("SIGTERM");
    }
    if (!run.killed && killWhen && (await killWhen())) {
      run.killed = true;
      child.kill("SIGKILL");
    }
  }, 1000);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearInterval(timer);
      run.exitCode = code;
      resolve(run);
    }),
  );
}

/** Clock ticks a second of /proc's CPU times (USER_HZ). */
const CLOCK_TICKS = (() => {
  try {
    const out = execSync("getconf CLK_TCK", { stdio: ["ignore", "pipe", "ignore"] }).toString();
    return Number(out.trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * The CPU ticks of each PostgreSQL server process, by pid and start time: its user and system time, and its reaped
 * children's (the postmaster's cutime and cstime hold the backends that exited, as the indexer's do when it exits).
 * Linux only: null without /proc, or with no postgres process in sight (a server on another machine or container).
 */
function postgresTicks(): Map<string, number> | null {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const ticks = new Map<string, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      if (stat.slice(stat.indexOf("(") + 1, close) !== "postgres") continue;
      // Fields 3 on of proc(5): utime 14, stime 15, cutime 16, cstime 17, starttime 22.
      const f = stat.slice(close + 2).split(" ");
      ticks.set(`${pid}/${f[19]}`, Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]));
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks.size ? ticks : null;
}

/** PostgreSQL's CPU between two readings, ms: the processes started meanwhile count from zero. */
function postgresCpuMs(start: Map<string, number> | null, end: Map<string, number> | null): number | null {
  if (!start || !end) return null;
  let ticks = 0;
  for (const [process, t] of end) ticks += t - (start.get(process) ?? 0);
  return Math.round((ticks * 1000) / CLOCK_TICKS);
}

/** 48 bits of md5 of an address, summed: the stored set's checksum, whatever the order. */
const addressDigest = (address: string) => BigInt(`0x${createHash("md5").update(address).digest("hex").slice(0, 12)}`);
const CHECKSUM_SQL =
  "SELECT count(*)::int AS n, count(DISTINCT contract_address)::int AS distinct_n, " +
  "coalesce(sum(('x' || left(md5(contract_address), 12))::bit(48)::bigint), 0)::text AS checksum " +
  "FROM tokens WHERE chain_id = 8453";

/** The tokens the history holds for these generations from `from` up to each generation's last indexed block. */
function expectedSet(history: History, upTo: Partial<Record<Generation, number>>, from: number) {
  let n = 0;
  let checksum = 0n;
  for (const era of history.eras) {
    const last = upTo[era.generation];
    if (last === undefined) continue;
    for (let j = 0; j < era.count; j++) {
      const token = history.token(era.firstToken + j);
      if (token.blockNumber > last) break;
      if (token.blockNumber < from) continue;
      n += 1;
      checksum += addressDigest(token.tokenAddress.toLowerCase());
    }
  }
  return { n, checksum: checksum.toString() };
}

/** Columns the minute indexer and the run must agree on: every column but the row's own id and times. */
const OWN_COLUMNS = new Set(["id", "created_at", "updated_at"]);

async function sampleRows(client: pg.Client, addresses: string[]) {
  const { rows } = await client.query("SELECT * FROM tokens WHERE chain_id = 8453 AND contract_address = ANY($1)", [
    addresses,
  ]);
  return new Map(
    rows.map((r) => [
      r.contract_address as string,
      Object.fromEntries(Object.entries(r).filter(([k]) => !OWN_COLUMNS.has(k))),
    ]),
  );
}

/**
 * The minute indexer over each sampled token's block, one block a run, into a database of its own: what it writes
 * for those events, to hold the run's rows against.
 */
async function minuteIndexerRows(o: ReturnType<typeof options>, env: NodeJS.ProcessEnv, blocks: number[]) {
  const url = env.DATABASE_URL!.replace(/\/(\w+)$/, "/$1_check");
  await freshDatabase(url);
  const checkEnv = { ...env, DATABASE_URL: url };
  await runIndexer({ ...o, seconds: 0 }, "migrate", checkEnv);
  await runIndexer({ ...o, seconds: 0 }, "sample", {
    ...checkEnv,
    BENCH_SAMPLE_BLOCKS: blocks.join(","),
    TOKEN_INDEX_BLOCK_RANGE: "1",
    TOKEN_INDEX_MAX_RANGES: "1",
    TOKEN_INDEX_REORG_DEPTH: "0",
  });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function main() {
  const o = options();
  const url = process.env.BACKFILL_DATABASE_URL ?? DEFAULT_URL;
  const provider = await startFakeProvider({ tokens: o.tokens, seed: o.seed });
  const history = provider.history;
  const counts = history.countsByGeneration();
  // The indexer before the earlier generations' decoding reads the v4 factory only: --generations v4 measures the same.
  const generations: Generation[] = o.generations === "v4" ? ["clanker_v4"] : [...GENERATIONS];
  const firstBlock = Math.min(
    ...history.eras.filter((e) => generations.includes(e.generation)).map((e) => e.fromBlock),
  );
  const expectedTotal = generations.reduce((n, g) => n + counts[g], 0);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    RPC_URL_8453: provider.url,
    // As an operator sets their plan's rate: the indexer paces itself instead of waiting out 429s.
    RPC_REQUESTS_PER_SECOND_8453: String(PUBLIC_PROVIDER.requestsPerSecond),
    FACTORY_ADDRESS_8453: factoryOf("clanker_v4"),
    TOKEN_INDEX_START_BLOCK_8453: String(firstBlock),
    TOKEN_INDEX_MAX_RANGES: "1000",
    TOKEN_INDEX_GENERATIONS: o.generations === "v4" ? "none" : "all",
    BENCH_FROM_BLOCK: o.fromBlock ? String(o.fromBlock) : "",
    LOG_LEVEL: "error",
    OTEL_SDK_DISABLED: "true",
  };
  console.error(
    `history: ${o.tokens.toLocaleString("en-US")} tokens (${JSON.stringify(counts)}), head ${history.head}`,
  );
  await freshDatabase(url);
  await runIndexer({ ...o, seconds: 0 }, "migrate", env);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const stored = async () => (await client.query("SELECT count(*)::int AS n FROM tokens")).rows[0].n as number;

  const before = provider.counts();
  const postgresBefore = postgresTicks();
  const started = performance.now();
  const runs: ChildRun[] = [];
  if (o.killAt > 0) {
    let checks = 0;
    runs.push(
      await runIndexer(o, o.mode, env, async () =>
        ++checks % 3 === 0 ? (await stored()) >= o.killAt * expectedTotal : false,
      ),
    );
    console.error(`killed with ${(await stored()).toLocaleString("en-US")} tokens stored; resuming`);
  }
  runs.push(await runIndexer(o, o.mode, env));
  const seconds = (performance.now() - started) / 1000;
  const after = provider.counts();
  const postgresCpu = postgresCpuMs(postgresBefore, postgresTicks());
  const used: ProviderCounts = diffCounts(before, after);

  const got = (await client.query(CHECKSUM_SQL)).rows[0];
  const quarantined = (await client.query("SELECT count(*)::int AS n FROM quarantined_events")).rows[0].n as number;
  const checkpoints = (
    await client
      // A backfill from a chosen block keeps its progress under its own stream until it reaches the head.
      .query(
        "SELECT address AS factory, max(block) AS last_block FROM chain_checkpoints " +
          "WHERE stream IN ('token-created', 'token-created:backfill') GROUP BY address",
      )
      .catch(() => client.query("SELECT factory, last_block FROM token_index_checkpoints"))
  ).rows;
  const upTo: Partial<Record<Generation, number>> = {};
  for (const g of generations) {
    const row = checkpoints.find((r) => r.factory === factoryOf(g).toLowerCase());
    if (row) upTo[g] = Number(row.last_block);
  }
  const finished = runs.at(-1)!.lines.some((l) => l.done);
  const expected = expectedSet(
    history,
    finished ? Object.fromEntries(generations.map((g) => [g, history.head])) : upTo,
    o.fromBlock,
  );

  // A sample spread over the stored tokens, compared with what the minute indexer writes for the same events.
  const sampleIds = (
    await client.query(
      "SELECT contract_address, block_number FROM tokens WHERE chain_id = 8453 ORDER BY md5(contract_address) LIMIT $1",
      [o.sample],
    )
  ).rows as { contract_address: string; block_number: number }[];
  const check = await minuteIndexerRows(o, env, [...new Set(sampleIds.map((r) => r.block_number))]);
  const addresses = sampleIds.map((r) => r.contract_address);
  const [ours, theirs] = await Promise.all([sampleRows(client, addresses), sampleRows(check, addresses)]);
  const differing = addresses.filter((a) => JSON.stringify(ours.get(a)) !== JSON.stringify(theirs.get(a)));
  await Promise.all([client.end(), check.end()]);
  await provider.close();

  const tokens = Number(got.n);
  const result = {
    mode: o.mode,
    tokens: o.tokens,
    seed: o.seed,
    fromBlock: o.fromBlock || undefined,
    generations,
    expected: expected.n,
    stored: tokens,
    distinct: Number(got.distinct_n),
    checksumMatches: got.checksum === expected.checksum,
    quarantined,
    finished,
    killed: o.killAt > 0 ? runs[0]!.killed : undefined,
    seconds: Math.round(seconds * 10) / 10,
    tokensPerSecond: Math.round((tokens / seconds) * 10) / 10,
    requestsPer20Tokens: tokens ? Math.round(((used.requests * 20) / tokens) * 100) / 100 : null,
    provider: used,
    peakRssMiB: Math.round(Math.max(...runs.map((r) => r.peakRssMiB))),
    indexerCpuSeconds: Math.round(runs.reduce((n, r) => n + r.cpuMs, 0) / 100) / 10,
    indexerCpuMsPerToken: tokens ? Math.round((runs.reduce((n, r) => n + r.cpuMs, 0) / tokens) * 1000) / 1000 : null,
    /** The PostgreSQL server's CPU over the indexer's run (null where /proc shows none), beside the provider's. */
    postgresCpuMs: postgresCpu,
    sampleCompared: addresses.length,
    sampleDiffering: differing.length,
    firstDifference: differing[0] ? { ours: ours.get(differing[0]), minute: theirs.get(differing[0]) } : undefined,
    failures: runs.flatMap((r) => r.lines.filter((l) => l.failure)).length,
    commit: gitCommit(o.source),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, load ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(" ")}`,
  };
  console.log(JSON.stringify(result, (_, v) => (typeof v === "bigint" ? String(v) : v), 2));
  mkdirSync(path.join(here, "../results"), { recursive: true });
  const file = path.join(here, "../results", `backfill-${o.mode}-${o.tokens}-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2));
  const ok = result.checksumMatches && result.distinct === result.stored && differing.length === 0;
  process.exit(ok ? 0 : 1);
}

function diffCounts(a: ProviderCounts, b: ProviderCounts): ProviderCounts {
  const sub = (x: Record<string, number>, y: Record<string, number>) =>
    Object.fromEntries(Object.entries(y).map(([k, v]) => [k, v - (x[k] ?? 0)]));
  return {
    requests: b.requests - a.requests,
    rateLimited: b.rateLimited - a.rateLimited,
    batches: b.batches - a.batches,
    calls: sub(a.calls, b.calls),
    errors: sub(a.errors, b.errors),
    logsServed: b.logsServed - a.logsServed,
    cpuMs: Math.round(b.cpuMs - a.cpuMs),
  };
}

function gitCommit(dir: string): string | null {
  try {
    return execSync("git rev-parse --short HEAD", { cwd: dir, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    // A tree exported with git archive names its commit in .commit.
    return readFileSync(path.join(dir, ".commit"), "utf8").trim() || null;
  }
}

await main();
