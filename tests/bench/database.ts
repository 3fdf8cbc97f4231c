// The bench database on the PostgreSQL server: created when missing, migrated, and seeded unless its
// seed_runs marker says it already holds exactly the dataset asked for (a million-token seed takes minutes).
import pg from "pg";
import { closeDb, db } from "@/db";
import { migrateToLatest } from "@/db/migrate";
import { resetConfig } from "@/lib/core/config";
import { currentDataset, generatorId, progressReporter, seedDatabase } from "@/dev/seed";

export const DEFAULT_BENCH_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/tls_bench";

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^\w+$/.test(name)) throw new Error(`BENCH_DATABASE_URL: unusual database name "${name}"`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) {
      console.error(`creating database ${name}`);
      await client.query(`CREATE DATABASE ${name}`);
    }
  } finally {
    await client.end();
  }
}

export type PreparedDataset = { tokens: number; seed: string; generator: string; seededNow: boolean; seedMs?: number };

/** Any fixed number: the advisory lock that keeps one bench database from being reseeded under a run. */
const LOCK_KEY = 7_340_021;

/**
 * Points this process's db() at the bench database (the harness creates its API key through it), and
 * makes sure it holds the dataset asked for. Runs on the same database share it: each holds a shared
 * advisory lock until `release()`, and a reseed takes the exclusive one, so it waits for running benches.
 */
export async function prepareBenchDatabase(
  url: string,
  tokens: number,
  seed: string,
): Promise<PreparedDataset & { release(): Promise<void> }> {
  await ensureDatabase(url);
  process.env.DATABASE_URL = url;
  resetConfig();
  await closeDb();
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  const release = async () => {
    await lock.end().catch(() => {});
  };
  try {
    const generator = generatorId();
    const holds = async () => {
      const marker = await currentDataset().catch(() => null);
      return Boolean(
        marker?.finished && marker.tokens === tokens && marker.seed === seed && marker.generator === generator,
      );
    };
    await lock.query("SELECT pg_advisory_lock_shared($1)", [LOCK_KEY]);
    if (await holds()) {
      await migrateToLatest(db());
      console.error(`bench database holds ${tokens.toLocaleString("en-US")} tokens (seed ${seed}): not reseeding`);
      return { tokens, seed, generator, seededNow: false, release };
    }
    await lock.query("SELECT pg_advisory_unlock_shared($1)", [LOCK_KEY]);
    const { rows } = await lock.query("SELECT pg_try_advisory_lock($1) AS got", [LOCK_KEY]);
    if (!rows[0].got) {
      console.error("another bench run is using this database: waiting for it to finish before reseeding");
      await lock.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    }
    await migrateToLatest(db());
    let seedMs: number | undefined;
    if (!(await holds())) {
      console.error(`seeding ${tokens.toLocaleString("en-US")} tokens (seed ${seed}) into the bench database`);
      seedMs = (await seedDatabase({ tokens, seed, reset: true, onProgress: progressReporter() })).durationMs;
    }
    await lock.query("SELECT pg_advisory_lock_shared($1)", [LOCK_KEY]);
    await lock.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]);
    return { tokens, seed, generator, seededNow: seedMs !== undefined, seedMs, release };
  } catch (error) {
    await release();
    throw error;
  }
}
