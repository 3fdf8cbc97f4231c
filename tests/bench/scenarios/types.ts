// The scenario interface of `npm run bench` (tests/bench/run.ts).
//
// A scenario is a file tests/bench/scenarios/<name>.ts whose default export is one scenario or an array
// of them (`export default defineScenario({...})`). Files starting with "_" and this file are skipped.
// `npm run bench -- --scenarios a,b` picks scenarios by name ("tokens-*" matches a prefix).
//
// For each scenario the harness, against a built `next start` over the seeded bench database:
//   1. calls `setup(ctx)` once, if given (upload a tree, create rows; measure save time with ctx.record);
//   2. calls `requests(ctx)`: several requests, with parameters drawn from the seeded data (look ids and
//      addresses up through ctx.pool, e.g. `SELECT requestor_fid FROM tokens ... LIMIT 20`). Every
//      connection of the load generator (autocannon) walks the list in order, round and round;
//   3. measures, each with ctx.connections concurrent clients for ctx.durationSeconds after a short warm-up:
//        - the framework floor: GET /api/ping (route() around a constant) with the same load;
//        - the scenario's requests: p50, p99, requests/s, and how many answers were not 2xx;
//        - the database floor, when `sql(ctx)` is given: for each request, every statement the service sends
//          for it (transaction statements included), with its values, straight through a `pg` Pool, in the
//          service's order: round after round, the statements of one round together (SqlRequest). Same
//          concurrency and duration as the requests, rotated like them;
//        - extra floors, when `floors(ctx)` is given: in-process functions (e.g. getProof on a loaded tree)
//          run in the same loop;
//   4. calls `teardown(ctx)`, if given.
// The table prints p50 − (db floor p50 + framework floor p50): what the endpoint adds beyond its SQL
// and the framework. Non-2xx answers are counted and flagged (a 429 or 400 means the scenario is wrong).
import type pg from "pg";
import type { AirdropChain } from "@/tests/helpers/airdrop-chain";

export type BenchRequest = {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** Path and query, e.g. "/api/tokens?q=based". */
  path: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON (content-type set for you). */
  body?: unknown;
};

/**
 * A statement; `queued`: sent on the request's client without waiting for its answer (the driver keeps a
 * connection's statements in order), as the service sends a search's BEGIN and COMMIT (tokens/budget.ts).
 */
export type SqlQuery = { text: string; values?: unknown[]; queued?: boolean };

/**
 * The SQL of one request as rounds: the statements of a round go out together (the service sends them
 * concurrently), rounds one after another. The first statement of each round runs on one client held for the
 * whole request, so a transaction (BEGIN ... COMMIT, one statement per round) stays on its connection.
 */
export type SqlRequest = SqlQuery[][];

/** An in-process floor: `run` is called over and over by ctx.connections concurrent loops. */
export type ExtraFloor = { name: string; run: () => unknown };

export type ServerProcess = {
  pid: number;
  /** Resident memory of the server process tree now, and its peak since start or the last resetPeak(). */
  memory(): { rssBytes: number; peakRssBytes: number };
  /** Resets the kernel's peak-RSS counter (/proc/<pid>/clear_refs); false when the kernel refuses. */
  resetPeak(): boolean;
  /** Runs fn while sampling the server's RSS every 20 ms; the peak seen is returned beside fn's result. */
  sampleMemory<T>(fn: () => Promise<T>): Promise<{ result: T; peakRssBytes: number }>;
};

export type BenchContext = {
  /** The bench database (same as the server's), max ctx.connections clients. Do not end it. */
  pool: pg.Pool;
  /** The same database in sessions like those of the service's search pool (searchSession(), db/index.ts). */
  searchPool: pg.Pool;
  /** A partner API key created for this run (send it as `x-api-key`); revoked at the end. */
  apiKey: string;
  /** http://127.0.0.1:<port> of the server under test. */
  baseUrl: string;
  /** fetch() against the server, for setup work (not measured). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  server: ServerProcess;
  /** The dataset: token count and seed (see dev/seed; SEARCH_TERMS there names rare/common terms). */
  dataset: { tokens: number; seed: string };
  connections: number;
  durationSeconds: number;
  /** Records a figure of this scenario (save time, peak memory, ...): written to the JSON and printed. */
  record(name: string, value: number | string, unit?: string): void;
  /**
   * The local chain the server reads roots from (tree uploads are admitted only when the chain holds their
   * root); set when a scenario of the run has `chain: true`. Its launch() indexes into the bench database.
   */
  chain?: AirdropChain;
};

export type BenchScenario = {
  name: string;
  description: string;
  /** Starts the local chain for the run (ctx.chain) and points the server at it. */
  chain?: boolean;
  setup?(ctx: BenchContext): Promise<void>;
  requests(ctx: BenchContext): BenchRequest[] | Promise<BenchRequest[]>;
  sql?(ctx: BenchContext): SqlRequest[] | Promise<SqlRequest[]>;
  /** The pool the database floor's statements go through; ctx.pool unless given (ctx.searchPool for searches). */
  sqlPool?(ctx: BenchContext): pg.Pool;
  floors?(ctx: BenchContext): ExtraFloor[] | Promise<ExtraFloor[]>;
  /**
   * A scenario that drives the server itself (many long-lived streams, say) rather than a request load: run after
   * setup, in place of the levels and the profile; its figures go through ctx.record. `requests` is then unused.
   */
  run?(ctx: BenchContext): Promise<void>;
  teardown?(ctx: BenchContext): Promise<void>;
};

/** Identity, for type checking a scenario file's default export. */
export function defineScenario<T extends BenchScenario | BenchScenario[]>(scenario: T): T {
  return scenario;
}
