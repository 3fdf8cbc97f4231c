// The soak: `next start` on the bench database (BENCH_DATABASE_URL, prepared by `npm run bench`), a mix of reads
// and writes for SOAK_SECONDS (default 300) at SOAK_CONCURRENCY, RSS sampled every 5 s; p50/p99 per endpoint.
// The writes are airdrop tree uploads (streamed parse, tiles, replacement of the token's previous tree) over a
// set of tokens whose claims are read back in the same mix. Two upload guards are set for this load, or they
// would answer by design: MERKLE_UPLOADS_PER_HOUR (per client IP: one client here; else 429) and
// MERKLE_MAX_CONCURRENT_UPLOADS, raised to SOAK_CONCURRENCY up to 16 (it bounds the memory of million-leaf trees; the
// soak's trees have at most 64 leaves; else 503 with Retry-After).
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { buildIsPresent, freePort, nextBuild, startServer } from "../bench/server";
import { buildStandardTree } from "../../lib/merkle/build";

export type SoakResult = {
  at: string; seconds: number; concurrency: number; tokens: number; requests: number; errors: number; errorSamples: string[]; rssSamplesMb: number[]; rssWarmMb: number; rssEndMb: number; rssGrowthPct: number;
  endpoints: { name: string; requests: number; errors: number; p50: number; p99: number }[];
};

export async function runSoak(): Promise<SoakResult> {
  const dbUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/tls_bench";
  const seconds = Number(process.env.SOAK_SECONDS ?? 300);
  const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 8);
  if (!buildIsPresent()) await nextBuild();
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const tokens = (
    await client.query<{ address: string; pool: string | null; fid: string | null }>(
      "select contract_address as address, pool_address as pool, requestor_fid::text as fid from tokens tablesample system (1) limit 500",
    )
  ).rows;
  const tokenCount = Number((await client.query<{ n: string }>("select count(*) as n from tokens")).rows[0].n);
  await client.end();
  if (!tokens.length) throw new Error(`no tokens in ${dbUrl}: run npm run bench first`);
  const pick = <T>(a: T[]) => a[Math.floor(Math.random() * a.length)];
  const fids = tokens.map((t) => t.fid).filter((f): f is string => f !== null);
  const pools = tokens.map((t) => t.pool).filter((p): p is string => p !== null);
  // Airdrops: 20 tokens, each uploaded again and again with a fresh tree of 1 to 64 leaves.
  const airdropTokens = tokens.slice(0, 20).map((t) => t.address);
  const claimer = (i: number) => `0x${(BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(40, "0").slice(-40)}`;
  let uploads = 0;
  const airdropUpload = (tokenAddress = pick(airdropTokens)) => {
    const leaves = 1 + (uploads++ % 64);
    const { root, dump } = buildStandardTree(Array.from({ length: leaves }, (_, i) => [claimer(i), BigInt(uploads * 1000 + i + 1)] as const));
    const body = JSON.stringify({ tokenAddress, merkleRoot: root, tree: dump });
    return { path: "/api/airdrops", init: { method: "POST", headers: { "content-type": "application/json" }, body } };
  };
  const mix: { name: string; weight: number; make: () => { path: string; init?: RequestInit } }[] = [
    { name: "GET /api/tokens", weight: 4, make: () => ({ path: "/api/tokens?limit=20" }) },
    { name: "GET /api/tokens?q=", weight: 2, make: () => ({ path: `/api/tokens?q=${pick(["dog", "pepe", "ai", "moon", "x"])}&limit=20` }) },
    { name: "GET /api/tokens/fetch-deployed-by-address", weight: 2, make: () => ({ path: `/api/tokens/fetch-deployed-by-address?address=${pick(tokens).address}` }) },
    { name: "GET /api/tokens/fetch-deployed-by-fid", weight: 2, make: () => ({ path: `/api/tokens/fetch-deployed-by-fid?fid=${pick(fids.length ? fids : ["1"])}` }) },
    { name: "GET /api/presales", weight: 1, make: () => ({ path: "/api/presales?limit=20" }) },
    { name: "GET /api/droid/leaderboard", weight: 1, make: () => ({ path: "/api/droid/leaderboard?interval=24h&limit=50" }) },
    { name: "POST /api/tokens/fetch-by-pool-addresses", weight: 1, make: () => ({ path: "/api/tokens/fetch-by-pool-addresses", init: { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ poolAddresses: [pick(pools)] }) } }) },
    { name: "POST /api/airdrops (write)", weight: 2, make: () => airdropUpload() },
    { name: "GET /api/airdrops/claim", weight: 2, make: () => ({ path: `/api/airdrops/claim?tokenAddress=${pick(airdropTokens)}&claimerAddress=${claimer(0)}` }) },
  ];
  const logFile = path.join(tmpdir(), `tls-soak-${process.pid}.log`);
  console.error(`starting next start (log: ${logFile})`);
  const limits = { MERKLE_UPLOADS_PER_HOUR: "1000000", MERKLE_MAX_CONCURRENT_UPLOADS: String(Math.min(16, concurrency)) }; // 16: the setting's maximum
  const server = await startServer(await freePort(), { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: "warn", NODE_ENV: "production", ...limits }, logFile);
  const base = server.baseUrl;
  const samples: number[] = [];
  const latencies = new Map<string, number[]>();
  const errors = new Map<string, number>();
  const errorSamples: string[] = [];
  try {
    for (const token of airdropTokens) {
      // Every airdrop token holds a tree before the claims are read (not measured).
      const { path, init } = airdropUpload(token);
      const res = await fetch(base + path, init);
      if (res.status !== 200) throw new Error(`priming upload answered ${res.status}: ${await res.text()}`);
    }
    const end = Date.now() + seconds * 1000;
    const sampler = setInterval(() => samples.push(Math.round(server.memory().rssBytes / 2 ** 20)), 5000);
    const weighted = mix.flatMap((m) => Array(m.weight).fill(m) as typeof mix);
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < end) {
          const m = pick(weighted);
          const { path, init } = m.make();
          const started = performance.now();
          const outcome = await fetch(base + path, { ...init, signal: AbortSignal.timeout(30_000) }).then(
            async (r) => (r.status < 400 ? (await r.arrayBuffer(), "ok") : `${r.status} ${(await r.text()).slice(0, 200)}`),
            (e: Error) => e.message,
          );
          (latencies.get(m.name) ?? latencies.set(m.name, []).get(m.name)!).push(performance.now() - started);
          if (outcome !== "ok") {
            errors.set(m.name, (errors.get(m.name) ?? 0) + 1);
            if (errorSamples.length < 10) errorSamples.push(`${m.name}: ${outcome}`);
          }
        }
      }),
    );
    clearInterval(sampler);
  } finally {
    await server.stop();
  }
  const q = (a: number[], p: number) => Math.round(a.sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))] ?? 0);
  // RSS moves with the garbage collector's heap sizing: compare the median of the minute after the first fifth
  // (warm-up) with the median of the last minute, not two single samples.
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? 0;
  const fifth = Math.floor(samples.length / 5);
  const warm = median(samples.slice(fifth, fifth + 12));
  const last = median(samples.slice(-12));
  const endpoints = mix.map((m) => ({ name: m.name, requests: latencies.get(m.name)?.length ?? 0, errors: errors.get(m.name) ?? 0, p50: q(latencies.get(m.name) ?? [], 0.5), p99: q(latencies.get(m.name) ?? [], 0.99) }));
  return {
    at: new Date().toISOString(), seconds, concurrency, tokens: tokenCount, requests: endpoints.reduce((s, e) => s + e.requests, 0), errors: endpoints.reduce((s, e) => s + e.errors, 0), errorSamples,
    rssSamplesMb: samples, rssWarmMb: warm, rssEndMb: last, rssGrowthPct: warm ? Math.round(((last - warm) / warm) * 1000) / 10 : 0, endpoints,
  };
}
