// The soak: `next start` on the bench database (BENCH_DATABASE_URL, prepared by `npm run bench`), a mix of reads
// and writes for SOAK_SECONDS (default 300) at SOAK_CONCURRENCY, RSS sampled every 5 s; p50/p99 per endpoint.
// The writes are airdrop tree uploads (streamed parse, tiles, replacement of the token's previous tree) for
// AIRDROP_TOKENS tokens launched with the airdrop extension on a local chain served on 127.0.0.1 (uploads are
// admitted only when the chain holds their root) and indexed for this run; their claims are read back in the
// same mix. Three kinds, each with its expected answer: a new root set on chain by the airdrop's admin, then its
// tree (200, stored); the token's current tree again (200 `unchanged`); a forged tree the chain does not hold
// (422). Any other answer is an error. Passing: no error, and at the end every token's stored tree is the one
// its airdrop holds on chain. Three upload guards are set for this load, or they would answer by design:
// MERKLE_UPLOADS_PER_HOUR (per client IP: one client here; else 429), and MERKLE_MAX_CONCURRENT_UPLOADS and
// MERKLE_MAX_UPLOADS_PER_CLIENT, raised to SOAK_CONCURRENCY up to 16 (they bound the memory of million-leaf trees and
// one client's share of it; the soak's trees have at most 64 leaves; else 503 and 429 with Retry-After). The tokens'
// rows and trees are removed at the end.
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Address } from "viem";
import { buildIsPresent, freePort, nextBuild, startServer } from "@/tests/bench/server";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { startAirdropChain } from "@/tests/helpers/airdrop-chain";

const AIRDROP_TOKENS = 20;

export type SoakResult = {
  at: string;
  seconds: number;
  concurrency: number;
  tokens: number;
  requests: number;
  errors: number;
  errorSamples: string[];
  rssSamplesMb: number[];
  rssWarmMb: number;
  rssEndMb: number;
  rssGrowthPct: number;
  endpoints: { name: string; requests: number; errors: number; p50: number; p99: number }[];
  airdropTokens: number;
  /** Tokens whose stored tree at the end was not the one their airdrop holds on chain (token: served / chain). */
  rootMismatches: string[];
  /** New roots the airdrops' admin set on chain during the soak, and the median time of one (transaction and receipt). */
  rootChanges: number;
  rootChangeMedianMs: number;
  /** The machine's 1-minute load average when the load started and when it ended: on a shared machine, whether others ran too. */
  loadAverage?: [number, number];
  passed: boolean;
  failures: string[];
};

type Tree = ReturnType<typeof buildStandardTree>;
type Made = { path: string; init?: RequestInit; expect?: (status: number, text: string) => string | null };
/** null: nothing to send for this entry now (no token ready); the client draws again. */
type Maker = () => Made | null;

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
  const claimer = (i: number) => `0x${(BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(40, "0").slice(-40)}`;
  let trees = 0;
  /** A tree of 1 to 64 leaves whose root no other tree has; claimer(0) is in every one, for the claim reads. */
  const freshTree = (): Tree => {
    const leaves = 1 + (trees++ % 64);
    return buildStandardTree(
      Array.from({ length: leaves }, (_, i) => [claimer(i), BigInt(trees * 1000 + i + 1)] as const),
    );
  };
  const uploadInit = (tokenAddress: string, tree: Tree): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tokenAddress, merkleRoot: tree.root, tree: tree.dump }),
  });
  const answered = (status: number, unchanged: boolean) => (got: number, text: string) => {
    if (got !== status) return `${got} ${text.slice(0, 200)}`;
    if (status !== 200) return null;
    const isUnchanged = (JSON.parse(text) as { unchanged?: boolean }).unchanged === true;
    return isUnchanged === unchanged
      ? null
      : `200 ${unchanged ? "stored again instead of unchanged" : "unchanged instead of stored"}`;
  };

  // Process-side state (this process writes the tokens rows and reads the chain): the bench database, the chain.
  process.env.DATABASE_URL = dbUrl;
  process.env.LOG_LEVEL ??= "warn";
  const { resetConfig } = await import("@/lib/core/config");
  const { closeDb, db } = await import("@/db");
  const { migrateToLatest } = await import("@/db/migrate");
  resetConfig();
  await closeDb();
  // The server does not migrate (next start alone): a tree of this checkout may have migrations the database lacks.
  await migrateToLatest(db());
  const chain = await startAirdropChain();
  // One write per token at a time: a new root and its upload, or the current tree again, must not interleave with
  // another write to the same token (the chain would hold another root by the time the upload is read). New
  // roots are set on chain by the airdrops' admin loop below, off the clients' path: a client never waits for a
  // transaction, and a token whose new root is set (`pending`) takes only that tree next.
  type Drop = { token: Address; tree: Tree; pending?: Tree; busy: boolean };
  const drops: Drop[] = [];
  const claim = (d: Drop | undefined, made: (d: Drop) => Made, after?: (d: Drop) => void): Made | null => {
    if (!d) return null;
    d.busy = true;
    const m = made(d);
    return {
      ...m,
      expect: (status, text) => {
        d.busy = false;
        after?.(d);
        return m.expect!(status, text);
      },
    };
  };
  const pickWhere = (test: (d: Drop) => boolean) => {
    const found = drops.filter((d) => !d.busy && test(d));
    return found.length ? pick(found) : undefined;
  };
  const PENDING_MAX = 4;
  const setRootMs: number[] = [];
  let adminRunning = false;
  const adminLoop = async () => {
    while (adminRunning) {
      const d = drops.filter((x) => x.pending).length < PENDING_MAX ? pickWhere((x) => !x.pending) : undefined;
      if (!d) {
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      d.busy = true;
      try {
        const tree = freshTree();
        const started = performance.now();
        await chain.setRoot(d.token, tree.root);
        setRootMs.push(performance.now() - started);
        d.pending = tree;
      } finally {
        d.busy = false;
      }
    }
  };
  const mix: { name: string; weight: number; make: Maker }[] = [
    { name: "GET /api/tokens", weight: 4, make: () => ({ path: "/api/tokens?limit=20" }) },
    {
      name: "GET /api/tokens?q=",
      weight: 2,
      make: () => ({ path: `/api/tokens?q=${pick(["dog", "pepe", "ai", "moon", "x"])}&limit=20` }),
    },
    {
      name: "GET /api/tokens/fetch-deployed-by-address",
      weight: 2,
      make: () => ({ path: `/api/tokens/fetch-deployed-by-address?address=${pick(tokens).address}` }),
    },
    {
      name: "GET /api/tokens/fetch-deployed-by-fid",
      weight: 2,
      make: () => ({ path: `/api/tokens/fetch-deployed-by-fid?fid=${pick(fids.length ? fids : ["1"])}` }),
    },
    { name: "GET /api/presales", weight: 1, make: () => ({ path: "/api/presales?limit=20" }) },
    {
      name: "GET /api/droid/leaderboard",
      weight: 1,
      make: () => ({ path: "/api/droid/leaderboard?interval=24h&limit=50" }),
    },
    {
      name: "POST /api/tokens/fetch-by-pool-addresses",
      weight: 1,
      make: () => ({
        path: "/api/tokens/fetch-by-pool-addresses",
        init: {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ poolAddresses: [pick(pools)] }),
        },
      }),
    },
    {
      name: "POST /api/airdrops (new root on chain: 200 stored)",
      weight: 1,
      make: () =>
        claim(
          pickWhere((d) => d.pending !== undefined),
          (d) => ({ path: "/api/airdrops", init: uploadInit(d.token, d.pending!), expect: answered(200, false) }),
          (d) => {
            d.tree = d.pending!;
            d.pending = undefined;
          },
        ),
    },
    {
      name: "POST /api/airdrops (same tree again: 200 unchanged)",
      weight: 1,
      make: () =>
        claim(
          pickWhere((d) => d.pending === undefined),
          (d) => ({ path: "/api/airdrops", init: uploadInit(d.token, d.tree), expect: answered(200, true) }),
        ),
    },
    {
      name: "POST /api/airdrops (forged root: 422)",
      weight: 1,
      make: () => ({
        path: "/api/airdrops",
        init: uploadInit(pick(drops).token, freshTree()),
        expect: answered(422, false),
      }),
    },
    {
      name: "GET /api/airdrops/claim",
      weight: 2,
      make: () => ({ path: `/api/airdrops/claim?tokenAddress=${pick(drops).token}&claimerAddress=${claimer(0)}` }),
    },
  ];
  const logFile = path.join(tmpdir(), `tls-soak-${process.pid}.log`);
  const limits = {
    MERKLE_UPLOADS_PER_HOUR: "1000000",
    MERKLE_MAX_CONCURRENT_UPLOADS: String(Math.min(16, concurrency)),
    MERKLE_MAX_UPLOADS_PER_CLIENT: String(Math.min(16, concurrency)),
  }; // 16: the settings' maximum
  const samples: number[] = [];
  const latencies = new Map<string, number[]>();
  const errors = new Map<string, number>();
  const errorSamples: string[] = [];
  const rootMismatches: string[] = [];
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let loadStart = 0;
  let loadEnd = 0;
  try {
    console.error(`launching ${AIRDROP_TOKENS} tokens with an airdrop on the local chain (${chain.chain.rpcUrl})`);
    for (let i = 0; i < AIRDROP_TOKENS; i++) {
      const tree = freshTree();
      drops.push({ token: await chain.launch(tree.root), tree, busy: false });
    }
    const running = (server = await startServer(
      await freePort(),
      { ...process.env, ...chain.env, DATABASE_URL: dbUrl, LOG_LEVEL: "warn", NODE_ENV: "production", ...limits },
      logFile,
    ));
    const base = running.baseUrl;
    for (const d of drops) {
      // Every airdrop token holds a tree before the claims are read (not measured).
      const res = await fetch(`${base}/api/airdrops`, uploadInit(d.token, d.tree));
      if (res.status !== 200) throw new Error(`priming upload answered ${res.status}: ${await res.text()}`);
    }
    adminRunning = true;
    const admin = adminLoop();
    loadStart = Math.round(loadavg()[0] * 100) / 100;
    const end = Date.now() + seconds * 1000;
    const sampler = setInterval(() => samples.push(Math.round(running.memory().rssBytes / 2 ** 20)), 5000);
    const weighted = mix.flatMap((m) => Array(m.weight).fill(m) as typeof mix);
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < end) {
          let m = pick(weighted);
          let made = m.make();
          while (!made) made = (m = pick(weighted)).make();
          const { path, init, expect } = made;
          const started = performance.now();
          const outcome = await fetch(base + path, { ...init, signal: AbortSignal.timeout(30_000) }).then(
            async (r) => {
              if (expect) return expect(r.status, await r.text()) ?? "ok";
              if (r.status >= 400) return `${r.status} ${(await r.text()).slice(0, 200)}`;
              await r.arrayBuffer();
              return "ok";
            },
            (e: Error) => {
              expect?.(0, "");
              return e.message;
            },
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
    loadEnd = Math.round(loadavg()[0] * 100) / 100;
    adminRunning = false;
    await admin;
    for (const d of drops.filter((x) => x.pending)) {
      // Roots set on chain after the last upload of their token: their trees go in now, so every stored tree can
      // be compared with the chain's.
      const res = await fetch(`${base}/api/airdrops`, uploadInit(d.token, d.pending!));
      if (res.status !== 200) rootMismatches.push(`${d.token}: its pending tree answered ${res.status}`);
      d.tree = d.pending!;
      d.pending = undefined;
    }
    for (const d of drops) {
      const onChain = (await chain.root(d.token))?.toLowerCase();
      const served = await fetch(`${base}/api/airdrops/allocations?tokenAddress=${d.token}&limit=1`).then(
        (r) => r.json() as Promise<{ merkleRoot?: string }>,
      );
      if (served.merkleRoot?.toLowerCase() !== onChain)
        rootMismatches.push(`${d.token}: ${served.merkleRoot} / ${onChain}`);
    }
  } finally {
    await server?.stop();
    await chain
      .forget(drops.map((d) => d.token))
      .catch((e) => console.error(`could not remove the soak's tokens: ${e}`));
    await chain.close();
    await closeDb();
  }
  const q = (a: number[], p: number) =>
    Math.round(a.sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))] ?? 0);
  // RSS moves with the garbage collector's heap sizing: compare the median of the minute after the first fifth
  // (warm-up) with the median of the last minute, not two single samples.
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? 0;
  const fifth = Math.floor(samples.length / 5);
  const warm = median(samples.slice(fifth, fifth + 12));
  const last = median(samples.slice(-12));
  const endpoints = mix.map((m) => ({
    name: m.name,
    requests: latencies.get(m.name)?.length ?? 0,
    errors: errors.get(m.name) ?? 0,
    p50: q(latencies.get(m.name) ?? [], 0.5),
    p99: q(latencies.get(m.name) ?? [], 0.99),
  }));
  const errorCount = endpoints.reduce((s, e) => s + e.errors, 0);
  const failures = [
    ...(errorCount ? [`${errorCount} answer(s) other than expected`] : []),
    ...(rootMismatches.length ? [`${rootMismatches.length} token(s) whose stored tree is not the chain's root`] : []),
  ];
  return {
    at: new Date().toISOString(),
    seconds,
    concurrency,
    tokens: tokenCount,
    requests: endpoints.reduce((s, e) => s + e.requests, 0),
    errors: errorCount,
    errorSamples,
    rssSamplesMb: samples,
    rssWarmMb: warm,
    rssEndMb: last,
    rssGrowthPct: warm ? Math.round(((last - warm) / warm) * 1000) / 10 : 0,
    endpoints,
    airdropTokens: AIRDROP_TOKENS,
    rootMismatches,
    rootChanges: setRootMs.length,
    rootChangeMedianMs: Math.round(median(setRootMs)),
    loadAverage: [loadStart, loadEnd],
    passed: failures.length === 0,
    failures,
  };
}
