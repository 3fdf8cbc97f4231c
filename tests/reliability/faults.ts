// Database faults against the route handlers on a real PostgreSQL server, through a TCP proxy we can cut:
// refused connections, a black hole (accepts, never answers), a restart, each mid-load, and a statement timeout.
// A fault passes when no answer is a 5xx other than a 503 with Retry-After, no request goes without an answer for
// HANG_MS, and a request succeeds again within RECOVER_MS of the fault's end, without a restart; under the
// statement timeout every request must be a 503 `timeout`. (4xx answers are the targets' own: an unknown user
// is 404.)
import net from "node:net";
import pg from "pg";
import { useThrowawayDatabase } from "./database";

type Mode = "up" | "refuse" | "blackhole";
export type FaultResult = {
  name: string;
  requests: number;
  ok: number;
  e503: number;
  other5xx: number;
  other: number;
  hangs: number;
  maxMs: number;
  recoveredAfterMs: number | null;
  criterion: string;
  passed: boolean;
  failures: string[];
};

export const HANG_MS = 15_000;
export const RECOVER_MS = 10_000;

/** Sets criterion, passed and failures of a measured fault. */
function judge(r: FaultResult, options: { recovers: boolean; all503?: boolean }): FaultResult {
  const failures: string[] = [];
  if (r.other5xx) failures.push(`${r.other5xx} 5xx other than a 503 with Retry-After`);
  if (r.hangs) failures.push(`${r.hangs} request(s) without an answer within ${HANG_MS / 1000} s`);
  if (options.recovers && (r.recoveredAfterMs === null || r.recoveredAfterMs > RECOVER_MS)) {
    failures.push(
      r.recoveredAfterMs === null
        ? "service not back within 60 s after the fault ended"
        : `service back only ${r.recoveredAfterMs} ms after the fault ended`,
    );
  }
  if (options.all503 && r.e503 !== r.requests)
    failures.push(`${r.requests - r.e503} of ${r.requests} requests not answered 503 \`timeout\` with Retry-After`);
  const criterion = [
    options.all503 ? "every request 503 `timeout` with Retry-After" : "no 5xx but 503 with Retry-After",
    `no request over ${HANG_MS / 1000} s`,
    ...(options.recovers ? [`back within ${RECOVER_MS / 1000} s`] : []),
  ].join("; ");
  return { ...r, criterion, passed: failures.length === 0, failures };
}

const fresh = (name: string): FaultResult => ({
  name,
  requests: 0,
  ok: 0,
  e503: 0,
  other5xx: 0,
  other: 0,
  hangs: 0,
  maxMs: 0,
  recoveredAfterMs: null,
  criterion: "",
  passed: false,
  failures: [],
});

/** A TCP proxy to PostgreSQL: `up` forwards, `refuse` resets every connection, `blackhole` swallows bytes. */
async function startProxy(target: { host: string; port: number }) {
  let mode: Mode = "up";
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => {});
    if (mode === "refuse") return client.destroy();
    if (mode === "blackhole") return client.on("data", () => {});
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Switching mode drops every open connection, as a database restart or network cut does. */
    set(next: Mode) {
      mode = next;
      for (const s of sockets) s.destroy();
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export async function runDatabaseFaults(baseUrl: string): Promise<FaultResult[]> {
  const name = `tls_faults_${process.pid}`;
  const target = new URL(baseUrl);
  const proxy = await startProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const { closeDb } = await useThrowawayDatabase(baseUrl, name, `127.0.0.1:${proxy.port}`);
  const { GET: tokens } = await import("@/app/api/tokens/route");
  const { GET: userByAddress } = await import("@/app/api/get-user-by-address/route");
  const { GET: presales } = await import("@/app/api/presales/route");
  const targets = [
    () => tokens(new Request("http://localhost/api/tokens?limit=5"), { params: Promise.resolve({}) } as never),
    () =>
      userByAddress(new Request(`http://localhost/api/get-user-by-address?address=0x${"ab".repeat(20)}`), {
        params: Promise.resolve({}),
      } as never),
    () => presales(new Request("http://localhost/api/presales?limit=5"), { params: Promise.resolve({}) } as never),
  ];

  async function load(label: string, count: number, faultAt?: { index: number; mode: Mode }): Promise<FaultResult> {
    const r = fresh(label);
    for (let i = 0; i < count; i += 10) {
      if (faultAt && i >= faultAt.index && i < faultAt.index + 10) proxy.set(faultAt.mode);
      await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const started = Date.now();
          const answer = await Promise.race([
            targets[(i + j) % targets.length](),
            new Promise<null>((res) => setTimeout(() => res(null), HANG_MS)),
          ]);
          const ms = Date.now() - started;
          r.requests++;
          r.maxMs = Math.max(r.maxMs, ms);
          if (!answer) return void r.hangs++;
          await answer.text();
          if (answer.status < 300) r.ok++;
          else if (answer.status === 503 && answer.headers.get("retry-after")) r.e503++;
          else if (answer.status >= 500) r.other5xx++;
          else r.other++;
        }),
      );
    }
    return r;
  }

  async function recover(r: FaultResult) {
    proxy.set("up");
    const started = Date.now();
    while (Date.now() - started < 60_000) {
      const answer = await targets[0]();
      if (answer.status === 200) return void (r.recoveredAfterMs = Date.now() - started);
      await new Promise((res) => setTimeout(res, 250));
    }
  }

  const results: FaultResult[] = [];
  results.push(judge(await load("baseline", 60), { recovers: false }));
  for (const mode of ["refuse", "blackhole"] as const) {
    const r = await load(
      `database ${mode === "refuse" ? "unreachable (connections refused)" : "black hole (no answer)"} mid-load`,
      60,
      { index: 20, mode },
    );
    await recover(r);
    results.push(judge(r, { recovers: true }));
  }
  const restart = await load("database restarted mid-load (all connections dropped, back at once)", 60, {
    index: 20,
    mode: "up",
  });
  await recover(restart);
  results.push(judge(restart, { recovers: true }));
  // Statement timeout: another session holds an exclusive lock on tokens, so token reads wait until
  // STATEMENT_TIMEOUT_MS (default 3 s) cancels them (57014): each must answer 503 `timeout` with Retry-After.
  const locker = new pg.Client({ connectionString: baseUrl.replace(/\/[^/]*$/, `/${name}`) });
  await locker.connect();
  await locker.query("BEGIN; LOCK TABLE tokens IN ACCESS EXCLUSIVE MODE");
  const timeout = fresh("statement timeout (tokens locked by another session)");
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      const started = Date.now();
      const answer = await Promise.race([
        targets[0](),
        new Promise<null>((res) => setTimeout(() => res(null), HANG_MS)),
      ]);
      timeout.requests++;
      timeout.maxMs = Math.max(timeout.maxMs, Date.now() - started);
      if (!answer) return void timeout.hangs++;
      const body = await answer.text();
      if (answer.status < 300) timeout.ok++;
      else if (answer.status === 503 && answer.headers.get("retry-after") && body.includes('"timeout"')) timeout.e503++;
      else if (answer.status >= 500) timeout.other5xx++;
      else timeout.other++;
    }),
  );
  await locker.query("ROLLBACK");
  await locker.end();
  await recover(timeout);
  results.push(judge(timeout, { recovers: true, all503: true }));
  await closeDb();
  await proxy.close();
  const cleanup = new pg.Client({ connectionString: baseUrl });
  await cleanup.connect();
  await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await cleanup.end();
  return results;
}
