// Serves this process's embedded PGlite over the Postgres wire protocol while the service runs, so the npm
// commands (apikey, db:seed, dev:token, db:migrate) work in a second terminal: they find
// DATA_DIR/embedded-server.json and connect with `pg` (db/index.ts).
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import type { PGlite } from "@electric-sql/pglite";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { sql } from "kysely";
import { db, embeddedServerFile, ownedPglite } from "@/db";
import type { SessionGate } from "@/db/pglite";
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { remember } from "@/lib/core/remember";

/** Connections the socket server accepts at once (the commands use one each; psql sessions count too). */
export const EMBEDDED_MAX_CONNECTIONS = 16;

const READY_FOR_QUERY = 0x5a; // 'Z'
const TERMINATE = 0x58; // 'X'

/**
 * Replaces pglite-socket's own query queue. That queue runs one protocol message at a time and keeps a
 * socket's transaction together only against other sockets; it knows nothing of the app's own queries
 * (PglitePool), and it lets two sockets' extended-protocol sequences (Parse/Bind/Execute ... Sync)
 * interleave outside a transaction. Here a socket takes the app's SessionGate with its first message and
 * keeps it until PGlite answers ReadyForQuery with status Idle: the whole sequence, or the whole
 * transaction, runs with nobody else on the session.
 */
export class GatedProtocolQueue {
  private owner: number | null = null;
  private status = "I";
  private readonly waiting = new Set<number>();
  private readonly chains = new Map<number, Promise<number>>();
  private readonly gone = new Set<number>();

  constructor(
    private readonly pglite: PGlite,
    private readonly gate: SessionGate,
  ) {}

  /** A handler's messages run strictly in order (its socket can deliver a second chunk before the first is done). */
  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const previous = this.chains.get(handlerId) ?? Promise.resolve(0);
    const next = previous.catch(() => 0).then(() => this.process(handlerId, message, onData));
    this.chains.set(handlerId, next);
    return next;
  }

  private async process(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    if (this.owner !== handlerId) {
      this.waiting.add(handlerId);
      try {
        await this.gate.acquire();
      } finally {
        this.waiting.delete(handlerId);
      }
      if (this.gone.delete(handlerId)) {
        this.gate.release(); // it left while waiting its turn
        throw new Error("Handler disconnected");
      }
      this.owner = handlerId;
    }
    let bytes = 0;
    let tail: Uint8Array = new Uint8Array(0); // the last 6 bytes of the answer: a ReadyForQuery message when it is one
    await this.pglite.runExclusive(() =>
      this.pglite.execProtocolRawStream(message, {
        onRawData: (data) => {
          bytes += data.length;
          tail = data.length >= 6 ? data.slice(-6) : concatTail(tail, data);
          onData(data);
        },
      }),
    );
    const status = readyForQueryStatus(tail);
    if (status) this.status = status;
    if ((status === "I" || message[0] === TERMINATE) && this.status === "I") this.handOver();
    return bytes;
  }

  private handOver() {
    this.owner = null;
    this.gate.release();
  }

  getQueueLength(): number {
    return this.waiting.size;
  }

  clearQueueForHandler(handlerId: number): void {
    if (this.waiting.has(handlerId)) this.gone.add(handlerId);
    this.chains.delete(handlerId);
  }

  /** A socket that leaves mid-sequence or mid-transaction: roll its work back and hand the session over. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    try {
      await this.pglite.exec("ROLLBACK");
    } catch (error) {
      log.warn("embedded server: rollback after a disconnect failed", { error });
    }
    this.status = "I";
    this.handOver();
  }
}

function concatTail(tail: Uint8Array, data: Uint8Array): Uint8Array {
  const joined = new Uint8Array(tail.length + data.length);
  joined.set(tail);
  joined.set(data, tail.length);
  return joined.slice(-6);
}

/** 'Z', int32 length 5, status byte (I idle, T in transaction, E failed transaction), or null. */
function readyForQueryStatus(tail: Uint8Array): string | null {
  if (tail.length !== 6 || tail[0] !== READY_FOR_QUERY) return null;
  if (tail[1] !== 0 || tail[2] !== 0 || tail[3] !== 0 || tail[4] !== 5) return null;
  const status = String.fromCharCode(tail[5]);
  return status === "I" || status === "T" || status === "E" ? status : null;
}

export type EmbeddedServer = { port: number; stop(): Promise<void> };

const holder = remember("embedded-server", (): { server?: Promise<EmbeddedServer | null> } => ({}));

/**
 * Starts the socket server when this process owns the embedded database (no DATABASE_URL, and no other
 * running service already serving the same DATA_DIR), and publishes {pid, port} in DATA_DIR. Idempotent.
 */
export function startEmbeddedServer(): Promise<EmbeddedServer | null> {
  holder.server ??= start().catch((error) => {
    holder.server = undefined;
    throw error;
  });
  return holder.server;
}

async function start(): Promise<EmbeddedServer | null> {
  const cfg = config();
  if (cfg.DATABASE_URL) return null;
  await sql`SELECT 1`.execute(db()); // opens the pool now: PGlite here, or a client of another service
  const pool = ownedPglite();
  if (!pool) return null;
  const server = new PGLiteSocketServer({
    db: pool.pglite,
    host: "127.0.0.1",
    port: cfg.EMBEDDED_DB_PORT,
    maxConnections: EMBEDDED_MAX_CONNECTIONS,
  });
  const internals = server as unknown as { queryQueue?: unknown };
  if (!internals.queryQueue)
    throw new Error("@electric-sql/pglite-socket changed: no queryQueue to replace (see GatedProtocolQueue)");
  internals.queryQueue = new GatedProtocolQueue(pool.pglite, pool.gate);
  await server.start();
  const port = Number(server.getServerConn().split(":").pop());
  publish(port);
  const unpublishOnExit = () => unpublish();
  process.once("exit", unpublishOnExit);
  log.info("embedded database served over the Postgres protocol", {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
  });
  return {
    port,
    async stop() {
      process.off("exit", unpublishOnExit);
      unpublish();
      await server.stop();
      holder.server = undefined;
    },
  };
}

function publish(port: number) {
  const file = embeddedServerFile();
  writeFileSync(`${file}.${process.pid}`, JSON.stringify({ pid: process.pid, port }));
  renameSync(`${file}.${process.pid}`, file); // atomic: a command never reads half a file
}

/** Removes the file only if it is still ours (a newer service may have replaced it). Synchronous: runs on exit. */
function unpublish() {
  const file = embeddedServerFile();
  try {
    if (existsSync(file) && JSON.parse(readFileSync(file, "utf8")).pid === process.pid) rmSync(file, { force: true });
  } catch {
    // best effort on the way out
  }
}
