// npm run dev: migrations, the demo dataset when the embedded database is empty, the local dev chain,
// then `next dev -p $PORT` with the chain's variables (building in a directory of its own per DATA_DIR:
// dev/cli/dist-dir.ts). Ctrl-C stops the server and the chain.
import { readCli } from "./args";

readCli({
  command: "npm run dev",
  description:
    "Applies migrations, seeds the demo dataset (1,000 tokens) when the embedded database is empty, starts a local\n" +
    "chain with the contracts unless RPC_URL_8453 is set, then runs `next dev -p $PORT`. Configured by the\n" +
    "environment and .env files (docs/configuration.md); Ctrl-C stops the server and the chain.",
});
// Loaded after the arguments are read: --help and a refused command line load nothing else.
const [{ closeDb, db }, { migrateToLatest }, { config }, { ensurePortFree, loadEnvFiles, runNext }, dist] =
  await Promise.all([
    import("@/db"),
    import("@/db/migrate"),
    import("@/lib/core/config"),
    import("./next-process"),
    import("./dist-dir"),
  ]);

const DEMO_TOKENS = 1000;

type Chain = { env: Record<string, string>; close(): Promise<void> };

/** The demo dataset on the embedded default only: never write synthetic rows into a database someone configured. */
async function seedDemoData(embedded: boolean) {
  if (!embedded) return;
  const { seedIfEmpty } = await import("@/dev/seed");
  console.log(`seeding the demo dataset (${DEMO_TOKENS} tokens) if the database is empty…`);
  const summary = await seedIfEmpty(DEMO_TOKENS);
  console.log(
    summary
      ? `seeded ${summary.tokens} tokens and ${summary.users} users in ${(summary.durationMs / 1000).toFixed(1)} s`
      : "database already has data; not seeding",
  );
}

/** A local hardhat chain with the project's contracts, unless RPC_URL_8453 points somewhere already. */
async function startDevChain(): Promise<Chain | null> {
  if (process.env.RPC_URL_8453) return null;
  try {
    const { startLocalChain, deployLocalContracts } = await import("@/dev/chain/local");
    const chain = await startLocalChain({ port: 0 });
    const deployment = await deployLocalContracts(chain.rpcUrl);
    console.log(`local chain ${chain.rpcUrl} (chain id 8453), factory ${deployment.contracts.factory}`);
    return { env: deployment.env, close: () => chain.close() };
  } catch (error) {
    // The API serves everything but deploys without a chain; say so and carry on.
    console.warn(
      `local chain not started (${error instanceof Error ? error.message : error}); chain calls will answer 503`,
    );
    return null;
  }
}

loadEnvFiles(true);
let chain: Chain | null = null;
try {
  const cfg = config(); // a bad value stops here, naming the variable
  await ensurePortFree(cfg.PORT, "npm run dev");
  const applied = await migrateToLatest(db());
  console.log(applied.length ? `applied migrations: ${applied.join(", ")}` : "database is up to date");
  await seedDemoData(cfg.embedded);
  // The server opens the database itself (PGlite admits one process): let go of it first.
  await closeDb();
  chain = await startDevChain();
  const distDir = process.env[dist.DIST_DIR_VARIABLE] || dist.devDistDir(cfg.DATA_DIR);
  dist.prepareDistDir(distDir);
  const env = { ...process.env, ...chain?.env, PORT: String(cfg.PORT), [dist.DIST_DIR_VARIABLE]: distDir };
  const code = await runNext(["dev", "-p", String(cfg.PORT)], env, async () => chain?.close());
  process.exit(code);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await closeDb().catch(() => {});
  await chain?.close().catch(() => {});
  process.exit(1);
}
