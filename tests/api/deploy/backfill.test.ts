// `npm run tokens -- backfill`'s entry point: the TokenCreated stream walked to a target by the minute indexer's
// follower. Stopped between two ranges (as a kill would), it resumes from its own progress with no token missed or
// stored twice, joins the minute indexer's checkpoint and forgets its progress once done.
import { beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { backfillFactories, backfillTokenCreated } from "@/lib/domains/launch/indexer/backfill";
import { followTokenCreated, TOKEN_CREATED_STREAM, tokenIndexCheckpoint } from "@/lib/domains/launch/indexer/follow";
import { backfillStream, readCheckpoint } from "@/lib/platform/checkpoints";
import { useTestChain } from "@/tests/helpers/chain";
import { deployDirect } from "@/tests/helpers/hostile-chain";

const chain = useTestChain();

beforeEach(async () => {
  for (const table of ["tokens", "chain_checkpoints", "quarantined_events"])
    await sql`DELETE FROM ${sql.table(table)}`.execute(db());
  process.env.TOKEN_BACKFILL_BLOCK_RANGE = "1";
  resetConfig();
  return () => {
    delete process.env.TOKEN_BACKFILL_BLOCK_RANGE;
    resetConfig();
  };
});

const tokenRows = async () =>
  (await db().selectFrom("tokens").select("contract_address").orderBy("block_number").execute()).map(
    (r) => r.contract_address,
  );

describe("backfillTokenCreated", () => {
  it("stopped between ranges, resumes where it stopped: every token once, then the minute indexer goes on", async () => {
    const c = chain();
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) tokens.push((await deployDirect(c, `Backfilled ${i}`)).toLowerCase());
    const head = Number(await c.publicClient.getBlockNumber());
    const factory = c.contracts.factory;
    const progress = { stream: backfillStream(TOKEN_CREATED_STREAM), chainId: 8453, address: factory };

    // Killed after the third range: its rows and its progress are committed, nothing after them.
    const seen: number[] = [];
    const stop = new Error("killed");
    await expect(
      backfillTokenCreated(8453, {
        toBlock: head,
        onProgress: (p) => {
          seen.push(p.blocksDone);
          expect(p.blocksTotal).toBe(head + 1); // from TOKEN_INDEX_START_BLOCK (0) to the head
          if (seen.length === 3) throw stop;
        },
      }),
    ).rejects.toBe(stop);
    expect(await readCheckpoint(progress)).toBe(2); // ranges of one block: 0, 1 and 2
    const before = (await tokenRows()).length;

    const rest = await backfillTokenCreated(8453, { toBlock: head });
    expect(rest).toMatchObject({ fromBlock: 3, toBlock: head, complete: true });
    expect(rest.events + before).toBe(tokens.length);
    expect(await tokenRows()).toEqual(tokens);
    expect(await readCheckpoint(progress)).toBeNull();
    expect(await tokenIndexCheckpoint(8453, factory)).toBe(head);

    // The minute indexer starts from the checkpoint the backfill left (less its reorg re-read).
    const later = (await deployDirect(c, "After the backfill")).toLowerCase();
    const [run] = await followTokenCreated(8453);
    expect(run?.fromBlock).toBe(Math.max(1, head + 1 - 12));
    expect(await tokenRows()).toEqual([...tokens, later]); // the re-read blocks' tokens are not stored twice
  });

  it("--from-block reads again below the checkpoint without moving it back; --generation picks factories", async () => {
    const c = chain();
    const first = (await deployDirect(c, "Early")).toLowerCase();
    await followTokenCreated(8453);
    const head = Number(await c.publicClient.getBlockNumber());
    await sql`DELETE FROM tokens`.execute(db());
    const run = await backfillTokenCreated(8453, { fromBlock: 1, toBlock: head });
    expect(run).toMatchObject({ fromBlock: 1, toBlock: head, events: 1, complete: true });
    expect(await tokenRows()).toEqual([first]);
    expect(await tokenIndexCheckpoint(8453, c.contracts.factory)).toBe(head);
    expect(backfillFactories(8453, "clanker_v4").map((f) => f.address)).toContain(c.contracts.factory.toLowerCase());
    expect(backfillFactories(8453, "proxy").map((f) => f.address)).not.toContain(c.contracts.factory.toLowerCase());
  });
});
