// The soak: `next start` on the bench database (BENCH_DATABASE_URL, prepared by `npm run bench`), a mix of reads
// and writes for SOAK_SECONDS (default 300) at SOAK_CONCURRENCY, RSS sampled every 5 s; p50/p99 per endpoint.
import { spawn, spawnSync, execSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import pg from "pg";

export type SoakResult = {
  at: string; seconds: number; requests: number; errors: number; rssWarmMb: number; rssEndMb: number; rssGrowthPct: number;
  endpoints: { name: string; requests: number; errors: number; p50: number; p99: number }[];
};

function rssMb(pid: number): number {
  // next start runs the server in the process itself or a child: sum the tree.
  const pids = [pid, ...execSync(`pgrep -P ${pid} || true`).toString().split(/\s+/).filter(Boolean).map(Number)];
  let kb = 0;
  for (const p of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {}
  }
  return Math.round(kb / 1024);
}

export async function runSoak(): Promise<SoakResult> {
  const dbUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/tls_bench";
  const seconds = Number(process.env.SOAK_SECONDS ?? 300);
  const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 8);
  const port = Number(process.env.SOAK_PORT ?? 3917);
  if (!existsSync(".next/BUILD_ID")) {
    if (spawnSync("pgrep", ["-f", "next build"]).status === 0) throw new Error("another next build is running; try later");
    if (spawnSync("npx", ["next", "build"], { stdio: "inherit" }).status !== 0) throw new Error("next build failed");
  }
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const tokens = (await client.query<{ address: string; fid: string | null }>("select address, fid from tokens tablesample system (1) limit 500")).rows;
  await client.end();
  if (!tokens.length) throw new Error(`no tokens in ${dbUrl}: run npm run bench first`);
  const pick = <T>(a: T[]) => a[Math.floor(Math.random() * a.length)];
  const fids = tokens.map((t) => t.fid).filter((f): f is string => f !== null);
  const mix: { name: string; weight: number; make: () => { path: string; init?: RequestInit } }[] = [
    { name: "GET /api/tokens", weight: 4, make: () => ({ path: "/api/tokens?limit=20" }) },
    { name: "GET /api/tokens?q=", weight: 2, make: () => ({ path: `/api/tokens?q=${pick(["dog", "pepe", "ai", "moon", "x"])}&limit=20` }) },
    { name: "GET /api/tokens/fetch-deployed-by-address", weight: 2, make: () => ({ path: `/api/tokens/fetch-deployed-by-address?address=${pick(tokens).address}` }) },
    { name: "GET /api/tokens/fetch-deployed-by-fid", weight: 2, make: () => ({ path: `/api/tokens/fetch-deployed-by-fid?fid=${pick(fids.length ? fids : ["1"])}` }) },
    { name: "GET /api/presales", weight: 1, make: () => ({ path: "/api/presales?limit=20" }) },
    { name: "GET /api/droid/leaderboard", weight: 1, make: () => ({ path: "/api/droid/leaderboard?interval=24h&limit=50" }) },
    { name: "POST /api/tokens/fetch-by-pool-addresses", weight: 1, make: () => ({ path: "/api/tokens/fetch-by-pool-addresses", init: { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ poolAddresses: [pick(tokens).address] }) } }) },
  ];
  const server = spawn("npx", ["next", "start", "-p", String(port)], { env: { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: "warn", NODE_ENV: "production" }, stdio: ["ignore", "inherit", "inherit"] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (i > 120) throw new Error("server did not start");
    if (await fetch(`${base}/api/ping`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const samples: number[] = [];
  const latencies = new Map<string, number[]>();
  const errors = new Map<string, number>();
  const end = Date.now() + seconds * 1000;
  const sampler = setInterval(() => samples.push(rssMb(server.pid!)), 5000);
  const weighted = mix.flatMap((m) => Array(m.weight).fill(m) as typeof mix);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const m = pick(weighted);
        const { path, init } = m.make();
        const started = performance.now();
        const ok = await fetch(base + path, { ...init, signal: AbortSignal.timeout(30_000) }).then(async (r) => (await r.arrayBuffer(), r.status < 400), () => false);
        (latencies.get(m.name) ?? latencies.set(m.name, []).get(m.name)!).push(performance.now() - started);
        if (!ok) errors.set(m.name, (errors.get(m.name) ?? 0) + 1);
      }
    }),
  );
  clearInterval(sampler);
  server.kill("SIGTERM");
  const q = (a: number[], p: number) => Math.round(a.sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))] ?? 0);
  const warm = samples[Math.min(samples.length - 1, Math.floor(samples.length / 5))] ?? 0; // after the first fifth
  const last = samples.at(-1) ?? 0;
  const endpoints = mix.map((m) => ({ name: m.name, requests: latencies.get(m.name)?.length ?? 0, errors: errors.get(m.name) ?? 0, p50: q(latencies.get(m.name) ?? [], 0.5), p99: q(latencies.get(m.name) ?? [], 0.99) }));
  return {
    at: new Date().toISOString(), seconds, requests: endpoints.reduce((s, e) => s + e.requests, 0), errors: endpoints.reduce((s, e) => s + e.errors, 0),
    rssWarmMb: warm, rssEndMb: last, rssGrowthPct: warm ? Math.round(((last - warm) / warm) * 1000) / 10 : 0, endpoints,
  };
}
