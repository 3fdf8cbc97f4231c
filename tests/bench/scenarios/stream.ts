// GET /api/tokens/stream under 1,000 open streams: the server's CPU and memory while they idle, a burst of 200
// tokens indexed at once (each stream must get each token once, in order; delivery time from the indexing commit),
// and streams that were away for 30 s resuming with Last-Event-ID (each must get exactly what it missed).
// Tokens are indexed as the indexer writes them: the row and its token_events row in one transaction.
// The thousand streams are read by this process, which then spends more CPU than the server: a probe, one more
// stream read by a process of its own and opened last (so served last in each fan-out), times the server alone.
// The load average is recorded with each figure. A run that profiles (no --no-profile) profiles the burst, in the
// server and in this process, and summarises both.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { summariseProfile } from "../profile/summary";
import { defineScenario, type BenchContext } from "./types";

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const BURST = 200;
const AWAY_SECONDS = 30;
const AWAY_STREAMS = 10;
const AWAY_TOKENS = 30;
const IDLE_SECONDS = 10;

type Client = {
  req?: http.ClientRequest;
  lastEventId: string;
  ready: boolean;
  /** contract address and arrival time of each token event, in arrival order */
  got: Array<{ address: string; at: number }>;
  statuses: number[];
  /** bytes read so far */
  bytes: number;
};

const BLOCK_END = Buffer.from("\n\n");
const ID = Buffer.from("id: ");
const TOKEN = Buffer.from("\nevent: token\n");
const READY = Buffer.from("event: ready");
const CONTRACT = Buffer.from('"contract_address":"');

function connect(ctx: BenchContext, client: Client, lastEventId?: string): Promise<void> {
  const url = new URL("/api/tokens/stream", ctx.baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: "text/event-stream", "x-api-key": ctx.apiKey };
    if (lastEventId) headers["last-event-id"] = lastEventId;
    const req = http.get(url, { headers, agent: false }, (res) => {
      client.statuses.push(res.statusCode ?? 0);
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`stream answered ${res.statusCode}`));
        return;
      }
      // Parsed on the bytes (native indexOf), never decoded to text: a thousand streams of a 200-token burst are
      // 300 MB, and decoding them would measure this process rather than the server.
      let pending: Buffer = Buffer.alloc(0);
      res.on("data", (chunk: Buffer) => {
        const now = performance.now();
        client.bytes += chunk.length;
        const buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        let start = 0;
        let end: number;
        while ((end = buf.indexOf(BLOCK_END, start)) >= 0) {
          const idAt = buf.indexOf(ID, start);
          if (idAt >= 0 && idAt < end) client.lastEventId = buf.toString("latin1", idAt + 4, buf.indexOf(10, idAt));
          const tokenAt = buf.indexOf(TOKEN, start);
          if (tokenAt >= 0 && tokenAt < end) {
            const at = buf.indexOf(CONTRACT, tokenAt);
            if (at >= 0 && at < end) {
              const from = at + CONTRACT.length;
              client.got.push({ address: buf.toString("latin1", from, from + 42).toLowerCase(), at: now });
            }
          } else {
            const readyAt = buf.indexOf(READY, start);
            if ((readyAt >= 0 && readyAt < end) || (lastEventId && idAt >= 0 && idAt < end)) client.ready = true;
          }
          start = end + 2;
        }
        pending = buf.subarray(start);
        if (lastEventId) client.ready = true;
      });
      res.on("error", () => {});
      resolve();
    });
    req.on("error", reject);
    client.req = req;
  });
}

/** The probe's program: one stream, read as text; prints "ready", then "<address> <epoch ms>" per token event. */
const PROBE = `
const http = require("node:http");
const [url, key] = process.argv.slice(1);
const now = () => performance.timeOrigin + performance.now();
http.get(url, { headers: { accept: "text/event-stream", "x-api-key": key } }, (res) => {
  if (res.statusCode !== 200) { console.log("status " + res.statusCode); process.exit(1); }
  res.setEncoding("utf8");
  let text = "";
  res.on("data", (chunk) => {
    const at = now();
    text += chunk;
    let end;
    while ((end = text.indexOf("\\n\\n")) >= 0) {
      const frame = text.slice(0, end);
      text = text.slice(end + 2);
      if (frame.includes("event: ready")) console.log("ready");
      const m = frame.includes("event: token") && /"contract_address":"(0x[0-9a-fA-F]{40})"/.exec(frame);
      if (m) console.log(m[1].toLowerCase() + " " + at.toFixed(1));
    }
  });
});
`;

type Probe = { got: Map<string, number>; ready: boolean; stop(): void };

/** One more stream, in a process of its own: when it gets each token, without this process's load. */
function startProbe(ctx: BenchContext): Probe {
  const url = new URL("/api/tokens/stream", ctx.baseUrl).toString();
  const child = spawn(process.execPath, ["-e", PROBE, url, ctx.apiKey], { stdio: ["ignore", "pipe", "inherit"] });
  const probe: Probe = { got: new Map(), ready: false, stop: () => child.kill() };
  let rest = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "ready") probe.ready = true;
      const [address, at] = line.split(" ");
      if (at) probe.got.set(address, Number(at));
    }
  });
  return probe;
}

/** Whether the server loaded the run's profiler (tests/bench/profile/preload.cjs): SIGUSR2 would end it otherwise. */
function serverProfileDir(pid: number): string | undefined {
  try {
    const env = readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
    return env.find((v) => v.startsWith("BENCH_PROFILE_DIR="))?.slice("BENCH_PROFILE_DIR=".length) || undefined;
  } catch {
    return undefined;
  }
}

/** Stops the profiler the burst started; moves the busiest process's profile beside the others, and summarises it. */
async function burstProfile(ctx: BenchContext, dir: string, before: Set<string>, deliveries: number) {
  process.kill(-ctx.server.pid, "SIGUSR2");
  let fresh: string[] = [];
  for (let i = 0; i < 60 && !fresh.length; i++) {
    await new Promise((r) => setTimeout(r, 500));
    fresh = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile") && !before.has(f));
  }
  if (!fresh.length) return;
  await new Promise((r) => setTimeout(r, 500));
  fresh = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile") && !before.has(f));
  const busiest = fresh.map((f) => path.join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0];
  const file = path.join(dir, "stream-burst.cpuprofile");
  renameSync(busiest, file);
  const summary = summariseProfile(file, deliveries);
  ctx.record("burst profile", path.relative(process.cwd(), file));
  for (const a of summary.areas.slice(0, 6)) ctx.record(`burst CPU: ${a.area}`, `${a.share} %`);
  for (const f of summary.functions.slice(0, 8)) ctx.record(`burst CPU: ${f.name} (${f.where})`, `${f.share} %`);
}

/** Starts this process's CPU profiler; what it returns stops it, writes the profile and records its summary. */
async function startClientProfile(ctx: BenchContext, dir: string, deliveries: number) {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    const file = path.join(dir, "stream-burst-client.cpuprofile");
    writeFileSync(file, JSON.stringify(profile));
    const summary = summariseProfile(file, deliveries);
    for (const a of summary.areas.slice(0, 4)) ctx.record(`client burst CPU: ${a.area}`, `${a.share} %`);
    for (const f of summary.functions.slice(0, 6))
      ctx.record(`client burst CPU: ${f.name} (${f.where})`, `${f.share} %`);
  };
}

/** utime + stime (ms) of the server's process group, and its RSS (bytes). */
function serverUsage(pgid: number): { cpuMs: number; rss: number } {
  const tick = 100; // USER_HZ on Linux
  let cpu = 0;
  let rss = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue; // pgrp
      cpu += ((Number(fields[11]) + Number(fields[12])) * 1000) / tick;
      rss += Number(fields[21]) * 4096;
    } catch {
      // the process ended
    }
  }
  return { cpuMs: cpu, rss };
}

async function cpuOver(pgid: number, seconds: number): Promise<number> {
  const before = serverUsage(pgid).cpuMs;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return (serverUsage(pgid).cpuMs - before) / seconds; // ms of CPU per second
}

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Indexes one token as the indexer does; resolves with the time its transaction committed. */
async function indexToken(ctx: BenchContext, address: string, n: number): Promise<number> {
  await ctx.pool.query(
    `WITH t AS (
       INSERT INTO tokens (deployed_at, tx_hash, contract_address, name, symbol, pool_address, requestor_fid, msg_sender,
         admin, pair, chain_id, metadata, social_context, tags)
       VALUES (now(), $2, $1, $3, $4, $5, $6, $7, $7, 'WETH', 8453, '{"description":"","socialMediaUrls":[],"auditUrls":[]}',
         '{"interface":"bench","platform":"farcaster","messageId":"","id":""}',
         '{"champagne":false,"verified":false,"knownInterfaceDeployer":false}')
       RETURNING id, chain_id, contract_address)
     INSERT INTO token_events (token_id, chain_id, contract_address) SELECT id, chain_id, contract_address FROM t`,
    [
      address,
      `0x${n.toString(16).padStart(64, "0")}`,
      `Stream ${n}`,
      `ST${n}`,
      `0x${(n + 1).toString(16).padStart(64, "0")}`,
      1 + (n % 1000),
      `0x${"5".repeat(40)}`,
    ],
  );
  return performance.now();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Addresses of the given tokens in the order the stream sends them (position order). */
async function streamOrder(ctx: BenchContext, addresses: string[]): Promise<string[]> {
  const { rows } = await ctx.pool.query(
    "SELECT contract_address FROM token_events WHERE contract_address = ANY($1) ORDER BY xid, seq",
    [addresses],
  );
  return rows.map((r: { contract_address: string }) => r.contract_address);
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export default defineScenario({
  name: "stream",
  description: `GET /api/tokens/stream: ${STREAMS} streams, a burst of ${BURST} tokens, resumes after ${AWAY_SECONDS} s away`,
  requests: () => [],
  async run(ctx) {
    const pgid = ctx.server.pid;
    const prefix = Math.floor(Math.random() * 0xffffff)
      .toString(16)
      .padStart(6, "0");
    const addressOf = (n: number) => `0x${prefix}${n.toString(16).padStart(34, "0")}`;
    const base = Math.floor(Date.now() / 1000) * 1000;
    await new Promise((r) => setTimeout(r, 2000));
    const idleBefore = await cpuOver(pgid, IDLE_SECONDS);
    const rssBefore = serverUsage(pgid).rss;

    const clients: Client[] = Array.from({ length: STREAMS }, () => ({
      lastEventId: "",
      ready: false,
      got: [],
      statuses: [],
      bytes: 0,
    }));
    for (let i = 0; i < clients.length; i += 100)
      await Promise.all(clients.slice(i, i + 100).map((c) => connect(ctx, c)));
    await waitFor(() => clients.every((c) => c.ready), 60_000, "every stream's ready event");
    const probe = startProbe(ctx);
    await waitFor(() => probe.ready, 30_000, "the probe's ready event");
    await new Promise((r) => setTimeout(r, 2000));
    const idleWith = await cpuOver(pgid, IDLE_SECONDS);
    const rssWith = serverUsage(pgid).rss;
    ctx.record(`idle CPU, 0 streams`, Number(idleBefore.toFixed(2)), "ms/s");
    ctx.record(`idle CPU, ${STREAMS} streams`, Number(idleWith.toFixed(2)), "ms/s");
    ctx.record("idle CPU per 1,000 streams", Number((((idleWith - idleBefore) * 1000) / STREAMS).toFixed(2)), "ms/s");
    ctx.record(
      "RSS per 1,000 streams",
      Number(((((rssWith - rssBefore) / STREAMS) * 1000) / 2 ** 20).toFixed(1)),
      "MiB",
    );
    ctx.record("server RSS with the streams open", Number((rssWith / 2 ** 20).toFixed(0)), "MiB");
    ctx.record("load average while idle", os.loadavg()[0].toFixed(2));

    // The burst: 200 tokens indexed at once, 8 transactions at a time.
    const burst = Array.from({ length: BURST }, (_, i) => addressOf(base + i));
    const committed = new Map<string, number>();
    const profileDir = serverProfileDir(pgid);
    const profilesBefore = new Set(profileDir ? readdirSync(profileDir) : []);
    if (profileDir) process.kill(-pgid, "SIGUSR2");
    const stopClientProfile = profileDir ? await startClientProfile(ctx, profileDir, BURST * STREAMS) : undefined;
    const cpuBurst0 = serverUsage(pgid).cpuMs;
    const clientCpu0 = process.cpuUsage();
    const bytes0 = clients.reduce((sum, c) => sum + c.bytes, 0);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < burst.length) {
          const i = next++;
          committed.set(burst[i], await indexToken(ctx, burst[i], base + i));
        }
      }),
    );
    const indexedMs = performance.now() - t0;
    await waitFor(() => clients.every((c) => c.got.length >= BURST), 60_000, "every stream to get the burst");
    const cpuBurst = serverUsage(pgid).cpuMs - cpuBurst0;
    const clientCpu = process.cpuUsage(clientCpu0);
    await stopClientProfile?.();
    const burstBytes = clients.reduce((sum, c) => sum + c.bytes, 0) - bytes0;
    const loadAtBurst = os.loadavg()[0].toFixed(2);
    await waitFor(() => probe.got.size >= BURST, 30_000, "the probe to get the burst");
    probe.stop();
    if (profileDir) await burstProfile(ctx, profileDir, profilesBefore, BURST * (STREAMS + 1));
    const order = await streamOrder(ctx, burst);
    let wrong = 0;
    const delays: number[] = [];
    for (const c of clients) {
      if (
        !sameList(
          c.got.map((g) => g.address),
          order,
        )
      )
        wrong += 1;
      for (const g of c.got) delays.push(g.at - committed.get(g.address)!);
    }
    delays.sort((a, b) => a - b);
    const probeDelays = burst
      .map((a) => probe.got.get(a)! - (performance.timeOrigin + committed.get(a)!))
      .sort((a, b) => a - b);
    ctx.record("burst indexed in", Math.round(indexedMs), "ms");
    ctx.record("streams that got every token once, in order", `${STREAMS - wrong} of ${STREAMS}`);
    ctx.record("delivery p50 (commit to client)", Math.round(percentile(delays, 50)), "ms");
    ctx.record("delivery p95", Math.round(percentile(delays, 95)), "ms");
    ctx.record("delivery max", Math.round(delays.at(-1)!), "ms");
    ctx.record("probe (own process, served last) delivery p50", Math.round(percentile(probeDelays, 50)), "ms");
    ctx.record("probe delivery p95", Math.round(percentile(probeDelays, 95)), "ms");
    ctx.record("probe delivery max", Math.round(probeDelays.at(-1)!), "ms");
    ctx.record("bytes sent for the burst, all streams", Number((burstBytes / 2 ** 20).toFixed(0)), "MiB");
    ctx.record("server CPU for the burst", Math.round(cpuBurst), "ms");
    ctx.record("client CPU for the burst (this process)", Math.round((clientCpu.user + clientCpu.system) / 1000), "ms");
    ctx.record("load average at the burst", loadAtBurst);

    // Away for 30 s while tokens keep coming, then back with Last-Event-ID.
    const away = clients.slice(0, AWAY_STREAMS);
    const resumeFrom = away.map((c) => c.lastEventId);
    for (const c of away) c.req?.destroy();
    const missed = Array.from({ length: AWAY_TOKENS }, (_, i) => addressOf(base + BURST + i));
    for (const [i, address] of missed.entries()) {
      await indexToken(ctx, address, base + BURST + i);
      await new Promise((r) => setTimeout(r, (AWAY_SECONDS * 1000) / AWAY_TOKENS));
    }
    const back: Client[] = away.map(() => ({ lastEventId: "", ready: false, got: [], statuses: [], bytes: 0 }));
    await Promise.all(back.map((c, i) => connect(ctx, c, resumeFrom[i])));
    await waitFor(() => back.every((c) => c.got.length >= AWAY_TOKENS), 30_000, "the resumed streams to catch up");
    await new Promise((r) => setTimeout(r, 2000)); // anything more would be a duplicate
    const missedOrder = await streamOrder(ctx, missed);
    const exact = back.filter((c) =>
      sameList(
        c.got.map((g) => g.address),
        missedOrder,
      ),
    ).length;
    ctx.record(`resumed after ${AWAY_SECONDS} s: got exactly what they missed`, `${exact} of ${AWAY_STREAMS}`);
    const stayed = clients.slice(AWAY_STREAMS).every((c) => c.got.length === BURST + AWAY_TOKENS);
    ctx.record("streams that stayed got the later tokens once", stayed ? "yes" : "no");
    ctx.record("load average at the end", os.loadavg()[0].toFixed(2));

    for (const c of [...clients, ...back]) c.req?.destroy();
    if (wrong || exact !== AWAY_STREAMS || !stayed) throw new Error("a stream missed, repeated or reordered tokens");
  },
});
