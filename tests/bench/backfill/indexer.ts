export {};

// The indexer as the backfill bench runs it, in a process of its own (its memory is measured and it may be killed):
// `migrate` migrates the database; `follow` runs the minute indexer (followTokenCreated) run after run until every
// factory's checkpoint reaches the head; `backfill` runs the backfill entry point to the head. Spawned by run.ts
// with the service's tree as its working directory, so `@/` names that tree's modules (a checkout of an older
// commit measures that commit's indexer). Prints one JSON line per run to stdout.
const [mode] = process.argv.slice(2);
const chainId = 8453;

async function follow(): Promise<void> {
  const { followTokenCreated } = await import("@/lib/domains/launch/indexer/follow");
  const { getLatestBlockNumber } = await import("@/lib/platform/chain");
  const head = Number(await getLatestBlockNumber(chainId));
  let failures = 0;
  for (;;) {
    try {
      const runs = await followTokenCreated(chainId);
      const tokens = runs.reduce((n, r) => n + r.tokens, 0);
      console.log(JSON.stringify({ tokens, toBlock: Math.min(...runs.map((r) => r.toBlock ?? head)) }));
      if (process.env.BENCH_FOLLOW_ONCE || runs.every((r) => (r.toBlock ?? head) >= head)) break;
    } catch (error) {
      // The minute cron would try again a minute later from the same checkpoint; the bench tries again at once.
      failures += 1;
      console.log(JSON.stringify({ failure: error instanceof Error ? error.message : String(error) }));
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  console.log(JSON.stringify({ done: true, failures }));
}

async function backfill(): Promise<void> {
  const mod = (await import("@/lib/domains/launch/indexer/backfill" as string)) as {
    backfillTokenCreated(chainId: number): Promise<unknown>;
  };
  const result = await mod.backfillTokenCreated(chainId);
  console.log(JSON.stringify({ done: true, result }, (_, v) => (typeof v === "bigint" ? String(v) : v)));
}

async function migrate(): Promise<void> {
  const { db } = await import("@/db");
  const { migrateToLatest } = await import("@/db/migrate");
  const applied = await migrateToLatest(db());
  console.log(JSON.stringify({ migrated: applied.length }));
}

const run = { follow, backfill, migrate }[mode ?? ""];
if (!run) {
  console.error("usage: indexer.ts follow|backfill|migrate");
  process.exit(2);
}
await run();
const { closeDb } = await import("@/db");
await closeDb();
process.exit(0);
