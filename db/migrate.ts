// Applies db/migrations/ in timestamp order; used by `npm run db:migrate`, `npm run dev` and the test harness.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Imports each file itself (not Kysely's FileMigrationProvider) so tsx and vitest transform the TypeScript. */
const provider: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {};
    for (const file of readdirSync(folder)
      .filter((f) => /^\d{14}_\w+\.ts$/.test(f))
      .sort()) {
      migrations[file.replace(/\.ts$/, "")] = await import(pathToFileURL(path.join(folder, file)).href);
    }
    return migrations;
  },
};

/** Unordered: each domain has its own timestamp prefix, so a new file may sort before one already applied. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await new Migrator({ db, provider, allowUnorderedMigrations: true }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
