// npm run db:seed -- --tokens N [--seed S] [--reset]: the deterministic synthetic dataset, with progress on stderr.
import { migrateToLatest } from "@/db/migrate";
import { db } from "@/db";
import { MAX_SEED_TOKENS, progressReporter, seedDatabase } from "@/dev/seed";
import { parseArgs, runCommand } from "./args";

const usage = "usage: npm run db:seed -- --tokens N [--seed S] [--reset]";

await runCommand(async () => {
  const { flags } = parseArgs(undefined, { booleans: ["reset"] });
  const tokens = Number(flags.tokens ?? 1000);
  if (!Number.isInteger(tokens) || tokens < 0 || tokens > MAX_SEED_TOKENS) throw new Error(usage);
  if (flags.seed === true) throw new Error(usage);
  await migrateToLatest(db());
  const summary = await seedDatabase({
    tokens,
    seed: flags.seed,
    reset: flags.reset === true,
    onProgress: progressReporter(),
  });
  console.log(
    `seeded ${summary.tokens.toLocaleString("en-US")} tokens, ${summary.users.toLocaleString("en-US")} users, ` +
      `${summary.follows.toLocaleString("en-US")} follows (seed ${summary.seed}) in ${(summary.durationMs / 1000).toFixed(1)} s`,
  );
});
