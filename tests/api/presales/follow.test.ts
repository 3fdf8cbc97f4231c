// The presale stream: the follower reads the presale contract's events by block range into presales, as the refresh
// job would from each transaction, and moves the "presales" checkpoint; a refresh after it changes nothing.
import { beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { parseEther, zeroAddress } from "viem";
import { db } from "@/db";
import { GET as listGET } from "@/app/api/presales/route";
import { presaleAbi } from "@/dev/chain/artifacts";
import { resetConfig } from "@/lib/core/config";
import { readCheckpoint } from "@/lib/platform/checkpoints";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { enqueue } from "@/lib/platform/jobs/define";
import { jobs } from "@/lib/domains/jobs";
import { indexPresaleEvents, PRESALES_STREAM } from "@/lib/domains/presales/follow";
import { indexPresalesJob, refreshPresaleJob } from "@/lib/domains/presales/jobs";
import { defaultDeploymentConfig, useTestChain, type TestChain } from "@/tests/helpers/chain";
import { call } from "@/tests/helpers/http";

const chain = useTestChain();

beforeEach(async () => {
  for (const table of ["presales", "jobs", "chain_checkpoints"])
    await sql`DELETE FROM ${sql.table(table)}`.execute(db());
  process.env.EARNINGS_INDEX_CONFIRMATIONS = "0";
  resetConfig();
  return () => {
    delete process.env.EARNINGS_INDEX_CONFIRMATIONS;
    resetConfig();
  };
});

async function write(c: TestChain, account: number, request: object) {
  const hash = await c
    .wallet(account)
    .writeContract({ address: c.contracts.presale, abi: presaleAbi, ...request } as never);
  await c.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

const presales = async () => (await call(listGET, "/api/presales?sort=asc")).body.presales as any[];

describe("the presale stream", () => {
  it("lists presales nobody refreshed, from their events, and a refresh afterwards changes nothing", async () => {
    const c = chain();
    const config = defaultDeploymentConfig(c);
    config.extensionConfigs = [
      { extension: c.contracts.presale, msgValue: 0n, extensionBps: 1000, extensionData: "0x" },
    ];
    const owner = c.accounts[2]!;
    const start = (max: string) =>
      write(c, 2, {
        functionName: "startPresale",
        args: [config, parseEther("1"), parseEther(max), 3600n, owner, 86_400n, 0n, zeroAddress, "0x"],
      });
    await start("10");
    await start("2");
    await write(c, 3, { functionName: "buyIntoPresale", args: [1n], value: parseEther("1") });
    const maxed = await write(c, 4, { functionName: "buyIntoPresale", args: [2n], value: parseEther("3") });

    const run = await indexPresaleEvents(8453);
    const head = Number(await c.publicClient.getBlockNumber());
    expect(run).toMatchObject({ toBlock: head, events: 4, presales: 4 }); // one change per presale and block
    expect(await readCheckpoint({ stream: PRESALES_STREAM, chainId: 8453, address: c.contracts.presale })).toBe(head);
    const rows = await presales();
    expect(rows.map((r) => [r.presale_id, r.status_name, r.eth_raised, r.owner])).toEqual([
      [1, "Active", parseEther("1").toString(), owner],
      [2, "SuccessfulMaximumHit", parseEther("2").toString(), owner],
    ]);

    await enqueue(refreshPresaleJob, { txHash: maxed.toLowerCase(), chainId: 8453 });
    expect((await runDueJobs(jobs)).map((o) => o.status)).toEqual(["done"]);
    const without = (list: any[]) => list.map(({ updated_at: _, ...row }) => row);
    expect(without(await presales())).toEqual(without(rows));
    // Nothing new: the next run reads no range.
    expect((await indexPresaleEvents(8453)).ranges).toBe(0);
  });

  it("runs as the presale-index job", async () => {
    const c = chain();
    await enqueue(indexPresalesJob, { chainId: 8453 });
    expect((await runDueJobs(jobs)).map((o) => [o.status, o.error ?? null])).toEqual([["done", null]]);
    expect(await readCheckpoint({ stream: PRESALES_STREAM, chainId: 8453, address: c.contracts.presale })).toBe(
      Number(await c.publicClient.getBlockNumber()),
    );
  });
});
