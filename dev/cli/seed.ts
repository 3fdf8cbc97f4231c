// npm run db:seed -- --tokens N [--seed S] [--reset]: the deterministic synthetic dataset, with progress on stderr.
import { type CliSpec, runCommand, UsageError } from "./args";

const cli = {
  command: "npm run db:seed",
  synopsis: ["[--tokens N] [--seed S] [--reset]"],
  description:
    "Writes the deterministic synthetic dataset (users, tokens, presales, airdrops, agents) into the configured\n" +
    "database, or a running service's embedded one, after applying migrations. Progress on stderr.",
  options: {
    tokens: { type: "string", value: "N", description: "tokens to generate, 0..10000000 (default 1000)" },
    seed: {
      type: "string",
      value: "S",
      description: "the generator's seed (default 1): the same N and seed give the same rows",
    },
    reset: {
      type: "boolean",
      description: "empty the seeded tables first (needed when the database already holds tokens or users)",
    },
  },
} as const satisfies CliSpec;

// Loaded once the arguments are read, so --help and a refused command line load nothing else.
await runCommand(cli, async ({ values }) => {
  const [{ db }, { migrateToLatest }, { MAX_SEED_TOKENS, progressReporter, seedDatabase }] = await Promise.all([
    import("@/db"),
    import("@/db/migrate"),
    import("@/dev/seed"),
  ]);
  const tokens = Number(values.tokens ?? 1000);
  if (!Number.isInteger(tokens) || tokens < 0 || tokens > MAX_SEED_TOKENS)
    throw new UsageError(cli, `--tokens must be an integer 0..${MAX_SEED_TOKENS}`);
  await migrateToLatest(db());
  const summary = await seedDatabase({
    tokens,
    seed: values.seed,
    reset: values.reset === true,
    onProgress: progressReporter(),
  });
  console.log(
    `seeded ${summary.tokens.toLocaleString("en-US")} tokens, ${summary.users.toLocaleString("en-US")} users, ` +
      `${summary.follows.toLocaleString("en-US")} follows (seed ${summary.seed}) in ${(summary.durationMs / 1000).toFixed(1)} s`,
  );
});
