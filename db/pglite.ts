// PGlite as a pg-compatible pool: one embedded Postgres, handed out one connection at a time.
import { PGlite, types } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { mkdirSync } from "node:fs";

/** Same value types as the `pg` driver is configured with (see db/index.ts). */
const parsers = {
  [types.INT8]: (v: string) => Number(v),
  [types.NUMERIC]: (v: string) => v,
  [types.TIMESTAMPTZ]: (v: string) => new Date(v),
  [types.TIMESTAMP]: (v: string) => new Date(`${v}Z`),
};

export async function openPglite(dataDir: string | null): Promise<PGlite> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create(dataDir ?? undefined, { extensions: { pg_trgm }, parsers });
  return pg;
}

type QueryResult = { rows: unknown[]; rowCount: number; command: string };

/**
 * Exclusive use of the one PGlite session, first come first served. The app's pool and the embedded
 * socket server (db/embedded-server.ts) share one gate, so a transaction on either side never
 * interleaves with the other's statements.
 */
export class SessionGate {
  private queue: Array<() => void> = [];
  private held = false;

  async acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve) => this.queue.push(resolve));
  }

  release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.held = false;
  }

  get waiting(): number {
    return this.queue.length;
  }
}

/**
 * PGlite is one session, so a "connection" is exclusive use of it: connect() waits its turn at the gate
 * and release() passes it on. A transaction therefore never interleaves with another request's queries.
 */
export class PglitePool {
  readonly gate = new SessionGate();
  constructor(readonly pglite: PGlite) {}

  async connect() {
    await this.gate.acquire();
    let released = false;
    return {
      query: (sql: string, params?: unknown[]) => this.run(sql, params),
      release: () => {
        if (released) return;
        released = true;
        this.gate.release();
      },
    };
  }

  async query(sql: string, params?: unknown[]): Promise<QueryResult> {
    const client = await this.connect();
    try {
      return await client.query(sql, params);
    } finally {
      client.release();
    }
  }

  private async run(sql: string, params?: unknown[]): Promise<QueryResult> {
    const result = params?.length
      ? await this.pglite.query(sql, params)
      : ((await this.pglite.exec(sql)).at(-1) ?? { rows: [], affectedRows: 0 });
    const command = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "";
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length, command };
  }

  async end() {
    await this.pglite.close();
  }
}
