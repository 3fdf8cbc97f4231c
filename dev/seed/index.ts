// The synthetic dataset: users, follows, tokens and market rows, then each domain's seeder. Deterministic:
// the same token count and seed give the same rows, ids included.
import { sql } from "kysely";
import { db, type Database } from "@/db";
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { runPhase, type OnProgress, type Phase } from "./phases";
import { Prng } from "./prng";
import { domainSeeders } from "./registry";
import type { SeedContext } from "./types";
import { DATASET_END, tokenPhases } from "./tokens";
import { buildUsers, userPhases } from "./users";

export { SEARCH_TERMS } from "./vocabulary";
export { progressReporter } from "./progress";
export type { SeedProgress, OnProgress } from "./phases";

/** Bump when the core rows change, so benchmark databases made by an older generator are reseeded. */
const CORE_GENERATOR = "core@4";
export const MAX_SEED_TOKENS = 10_000_000;
const CORE_TABLES = ["tokens", "token_market", "users", "user_addresses", "follows", "seed_runs"];

export type SeedOptions = { tokens: number; seed?: string | number; onProgress?: OnProgress; reset?: boolean };
export type SeedSummary = { tokens: number; users: number; follows: number; seed: string; durationMs: number };
export type DatasetMarker = { tokens: number; seed: string; generator: string; finished: boolean };

/** Users scale with tokens: about eight tokens per user, so creators launch several each. */
export const usersFor = (tokens: number) => Math.max(20, Math.ceil(tokens / 8));

/** Names and versions of the core generator and every domain seeder, as recorded in seed_runs. */
export function generatorId(): string {
  return [CORE_GENERATOR, ...domainSeeders.map((s) => `${s.name}@${s.version}`)].join(";");
}

/** The dataset the database holds according to its last seed run, or null when it was never seeded. */
export async function currentDataset(): Promise<DatasetMarker | null> {
  const { rows } = await sql<{ tokens: number; seed: string; generator: string; finished_at: Date | null }>`
    SELECT tokens, seed, generator, finished_at FROM seed_runs ORDER BY id DESC LIMIT 1`.execute(db());
  const row = rows[0];
  return row
    ? { tokens: row.tokens, seed: row.seed, generator: row.generator, finished: row.finished_at !== null }
    : null;
}

/** Empties the seeded tables (and, by cascade, every table referencing them). Schema untouched. */
export async function resetSeededData(): Promise<void> {
  const tables = [...new Set([...CORE_TABLES, ...domainSeeders.flatMap((s) => s.tables)])];
  await sql`TRUNCATE ${sql.raw(tables.join(", "))} RESTART IDENTITY CASCADE`.execute(db());
}

async function isEmpty(): Promise<boolean> {
  const { rows } = await sql<{ any: boolean }>`
    SELECT EXISTS (SELECT 1 FROM tokens) OR EXISTS (SELECT 1 FROM users) AS any`.execute(db());
  return !rows[0].any;
}

/**
 * Bulk connections: on a Postgres server two insert (one batch is generated while two are written) and a
 * third analyzes finished tables meanwhile; PGlite (and a running embedded service) has one session.
 */
async function withBulkConnections<T>(fn: (connections: Database[], aside?: Database) => Promise<T>): Promise<T> {
  const cfg = config();
  const wanted = cfg.DATABASE_URL ? Math.min(3, cfg.DATABASE_POOL_MAX) : 1;
  const open = async (held: Database[]): Promise<T> => {
    if (held.length === wanted) return wanted === 3 ? fn(held.slice(0, 2), held[2]) : fn(held);
    return db()
      .connection()
      .execute(async (connection) => {
        await sql`SET statement_timeout = 0`.execute(connection);
        await sql`SET synchronous_commit = off`.execute(connection);
        try {
          return await open([...held, connection]);
        } finally {
          await sql`RESET statement_timeout; RESET synchronous_commit`.execute(connection).catch(() => {});
        }
      });
  };
  return open([]);
}

export async function seedDatabase(options: SeedOptions): Promise<SeedSummary> {
  const { tokens, onProgress } = options;
  if (!Number.isInteger(tokens) || tokens < 0 || tokens > MAX_SEED_TOKENS) {
    throw new Error(`tokens must be an integer between 0 and ${MAX_SEED_TOKENS}`);
  }
  const seed = String(options.seed ?? "1");
  const started = Date.now();
  if (options.reset) await resetSeededData();
  else if (!(await isEmpty()))
    throw new Error("the database already holds tokens or users; reset it to reseed (--reset)");
  const { rows } = await sql<{ id: number }>`
    INSERT INTO seed_runs (tokens, seed, generator) VALUES (${tokens}, ${seed}, ${generatorId()}) RETURNING id`.execute(
    db(),
  );

  const rng = new Prng(`token-launch-seed/${seed}`);
  const users = buildUsers(rng, usersFor(tokens));
  const phases: Phase[] = [
    ...userPhases(users, rng, DATASET_END),
    ...tokenPhases({ count: tokens, firstId: 1, users }, rng),
  ];
  await withBulkConnections(async (connections, aside) => {
    // Fresh statistics now, not whenever autovacuum comes by (benchmark plans depend on them). Analyzing
    // tokens reads the whole table (an index asks for 1,000-bucket statistics): overlap it with market rows.
    let analyzing: Promise<unknown> = Promise.resolve();
    for (const phase of phases) {
      await runPhase(connections, phase, onProgress);
      if (phase.table === "tokens" && aside) {
        analyzing = sql`ANALYZE tokens`.execute(aside);
        analyzing.catch(() => {}); // awaited below; a failing phase must not leave it unhandled
      }
    }
    await analyzing;
    // Everything below runs on the bulk connections: on PGlite (one session) the pool has nothing else to give.
    const [main] = connections;
    await sql`SELECT setval(pg_get_serial_sequence('tokens', 'id'), greatest(1, (SELECT max(id) FROM tokens)))`.execute(
      main,
    );
    // Vacuumed too, as autovacuum would soon do on a server where it is on (it is off on some, these machines among
    // them): index-only scans (the creator search's ranking, token pages) read the table for any page the visibility
    // map does not mark all-visible, and no page of a table just written is. Without it, the bench's database floors
    // at 10 connections were up to 60 % higher on a freshly seeded million tokens than on the same data vacuumed.
    await sql`VACUUM ${sql.raw(aside ? "" : "(ANALYZE) ")}tokens`.execute(main);
    await sql`VACUUM (ANALYZE) token_market, users, user_addresses, follows`.execute(main);
    const ctx: Omit<SeedContext, "rng"> = {
      db: main,
      connections,
      tokens: { count: tokens, firstId: 1, lastId: tokens },
      users: { count: users.count, firstFid: users.firstFid, lastFid: users.firstFid + users.count - 1 },
      insert: (phase) => runPhase(connections, phase, onProgress),
    };
    for (const seeder of domainSeeders) {
      log.debug("seeding domain", { seeder: seeder.name });
      await seeder.run({ ...ctx, rng: rng.fork(`domain/${seeder.name}`) });
    }
  });
  const durationMs = Date.now() - started;
  await sql`UPDATE seed_runs SET finished_at = now(), duration_ms = ${durationMs} WHERE id = ${rows[0].id}`.execute(
    db(),
  );
  return { tokens, users: users.count, follows: users.follows.length, seed, durationMs };
}

/** `npm run dev`: a demo dataset on a fresh database; a database with any tokens or users is left alone. */
export async function seedIfEmpty(tokens = 1000): Promise<SeedSummary | null> {
  if (!(await isEmpty())) return null;
  return seedDatabase({ tokens });
}
