// npm start: migrations, then `next start -p $PORT` (production: no dev chain, no seed). Needs `next build` first.
import { closeDb, db } from "@/db";
import { migrateToLatest } from "@/db/migrate";
import { config } from "@/lib/core/config";
import { loadEnvFiles, runNext } from "./next-process";

loadEnvFiles(false);
(process.env as Record<string, string | undefined>).NODE_ENV ??= "production";
try {
  const cfg = config(); // a bad value stops here, naming the variable
  const applied = await migrateToLatest(db());
  if (applied.length) console.log(`applied migrations: ${applied.join(", ")}`);
  // The server opens the database itself (PGlite admits one process): let go of it first.
  await closeDb();
  process.exit(await runNext(["start", "-p", String(cfg.PORT)], process.env, async () => {}));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await closeDb().catch(() => {});
  process.exit(1);
}
