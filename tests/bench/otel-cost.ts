// The cost of telemetry: two `next start` servers of one build over the bench database, one without an exporter and
// one exporting to a local OTLP receiver that discards what it gets, loaded in turns (framework floor, then
// tokens-default) for --rounds rounds at 1 connection. Prints p50 and p99 of each and the difference.
//   npx tsx tests/bench/otel-cost.ts [--tokens 10000] [--rounds 6] [--duration 3] [--no-build]
// With NEXT_DIST_DIR set, the build goes there (`.next` otherwise).
import { createServer } from "node:http";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { httpLoad, Samples } from "./load";
import { freePort, nextBuild, startServer, type RunningServer } from "./server";

const { values } = parseArgs({
  options: {
    tokens: { type: "string", default: "10000" },
    rounds: { type: "string", default: "6" },
    duration: { type: "string", default: "3" },
    "no-build": { type: "boolean" },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.duration);
const here = import.meta.dirname;

const { DEFAULT_BENCH_DATABASE_URL, prepareBenchDatabase } = await import("./database");
const databaseUrl = process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL;
const dataset = await prepareBenchDatabase(databaseUrl, Number(values.tokens), "1");
if (!values["no-build"]) await nextBuild();

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

const resultsDir = path.join(here, "results");
mkdirSync(resultsDir, { recursive: true });
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: "warn",
  JOB_WORKER: "false",
};
for (const name of ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_SDK_DISABLED"]) delete env[name];
const servers: Record<"off" | "on", RunningServer> = {
  off: await startServer(await freePort(), env, path.join(resultsDir, "otel-off.log")),
  on: await startServer(
    await freePort(),
    { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_METRIC_EXPORT_INTERVAL: "5000" },
    path.join(resultsDir, "otel-on.log"),
  ),
};

const paths = { "framework floor": "/api/ping", "tokens-default": "/api/tokens" } as const;
const samples = new Map<string, Samples>();
try {
  for (const server of Object.values(servers))
    for (const p of Object.values(paths))
      await httpLoad(server.baseUrl, [{ path: p }], { connections: 1, durationSeconds: 2 });
  for (let r = 0; r < rounds; r++) {
    // Alternate which server goes first, so neither always meets the machine in the same state.
    const order = r % 2 ? (["on", "off"] as const) : (["off", "on"] as const);
    for (const which of order)
      for (const [name, p] of Object.entries(paths)) {
        const run = await httpLoad(servers[which].baseUrl, [{ path: p }], { connections: 1, durationSeconds: seconds });
        const key = `${name}|${which}`;
        samples.set(key, (samples.get(key) ?? new Samples()).merge(run));
      }
    console.error(`round ${r + 1}/${rounds} done`);
  }
} finally {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
  receiver.close();
  await dataset.release();
}

console.log(
  `dataset: ${dataset.tokens} tokens; ${rounds} rounds of ${seconds} s each; 1 connection; exports received: ${exports}`,
);
console.log("scenario | p50 off | p50 on | p50 on - off | p50 on / off | p99 off | p99 on | failures");
for (const name of Object.keys(paths)) {
  const off = samples.get(`${name}|off`)!.stats();
  const on = samples.get(`${name}|on`)!.stats();
  const diff = (on.p50 - off.p50).toFixed(3);
  const ratio = (on.p50 / off.p50).toFixed(3);
  console.log(
    `${name} | ${off.p50} | ${on.p50} | ${diff} ms | ${ratio} | ${off.p99} | ${on.p99} | ${off.failures + on.failures}`,
  );
}
process.exit(0);
