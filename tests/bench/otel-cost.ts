// npm run bench:otel -- [--tokens 10000] [--rounds 12] [--duration 2] [--no-build] [--no-write]
// The cost of telemetry: two `next start` servers of one build over the bench database, one without an exporter and
// one exporting traces and metrics to a local OTLP receiver that takes and discards them. The framework floor
// (GET /api/ping) and tokens-default (GET /api/tokens) are loaded at 1 connection on both, interleaved: each round
// measures every scenario on both servers back to back, the first of the two alternating, so a machine that slows
// down weighs on both alike. Prints p50 and p99 of each with the difference and the ratio, and writes its section of
// docs/BENCH.md. With NEXT_DIST_DIR set, the build goes there (`.next` otherwise).
import { execSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { type CliSpec, readCli, refuse } from "@/dev/cli/args";
import { httpLoad, Samples, type Stats } from "./load";
import { writeSection } from "./report";
import { freePort, nextBuild, startServer, type RunningServer } from "./server";

const cli = {
  command: "npm run bench:otel",
  synopsis: ["[--tokens N] [--rounds 12] [--duration 2] [--no-build] [--no-write]"],
  description:
    "Measures what exporting telemetry costs: the framework floor and tokens-default at 1 connection on two servers\n" +
    "of one build, one exporting over OTLP to a local receiver, interleaved in rounds. Prints each p50 and p99 with\n" +
    "the difference and the ratio, and writes the Telemetry cost section of docs/BENCH.md.",
  options: {
    tokens: { type: "string", value: "N", description: "the dataset's tokens, 0..10000000 (default 10000)" },
    rounds: { type: "string", value: "n", description: "rounds, 1..100 (default 12)" },
    duration: { type: "string", value: "s", description: "seconds per scenario and server in a round (default 2)" },
    "no-build": { type: "boolean", description: "use the build already there" },
    "no-write": { type: "boolean", description: "print only; leave docs/BENCH.md as it is" },
  },
} as const satisfies CliSpec;

/** The goal: exporting adds under 0.2 ms to the p50 at 1 connection. */
export const GOAL_MS = 0.2;
const HEADING = "## Telemetry cost";
const DOCUMENT = path.resolve(import.meta.dirname, "../../docs/BENCH.md");
const SCENARIOS = { "framework floor": "/api/ping", "tokens-default": "/api/tokens" } as const;
type Which = "off" | "on";

export type OtelCostRow = {
  scenario: string;
  off: Stats;
  on: Stats;
  /** the server's CPU time (every process of it) per request served, ms */
  cpuMs: Record<Which, number>;
  /** on − off of each round's p50, ms */
  roundDiffs: number[];
};

export type OtelCost = {
  at: string;
  commit: string | null;
  tokens: number;
  rounds: number;
  durationSeconds: number;
  searchPoolMax: number;
  cpu: string;
  loadAverage: { start: number[]; end: number[] };
  exports: number;
  rows: OtelCostRow[];
};

const ms = (v: number) => v.toFixed(3);
const signed = (v: number) => `${v >= 0 ? "+" : ""}${v.toFixed(3)}`;
const loads = (l: number[]) => l.map((v) => v.toFixed(1)).join(" ");

/** The section of docs/BENCH.md: how it was run, then a row per scenario. */
export function renderOtelCost(c: OtelCost): string {
  const rows = c.rows.map((r) => {
    const diff = r.on.p50 - r.off.p50;
    const sorted = [...r.roundDiffs].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    return (
      `| ${r.scenario} | ${ms(r.off.p50)} | ${ms(r.on.p50)} | ${signed(diff)} | ${(r.on.p50 / r.off.p50).toFixed(3)} | ` +
      `${signed(median)} (${signed(sorted[0])} … ${signed(sorted.at(-1)!)}) | ${ms(r.off.p99)} | ${ms(r.on.p99)} | ` +
      `${ms(r.cpuMs.off)} | ${ms(r.cpuMs.on)} | ` +
      `${diff < GOAL_MS ? "yes" : "**no**"} |`
    );
  });
  return [
    HEADING,
    "",
    `Written by \`npm run bench:otel\` (tests/bench/otel-cost.ts), run of ${c.at}${c.commit ? ` on commit ${c.commit}` : ""}; ` +
      "`npm run bench` keeps this section. " +
      `${c.tokens.toLocaleString("en-US")} tokens, ${c.rounds} interleaved rounds of ${c.durationSeconds} s per scenario and ` +
      `server at 1 connection, token searches on a search pool of ${c.searchPoolMax}; ${c.cpu}, load average ` +
      `${loads(c.loadAverage.start)} at the start and ${loads(c.loadAverage.end)} at the end. "on" exports traces and ` +
      `metrics over OTLP/HTTP to a local receiver (${c.exports} exports received). Latencies in ms; CPU: the server's ` +
      `CPU time per request, ms, steadier than latency on a busy machine; goal: on − off under +${GOAL_MS} ms p50.`,
    "",
    "| scenario | p50 off | p50 on | on − off | on ÷ off | rounds: median (min … max) | p99 off | p99 on | CPU off | CPU on | goal met |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
  ].join("\n");
}

/** Puts the section in docs/BENCH.md: in place of the one there, else at the end. */
export function writeOtelCost(c: OtelCost, document = DOCUMENT): void {
  writeSection(document, renderOtelCost(c));
}

function options() {
  const { values } = readCli(cli);
  const int = (name: "tokens" | "rounds" | "duration", fallback: number, min: number, max: number) => {
    const value = values[name] === undefined ? fallback : Number(values[name]);
    if (!Number.isInteger(value) || value < min || value > max)
      refuse(cli, `--${name} must be an integer ${min}..${max}`);
    return value;
  };
  return {
    tokens: int("tokens", 10_000, 0, 10_000_000),
    rounds: int("rounds", 12, 1, 100),
    durationSeconds: int("duration", 2, 1, 600),
    build: values["no-build"] !== true,
    write: values["no-write"] !== true,
  };
}

/** CPU time (user and system) of a process and its descendants, ms, from /proc (0 where there is none). */
function cpuTimeMs(pid: number): number {
  const stat = (p: number | string) => {
    const text = readFileSync(`/proc/${p}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  };
  try {
    const children = new Map<number, number[]>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const parent = Number(stat(entry)[1]);
        children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
      } catch {
        // ended while read
      }
    }
    const tree = [pid];
    for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
    const tick = 1000 / 100; // USER_HZ
    return tree.reduce((sum, p) => {
      try {
        const f = stat(p);
        return sum + (Number(f[11]) + Number(f[12])) * tick;
      } catch {
        return sum;
      }
    }, 0);
  } catch {
    return 0;
  }
}

function gitCommit(): string | null {
  try {
    return execSync("git rev-parse --short HEAD", { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

async function main() {
  const opts = options();
  const loadStart = os.loadavg();
  const { DEFAULT_BENCH_DATABASE_URL, prepareBenchDatabase } = await import("./database");
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL;
  const dataset = await prepareBenchDatabase(databaseUrl, opts.tokens, "1");
  if (opts.build) await nextBuild();

  /** Takes every export and keeps nothing. */
  let exports = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      exports += 1;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const otlp = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

  const resultsDir = path.join(import.meta.dirname, "results");
  mkdirSync(resultsDir, { recursive: true });
  // As `npm run bench` at 1 and 10 connections: token searches on a search pool, unless the environment says.
  const searchPoolMax = process.env.SEARCH_POOL_MAX ?? "10";
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "warn",
    JOB_WORKER: "false",
    SEARCH_POOL_MAX: searchPoolMax,
  };
  for (const name of Object.keys(env)) if (name.startsWith("OTEL_")) delete env[name];
  const servers = {} as Record<Which, RunningServer>;
  const samples = new Map<string, Samples>();
  const roundDiffs = new Map<string, number[]>();
  const cpu = new Map<string, { ms: number; requests: number }>();
  try {
    servers.off = await startServer(await freePort(), env, path.join(resultsDir, "otel-off.log"));
    servers.on = await startServer(
      await freePort(),
      { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_METRIC_EXPORT_INTERVAL: "5000" },
      path.join(resultsDir, "otel-on.log"),
    );
    const load = (which: Which, p: string, durationSeconds: number) =>
      httpLoad(servers[which].baseUrl, [{ path: p }], { connections: 1, durationSeconds });
    for (const which of ["off", "on"] as const) for (const p of Object.values(SCENARIOS)) await load(which, p, 2);
    for (let r = 0; r < opts.rounds; r++) {
      for (const [name, p] of Object.entries(SCENARIOS)) {
        // Alternate which server goes first, so neither always meets the machine in the same state.
        const order: Which[] = r % 2 ? ["on", "off"] : ["off", "on"];
        const p50 = {} as Record<Which, number>;
        for (const which of order) {
          const before = cpuTimeMs(servers[which].pid);
          const run = await load(which, p, opts.durationSeconds);
          p50[which] = run.stats().p50;
          const key = `${name}|${which}`;
          const used = cpu.get(key) ?? { ms: 0, requests: 0 };
          cpu.set(key, {
            ms: used.ms + cpuTimeMs(servers[which].pid) - before,
            requests: used.requests + run.stats().count,
          });
          samples.set(key, (samples.get(key) ?? new Samples()).merge(run));
        }
        roundDiffs.set(name, [...(roundDiffs.get(name) ?? []), p50.on - p50.off]);
      }
      console.error(`round ${r + 1}/${opts.rounds} done (load average ${loads(os.loadavg())})`);
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
    receiver.close();
    await dataset.release();
  }

  const result: OtelCost = {
    at: new Date().toISOString(),
    commit: gitCommit(),
    tokens: dataset.tokens,
    rounds: opts.rounds,
    durationSeconds: opts.durationSeconds,
    searchPoolMax: Number(searchPoolMax),
    cpu: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}`,
    loadAverage: { start: loadStart, end: os.loadavg() },
    exports,
    rows: Object.keys(SCENARIOS).map((scenario) => ({
      scenario,
      off: samples.get(`${scenario}|off`)!.stats(),
      on: samples.get(`${scenario}|on`)!.stats(),
      roundDiffs: roundDiffs.get(scenario)!,
      cpuMs: Object.fromEntries(
        (["off", "on"] as const).map((w) => {
          const used = cpu.get(`${scenario}|${w}`)!;
          return [w, used.ms / Math.max(1, used.requests)];
        }),
      ) as Record<Which, number>,
    })),
  };
  const failures = result.rows.reduce((n, r) => n + r.off.failures + r.on.failures, 0);
  writeFileSync(path.join(resultsDir, `otel-cost-${result.at.replace(/[:.]/g, "-")}.json`), JSON.stringify(result));
  console.log(renderOtelCost(result));
  if (failures) console.log(`${failures} non-2xx answers or errors: figures not written`);
  else if (opts.write) writeOtelCost(result);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
