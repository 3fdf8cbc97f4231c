export {};

// The indexer as the backfill bench runs it, in a process of its own (its memory is measured and it may be killed):
// `migrate` migrates the database; `follow` runs the minute indexer (followTokenCreated) run after run until every
// factory's checkpoint reaches the head; `backfill` runs the backfill entry point to the head; `sample` runs the
// minute indexer over a few blocks one by one. Spawned by run.ts
// with the service's tree as its working directory, so `@/` names that tree's modules (a checkout of an older
// commit measures that commit's indexer). Prints one JSON line per run to stdout.
const [mode] = process.argv.slice(2);
// Stopped for time by the bench: exit, so that a CPU profile is written (a kill -9 is the resume check's).
process.on("SIGTERM", () => process.exit(143));
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
      // Done when a run finds nothing left to read (a follower may stop short of the head by its confirmations).
      if (process.env.BENCH_FOLLOW_ONCE || runs.every((r) => r.ranges === 0 || (r.toBlock ?? head) >= head)) break;
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
    backfillTokenCreated(
      chainId: number,
      options: {
        fromBlock?: number;
        onProgress?: (p: { blocksDone: number; blocksTotal: number; stored: number; rangeSize: number }) => void;
      },
    ): Promise<unknown>;
  };
  let last = 0;
  const result = await mod.backfillTokenCreated(chainId, {
    fromBlock: Number(process.env.BENCH_FROM_BLOCK) || undefined,
    onProgress: ({ blocksDone, blocksTotal, stored, rangeSize }) => {
      if (Date.now() - last < 5000) return;
      last = Date.now();
      const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
      const mib = (n: number) => Math.round(n / 2 ** 20);
      const memory = { rss: mib(rss), heap: mib(heapUsed), external: mib(external), buffers: mib(arrayBuffers) };
      console.log(JSON.stringify({ progress: true, blocksDone, blocksTotal, stored, rangeSize, memory }));
    },
  });
  console.log(JSON.stringify({ done: true, result }, (_, v) => (typeof v === "bigint" ? String(v) : v)));
}

/**
 * The minute indexer over each block of BENCH_SAMPLE_BLOCKS alone: a run from that block (TOKEN_INDEX_START_BLOCK_<id>
 * with no checkpoint) of one range of one block. What it writes is what the bench holds a run's rows against.
 */
async function sample(): Promise<void> {
  const { sql } = await import("kysely");
  const { db } = await import("@/db");
  const { followTokenCreated } = await import("@/lib/domains/launch/indexer/follow");
  const blocks = (process.env.BENCH_SAMPLE_BLOCKS ?? "").split(",").filter(Boolean).map(Number);
  let tokens = 0;
  for (const block of blocks) {
    // The checkpoint table of the tree being measured: chain_checkpoints, or token_index_checkpoints before it.
    await sql`DELETE FROM chain_checkpoints WHERE stream = 'token-created'`
      .execute(db())
      .catch(() => sql`DELETE FROM token_index_checkpoints`.execute(db()));
    process.env[`TOKEN_INDEX_START_BLOCK_${chainId}`] = String(block);
    const runs = await followTokenCreated(chainId);
    tokens += runs.reduce((n, r) => n + r.tokens, 0);
  }
  console.log(JSON.stringify({ done: true, blocks: blocks.length, tokens }));
}

async function migrate(): Promise<void> {
  const { db } = await import("@/db");
  const { migrateToLatest } = await import("@/db/migrate");
  const applied = await migrateToLatest(db());
  console.log(JSON.stringify({ migrated: applied.length }));
}

const run = { follow, backfill, sample, migrate }[mode ?? ""];
if (!run) {
  console.error("usage: indexer.ts follow|backfill|sample|migrate");
  process.exit(2);
}
await run();
const { closeDb } = await import("@/db");
await closeDb();
process.exit(0);
