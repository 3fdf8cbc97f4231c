import { beforeEach, describe, expect, it } from "vitest";
import { formatEther, parseEther } from "viem";
import { GET } from "@/app/api/creator-earnings/[tokenAddress]/route";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { indexFeeClaims } from "@/lib/domains/rewards/earnings/indexer";
import { indexFeeClaimsJob } from "@/lib/domains/rewards/earnings/jobs";
import { enqueue } from "@/lib/platform/jobs/define";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { enqueueSchedule } from "@/lib/platform/jobs/schedule";
import { indexByAddress } from "@/lib/domains/launch/indexer/lookup";
import { FEE_IN, useTestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";
import {
  atPoolPrice,
  buy,
  claimFees,
  launch,
  mine,
  payTokenRewards,
  payWethRewards,
  storeLaunch,
} from "./chain-fixtures";
import { addr, insertToken } from "./fixtures";
import { freezeDate } from "@/tests/helpers/clock";

const chain = useTestChain();
const earnings = (token: string, qs = "") =>
  call(GET, `/api/creator-earnings/${token}${qs}`, { params: { tokenAddress: token } });
const indexer = (env: Record<string, string>) => {
  Object.assign(process.env, {
    EARNINGS_INDEX_CONFIRMATIONS: "0",
    EARNINGS_INDEX_BLOCK_RANGE: "2000",
    EARNINGS_INDEX_MAX_RANGES: "20",
    ...env,
  });
  resetConfig();
};

beforeEach(async () => {
  // The chain is reverted after each test; the database is not.
  await db().deleteFrom("fee_claims").execute();
  await db().deleteFrom("chain_checkpoints").execute();
  indexer({});
});

describe("fee-claim indexer", () => {
  it("reads claims by range into fee_claims and is idempotent on re-reads", async () => {
    const c = chain();
    const l = await launch(c, [7_000, 3_000]);
    await payWethRewards(c, l.token, parseEther("1"));
    await claimFees(c, l.recipients[0]!, c.contracts.weth);
    await claimFees(c, l.recipients[1]!, c.contracts.weth);
    indexer({ EARNINGS_INDEX_BLOCK_RANGE: "3" });
    const first = await indexFeeClaims(8453);
    expect(first.claimsInserted).toBe(2);
    expect(first.ranges).toBeGreaterThan(1);
    const head = Number(await c.publicClient.getBlockNumber());
    expect(first.toBlock).toBe(head);
    // Forget the checkpoint: everything is read again, nothing is stored twice.
    await db().deleteFrom("chain_checkpoints").execute();
    const again = await indexFeeClaims(8453);
    expect(again).toMatchObject({ claimsSeen: 2, claimsInserted: 0, toBlock: head });
    const rows = await db().selectFrom("fee_claims").selectAll().orderBy("block_number").execute();
    expect(rows.map((r) => [r.fee_owner, r.amount])).toEqual([
      [l.recipients[0]!.toLowerCase(), parseEther("0.7").toString()],
      [l.recipients[1]!.toLowerCase(), parseEther("0.3").toString()],
    ]);
    expect((await indexFeeClaims(8453)).ranges).toBe(0);
  });

  it("stops EARNINGS_INDEX_MAX_RANGES ranges in and continues from the checkpoint", async () => {
    const c = chain();
    const l = await launch(c, [10_000]);
    await payWethRewards(c, l.token, parseEther("1"));
    await claimFees(c, l.recipients[0]!, c.contracts.weth);
    indexer({ EARNINGS_INDEX_BLOCK_RANGE: "1", EARNINGS_INDEX_MAX_RANGES: "2" });
    const run = await indexFeeClaims(8453);
    expect(run).toMatchObject({ fromBlock: 0, toBlock: 1, ranges: 2 });
    const row = await db().selectFrom("chain_checkpoints").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ stream: "fee-claims", block: 1 });
    expect((await indexFeeClaims(8453)).fromBlock).toBe(2);
  });

  it("leaves the last EARNINGS_INDEX_CONFIRMATIONS blocks for a later run", async () => {
    const c = chain();
    const l = await launch(c, [10_000]);
    await payWethRewards(c, l.token, parseEther("1"));
    const claimBlock = await claimFees(c, l.recipients[0]!, c.contracts.weth);
    indexer({ EARNINGS_INDEX_CONFIRMATIONS: "3" });
    const early = await indexFeeClaims(8453);
    expect(early.toBlock).toBe(Number(claimBlock) - 3);
    expect(early.claimsInserted).toBe(0);
    await mine(c, 3);
    expect((await indexFeeClaims(8453)).claimsInserted).toBe(1);
  });

  it("runs as a job, and a schedule enqueues it every minute", async () => {
    const c = chain();
    const l = await launch(c, [10_000]);
    await payWethRewards(c, l.token, parseEther("1"));
    await claimFees(c, l.recipients[0]!, c.contracts.weth);
    await enqueue(indexFeeClaimsJob, { chainId: 8453 });
    const outcomes = await runDueJobs(jobs);
    expect(outcomes.map((o) => o.status)).toEqual(["done"]);
    expect(await db().selectFrom("fee_claims").select("id").execute()).toHaveLength(1);
    const schedule = jobs.schedules.get("earnings-index")!;
    expect(schedule.everySeconds).toBe(60);
    freezeDate(); // both in one minute's bucket
    const { id } = await enqueueSchedule(schedule);
    expect((await enqueueSchedule(schedule)).id).toBe(id);
    expect((await runDueJobs(jobs)).map((o) => o.status)).toContain("done");
  });
});

describe("GET /api/creator-earnings/{tokenAddress}", () => {
  it("answers WETH claimed by the token's recipients in exact wei, per recipient, cached 1 hour", async () => {
    const c = chain();
    const l = await launch(c, [7_000, 3_000]);
    await storeLaunch(c, l);
    await payWethRewards(c, l.token, parseEther("1"));
    await claimFees(c, l.recipients[0]!, c.contracts.weth);
    await payWethRewards(c, l.token, 500_000_000_000_000_001n);
    await claimFees(c, l.recipients[0]!, c.contracts.weth);
    await claimFees(c, l.recipients[1]!, c.contracts.weth);
    await payTokenRewards(c, l, parseEther("1000"));
    await claimFees(c, l.recipients[1]!, l.token);
    await indexFeeClaims(8453);

    const res = await earnings(l.token);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toContain("s-maxage=3600");
    const r0 = l.recipients[0]!.toLowerCase();
    const r1 = l.recipients[1]!.toLowerCase();
    // 0.7 + 70% of 0.500000000000000001 (floored) to the first; the last recipient takes the remainder.
    const first = parseEther("0.7") + (500_000_000_000_000_001n * 7000n) / 10_000n;
    expect(res.body).toEqual({
      tokenAddress: l.token,
      chainId: 8453,
      wethAddress: c.contracts.weth,
      totalWethClaimed: "1.500000000000000001",
      claimCount: 3,
      claimsByRecipient: { [r0]: formatEther(first), [r1]: formatEther(1_500_000_000_000_000_001n - first) },
      totalWethClaimedWei: "1500000000000000001",
      claimsByRecipientWei: { [r0]: first.toString(), [r1]: (1_500_000_000_000_000_001n - first).toString() },
      indexedToBlock: Number(await c.publicClient.getBlockNumber()),
    });
  });

  it("counts the WETH a paired-token recipient was paid for its share of token fees; the other took tokens", async () => {
    const c = chain();
    const l = await launch(c, [6_000, 4_000], { feeIn: [FEE_IN.Clanker, FEE_IN.Paired] });
    expect((await indexByAddress(8453, l.token)).status).toBe("indexed");
    await buy(c, l, parseEther("1"));
    const converted = await atPoolPrice(c, l, l.token, parseEther("400"));
    await payTokenRewards(c, l, parseEther("1000"));
    await claimFees(c, l.recipients[0]!, l.token);
    await claimFees(c, l.recipients[1]!, c.contracts.weth);
    await indexFeeClaims(8453);

    const res = await earnings(l.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      totalWethClaimedWei: converted.toString(),
      claimCount: 1,
      claimsByRecipientWei: {
        [l.recipients[0]!.toLowerCase()]: "0",
        [l.recipients[1]!.toLowerCase()]: converted.toString(),
      },
    });
  });

  it("lists a recipient that has claimed nothing with 0, and takes any address case", async () => {
    const c = chain();
    const l = await launch(c, [5_000, 5_000]);
    await storeLaunch(c, l);
    const res = await earnings(l.token.toLowerCase(), "?chainId=8453");
    expect(res.body).toMatchObject({ totalWethClaimed: "0.0", totalWethClaimedWei: "0", claimCount: 0 });
    expect(Object.values(res.body.claimsByRecipient)).toEqual(["0.0", "0.0"]);
  });

  it("answers 404 for a token it does not know, on that chain", async () => {
    expectError(await earnings(addr(0x404)), 404, "not_found");
    const c = chain();
    const l = await launch(c, [10_000]);
    await storeLaunch(c, l);
    expectError(await earnings(l.token, "?chainId=10"), 404, "not_found");
  });

  it("answers 503 when the token's chain cannot be reached", async () => {
    await insertToken({ address: addr(0xc10), msgSender: addr(1), chainId: 10 });
    const res = await earnings(addr(0xc10), "?chainId=10");
    expectError(res, 503, "provider_unavailable");
  });

  it.each([
    ["0x123", ""],
    ["not-an-address", ""],
    [addr(1), "?chainId=0"],
    [addr(1), "?chainId=abc"],
    [addr(1), "?chainId=8453&chainId=1"],
  ])("rejects %s%s", async (token, qs) => {
    expectError(await earnings(token, qs), 400, "invalid_request");
  });
});
