// Database faults against the route handlers on a real PostgreSQL server, through a TCP proxy we can cut:
// refused connections, a black hole (accepts, never answers) and a restart, each mid-load. Every answer must be
// a 2xx or a 503 with Retry-After within the deadline, and service must come back without a restart.
import net from "node:net";
import pg from "pg";

type Mode = "up" | "refuse" | "blackhole";
export type FaultResult = { name: string; requests: number; ok: number; e503: number; other5xx: number; hangs: number; maxMs: number; recoveredAfterMs: number | null };

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
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(baseUrl);
  const proxy = await startProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const url = new URL(baseUrl);
  url.host = `127.0.0.1:${proxy.port}`;
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  process.env.LOG_LEVEL = "silent";
  const { resetConfig } = await import("@/lib/config");
  resetConfig();
  const { db, closeDb } = await import("@/db");
  const { migrateToLatest } = await import("@/db/migrate");
  await migrateToLatest(db());
  const { GET: tokens } = await import("@/app/api/tokens/route");
  const { GET: userByAddress } = await import("@/app/api/get-user-by-address/route");
  const { GET: presales } = await import("@/app/api/presales/route");
  const targets = [
    () => tokens(new Request("http://localhost/api/tokens?limit=5"), { params: Promise.resolve({}) } as never),
    () => userByAddress(new Request(`http://localhost/api/get-user-by-address?address=0x${"ab".repeat(20)}`), { params: Promise.resolve({}) } as never),
    () => presales(new Request("http://localhost/api/presales?limit=5"), { params: Promise.resolve({}) } as never),
  ];
  const DEADLINE_MS = 15_000;

  async function load(label: string, count: number, faultAt?: { index: number; mode: Mode }): Promise<FaultResult> {
    const r: FaultResult = { name: label, requests: 0, ok: 0, e503: 0, other5xx: 0, hangs: 0, maxMs: 0, recoveredAfterMs: null };
    for (let i = 0; i < count; i += 10) {
      if (faultAt && i >= faultAt.index && i < faultAt.index + 10) proxy.set(faultAt.mode);
      await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const started = Date.now();
          const answer = await Promise.race([targets[(i + j) % targets.length](), new Promise<null>((res) => setTimeout(() => res(null), DEADLINE_MS))]);
          const ms = Date.now() - started;
          r.requests++;
          r.maxMs = Math.max(r.maxMs, ms);
          if (!answer) return void r.hangs++;
          await answer.text();
          if (answer.status < 300) r.ok++;
          else if (answer.status === 503 && answer.headers.get("retry-after")) r.e503++;
          else if (answer.status >= 500) r.other5xx++;
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
  results.push(await load("baseline", 60));
  for (const mode of ["refuse", "blackhole"] as const) {
    const r = await load(`database ${mode === "refuse" ? "unreachable (connections refused)" : "black hole (no answer)"} mid-load`, 60, { index: 20, mode });
    await recover(r);
    results.push(r);
  }
  const restart = await load("database restarted mid-load (all connections dropped, back at once)", 60, { index: 20, mode: "up" });
  await recover(restart);
  results.push(restart);
  // Statement timeout: another session holds an exclusive lock on tokens, so token reads wait until
  // STATEMENT_TIMEOUT_MS (default 3 s) cancels them (57014): each must answer 503 `timeout` with Retry-After.
  const locker = new pg.Client({ connectionString: baseUrl.replace(/\/[^/]*$/, `/${name}`) });
  await locker.connect();
  await locker.query("BEGIN; LOCK TABLE tokens IN ACCESS EXCLUSIVE MODE");
  const timeout: FaultResult = { name: "statement timeout (tokens locked by another session)", requests: 0, ok: 0, e503: 0, other5xx: 0, hangs: 0, maxMs: 0, recoveredAfterMs: null };
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      const started = Date.now();
      const answer = await Promise.race([targets[0](), new Promise<null>((res) => setTimeout(() => res(null), DEADLINE_MS))]);
      timeout.requests++;
      timeout.maxMs = Math.max(timeout.maxMs, Date.now() - started);
      if (!answer) return void timeout.hangs++;
      const body = await answer.text();
      if (answer.status < 300) timeout.ok++;
      else if (answer.status === 503 && answer.headers.get("retry-after") && body.includes('"timeout"')) timeout.e503++;
      else if (answer.status >= 500) timeout.other5xx++;
    }),
  );
  await locker.query("ROLLBACK");
  await locker.end();
  await recover(timeout);
  results.push(timeout);
  await closeDb();
  await proxy.close();
  const cleanup = new pg.Client({ connectionString: baseUrl });
  await cleanup.connect();
  await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await cleanup.end();
  return results;
}
