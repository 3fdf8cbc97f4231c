// Airdrop claims from the chain: real claims on the local airdrop extension, indexed by block range into
// airdrop_claims (idempotent on re-reads), the schedule's job, and GET /api/airdrops/claimed over them.
import { beforeEach, describe, expect, it } from "vitest";
import { getAbiItem, getAddress, toEventSelector, type Address, type Hex } from "viem";
import { GET as claimGET } from "@/app/api/airdrops/claim/route";
import { POST } from "@/app/api/airdrops/route";
import { GET as claimedGET } from "@/app/api/airdrops/claimed/route";
import { tokenAirdropAbi } from "@/dev/chain/artifacts";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { indexAirdropClaims } from "@/lib/domains/airdrops/indexer";
import { AIRDROP_CLAIMED_TOPIC } from "@/lib/platform/chain";
import { indexAirdropClaimsJob } from "@/lib/domains/airdrops/jobs";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { enqueue } from "@/lib/platform/jobs/define";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { useTestChain, type TestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";
import { tokenWithAirdrop } from "./trees";

const chain = useTestChain();
const E18 = 10n ** 18n;

const indexer = (env: Record<string, string> = {}) => {
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
  await db().deleteFrom("airdrop_claims").execute();
  await db().deleteFrom("chain_checkpoints").execute();
  indexer();
});

/** A token whose airdrop gives accounts 3 and 4 these amounts, its tree stored, its lockup over. */
async function airdropped(c: TestChain, amounts: [bigint, bigint]) {
  const values = [
    [c.accounts[3]!, amounts[0]],
    [c.accounts[4]!, amounts[1]],
  ] as const;
  const { root, dump } = buildStandardTree(values);
  const token = await tokenWithAirdrop(c, root);
  const saved = await call(POST, "/api/airdrops", { body: { tokenAddress: token, merkleRoot: root, tree: dump } });
  expect(saved.status, saved.text).toBe(200);
  await c.increaseTime(86_400 + 1);
  return token;
}

/** Claims the account's whole leaf with the proof the service serves, sent by account 5 (anyone may). */
async function claim(c: TestChain, token: Address, account: Address) {
  const res = await call(claimGET, `/api/airdrops/claim?tokenAddress=${token}&claimerAddress=${account}`);
  const [{ proof, entry }] = res.body.proofs;
  const hash = await c.wallet(5).writeContract({
    address: c.contracts.airdrop,
    abi: tokenAirdropAbi,
    functionName: "claim",
    args: [token, account, BigInt(entry.amount), proof as Hex[]],
  });
  await c.publicClient.waitForTransactionReceipt({ hash });
}

const claimed = (token: string) => call(claimedGET, `/api/airdrops/claimed?tokenAddress=${token}`);

describe("airdrop-claim indexer", () => {
  it("the local airdrop emits the platform's AirdropClaimed (same signature)", () => {
    expect(toEventSelector(getAbiItem({ abi: tokenAirdropAbi, name: "AirdropClaimed" }))).toBe(AIRDROP_CLAIMED_TOPIC);
  });

  it("reads claims by range into airdrop_claims, is idempotent on re-reads, and the read sums them", async () => {
    const c = chain();
    const token = await airdropped(c, [3n * E18, 1n * E18]);
    const before = await claimed(token.toLowerCase());
    expect(before.status, before.text).toBe(200);
    expect(before.body).toMatchObject({ claimed: "0", claimers: 0, total: (4n * E18).toString(), claimedShare: 0 });

    await claim(c, token, c.accounts[3]!);
    indexer({ EARNINGS_INDEX_BLOCK_RANGE: "3" });
    const first = await indexAirdropClaims(8453);
    const head = Number(await c.publicClient.getBlockNumber());
    expect(first).toMatchObject({ claimsSeen: 1, claimsInserted: 1, toBlock: head });
    expect(first.ranges).toBeGreaterThan(1);
    expect(first.airdrop).toBe(c.contracts.airdrop.toLowerCase());
    // Forget the checkpoint: everything is read again, nothing is stored twice.
    await db().deleteFrom("chain_checkpoints").execute();
    expect(await indexAirdropClaims(8453)).toMatchObject({ claimsSeen: 1, claimsInserted: 0, toBlock: head });
    expect((await indexAirdropClaims(8453)).ranges).toBe(0);

    const rows = await db().selectFrom("airdrop_claims").selectAll().execute();
    expect(rows.map((r) => [r.token, r.account, r.total_claimed, r.still_locked, r.airdrop])).toEqual([
      [
        token.toLowerCase(),
        c.accounts[3]!.toLowerCase(),
        (3n * E18).toString(),
        "0",
        c.contracts.airdrop.toLowerCase(),
      ],
    ]);

    const after = await claimed(token);
    expect(after.body).toEqual({
      tokenAddress: getAddress(token),
      chainId: 8453,
      claimed: (3n * E18).toString(),
      claimers: 1,
      total: (4n * E18).toString(),
      claimedShare: 0.75,
      indexedToBlock: head,
    });
  });

  it("the schedule's job indexes the second claim; the share reaches 1", async () => {
    const c = chain();
    const token = await airdropped(c, [1n * E18, 1n * E18]);
    await claim(c, token, c.accounts[3]!);
    await claim(c, token, c.accounts[4]!);
    expect(jobs.schedules.get("airdrop-claims-index")?.everySeconds).toBe(60);
    await enqueue(indexAirdropClaimsJob, { chainId: 8453 });
    expect((await runDueJobs(jobs)).map((o) => o.status)).toContain("done");
    expect((await claimed(token)).body).toMatchObject({ claimed: (2n * E18).toString(), claimers: 2, claimedShare: 1 });
  });

  it("answers 404 for a token that is not indexed", async () => {
    expectError(await claimed("0x00000000000000000000000000000000000000aa"), 404, "not_found");
  });
});
