// npm start: migrations, then `next start -p $PORT` (production: no dev chain, no seed). Needs `next build` first.
import { readCli } from "./args";

readCli({
  command: "npm start",
  description:
    "Applies migrations, then runs `next start -p $PORT` on the build (run `npm run build` first): no chain,\n" +
    "no seed. Configured by the environment and .env files (docs/configuration.md).",
});
// Loaded after the arguments are read: --help and a refused command line load nothing else.
const [{ closeDb, db }, { migrateToLatest }, { config }, { ensurePortFree, loadEnvFiles, runNext }] = await Promise.all(
  [import("@/db"), import("@/db/migrate"), import("@/lib/core/config"), import("./next-process")],
);

loadEnvFiles(false);
(process.env as Record<string, string | undefined>).NODE_ENV ??= "production";
try {
  const cfg = config(); // a bad value stops here, naming the variable
  await ensurePortFree(cfg.PORT, "npm start");
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
