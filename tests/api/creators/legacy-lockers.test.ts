// The routes of the platform's earlier generations' LP lockers, on the local chain's stand-ins for the v0 to v3.1
// contracts: GET /api/get-claim-info and GET /api/get-lp-info/{address} as a partner's client calls them, and
// get-claimed-fees and creator-earnings of legacy tokens from the indexed claim events.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getAddress, parseEther, type Address } from "viem";
import { GET as claimInfo } from "@/app/api/get-claim-info/route";
import { GET as lpInfo } from "@/app/api/get-lp-info/[address]/route";
import { GET as claimedFees } from "@/app/api/get-claimed-fees/[tokenAddress]/[feeRecipient]/route";
import { GET as creatorEarnings } from "@/app/api/creator-earnings/[tokenAddress]/route";
import { GET as uncollectedFees } from "@/app/api/get-estimated-uncollected-fees/[address]/route";
import { GET as estimateByPool } from "@/app/api/tokens/estimate-rewards-by-pool-address/route";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { indexLegacyClaims } from "@/lib/domains/rewards/legacy/indexer";
import { indexedFactoryList } from "@/lib/domains/launch/indexer/factories";
import { TOKEN_CREATED_STREAM } from "@/lib/domains/launch/indexer/follow";
import { advanceCheckpoints } from "@/lib/platform/checkpoints";
import { LEGACY_V2_TEAM_REWARD, WETH_ADDRESS } from "@/dev/chain/local";
import { useTestChain, type TestChain } from "@/tests/helpers/chain";
import { authMatrix, partnerKey, startIssuer, type Issuer } from "@/tests/helpers/auth";
import { call, expectError } from "@/tests/helpers/http";
import {
  LEGACY_GENERATIONS,
  LEGACY_SUPPLY,
  claimLegacyFees,
  deployLegacyToken,
  type LegacyDeployment,
  type LegacyGeneration,
  type LegacyTokenOptions,
} from "@/tests/helpers/legacy-chain";
import { launch, storeLaunch } from "./chain-fixtures";
import { addr, insertToken } from "./fixtures";

const chain = useTestChain();
let issuer: Issuer;
let key: string;
let deployed = 0;

beforeAll(async () => {
  issuer = await startIssuer();
  key = await partnerKey();
});
afterAll(() => issuer.close());
beforeEach(async () => {
  // The chain is reverted after each test; the database is not.
  for (const table of ["legacy_fee_claims", "chain_checkpoints", "token_market", "tokens"] as const)
    await db().deleteFrom(table).execute();
  Object.assign(process.env, { EARNINGS_INDEX_CONFIRMATIONS: "0", EARNINGS_INDEX_START_BLOCK: "0" });
  resetConfig();
});

const headers = () => ({ "x-api-key": key });
/** The team's percent of a v0 or v1 claim (the local factories' lpFeesCut). */
const V0_TEAM_FEE = 60n;

/** A legacy token deployed on the local chain, and its row as the token indexer stores it. */
async function legacyToken(c: TestChain, generation: LegacyGeneration, options: LegacyTokenOptions = {}) {
  deployed += 1;
  const name = `Old ${generation} ${deployed}`;
  const d = await deployLegacyToken(c, generation, { name, ...options });
  const row = await insertToken({
    name,
    address: d.address,
    msgSender: d.deployer,
    poolAddress: d.pool,
    lockerAddress: d.locker,
  });
  await db()
    .updateTable("tokens")
    .set({ type: generation, lp_nft_id: d.positionId.toString(), block_number: Number(d.blockNumber) })
    .where("id", "=", row.id)
    .execute();
  return { d, row };
}

const getClaimInfo = (address: string, h: Record<string, string> = headers()) =>
  call(claimInfo, `/api/get-claim-info?address=${address}`, { headers: h });
const getLpInfo = (address: string, h: Record<string, string> = headers()) =>
  call(lpInfo, `/api/get-lp-info/${address}`, { headers: h, params: { address } });
const getClaimed = (token: string, recipient: string, qs = "") =>
  call(claimedFees, `/api/get-claimed-fees/${token}/${recipient}${qs}`, {
    headers: headers(),
    params: { tokenAddress: token, feeRecipient: recipient },
  });
const getEarnings = (token: string) =>
  call(creatorEarnings, `/api/creator-earnings/${token}`, { params: { tokenAddress: token } });

describe("GET /api/get-claim-info", () => {
  authMatrix(
    "partner",
    (h) => getClaimInfo(addr(0xc1a), h),
    () => issuer,
  );

  it.each(LEGACY_GENERATIONS)("answers a %s token's locker, position and type", async (generation) => {
    const { d } = await legacyToken(chain(), generation);
    // The legacy claim flow's request: the token, then the locker and position it needs to claim.
    const res = await getClaimInfo(d.address.toLowerCase());
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      lockerAddress: d.locker,
      lpNftId: d.positionId.toString(),
      contract_address: d.address,
      type: generation,
    });
  });

  it("answers a v4 token's locker with no position, 404 for an unknown token and 400 for a bad address", async () => {
    const c = chain();
    const l = await launch(c, [10_000]);
    await storeLaunch(c, l);
    expect((await getClaimInfo(l.token)).body).toEqual({
      lockerAddress: c.contracts.locker,
      lpNftId: null,
      contract_address: l.token,
      type: "clanker_v4",
    });
    expectError(await getClaimInfo(addr(0xdead)), 404, "not_found");
    expect(expectError(await getClaimInfo("0x12"), 400, "invalid_request").error).toMatch(/^address: /);
  });
});

describe("GET /api/get-lp-info/{address}", () => {
  authMatrix(
    "partner",
    (h) => getLpInfo(addr(0xc1a), h),
    () => issuer,
  );

  it.each(LEGACY_GENERATIONS)("answers a %s token's deposit into its LP and the share locked", async (generation) => {
    const { d } = await legacyToken(chain(), generation);
    const res = await getLpInfo(d.address);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=120");
    // The members a partner's LP lock check reads.
    expect(res.body).toEqual({
      poolAddress: d.pool,
      lockerAddress: d.locker,
      lpNftId: d.positionId.toString(),
      amountDepositedIntoLP: LEGACY_SUPPLY.toString(),
      totalSupply: LEGACY_SUPPLY.toString(),
      percentLocked: "100",
      token_name: `Old ${generation} ${deployed}`,
      token_symbol: expect.any(String),
    });
  });

  it("answers the share a v3.1 vault left to the pool, and a v4 token's locker position", async () => {
    const c = chain();
    const { d } = await legacyToken(c, "clanker_v3_1", { vaultPercentage: 30, vaultDurationSeconds: 30n * 86_400n });
    expect((await getLpInfo(d.address)).body).toMatchObject({
      amountDepositedIntoLP: ((LEGACY_SUPPLY * 70n) / 100n).toString(),
      totalSupply: LEGACY_SUPPLY.toString(),
      percentLocked: "70",
    });

    // A v4 launch with 10% in its vault: the locker's TokenRewardAdded names the pool's supply and the position.
    const l = await launch(c, [10_000]);
    const row = await storeLaunch(c, l);
    // The launch's block: its TokenCreated, the factory's last log.
    const { blockNumber } = (await c.publicClient.getLogs({ address: c.contracts.factory, fromBlock: 0n })).at(-1)!;
    await db()
      .updateTable("tokens")
      .set({ type: "clanker_v4", block_number: Number(blockNumber) })
      .where("id", "=", row.id)
      .execute();
    const v4 = await getLpInfo(l.token);
    expect(v4.status, v4.text).toBe(200);
    expect(v4.body).toMatchObject({
      poolAddress: getAddress(l.pool),
      lockerAddress: c.contracts.locker,
      lpNftId: expect.stringMatching(/^\d+$/),
      amountDepositedIntoLP: parseEther("90000000000").toString(),
      totalSupply: parseEther("100000000000").toString(),
      percentLocked: "90",
    });
  });

  it("answers null deposit without the deploy block, 404 for an unknown token, 503 when the chain is down", async () => {
    const c = chain();
    const { d, row } = await legacyToken(c, "clanker_v2");
    await db().updateTable("tokens").set({ block_number: null }).where("id", "=", row.id).execute();
    expect((await getLpInfo(d.address)).body).toMatchObject({ amountDepositedIntoLP: null, percentLocked: null });
    expectError(await getLpInfo(addr(0xdead)), 404, "not_found");
    expect(expectError(await getLpInfo("0xnope"), 400, "invalid_request").error).toMatch(/^address: /);
    await insertToken({ address: addr(0xc10), msgSender: addr(1), chainId: 10 });
    expectError(await getLpInfo(addr(0xc10)), 503, "provider_unavailable");
  });
});

/** The v0 and v1 factories' token checkpoints moved to `block`, as the token indexer moves them. */
async function tokensIndexedTo(block: number) {
  const factories = indexedFactoryList(8453).filter((f) => f.type === "proxy" || f.type === "clanker");
  await advanceCheckpoints(
    db(),
    { stream: TOKEN_CREATED_STREAM, chainId: 8453, addresses: factories.map((f) => f.address) },
    block,
  );
}

describe("claimed fees and creator earnings of legacy tokens", () => {
  async function claimAndIndex(c: TestChain, d: LegacyDeployment, amounts: bigint[], recipient?: Address) {
    const hashes = [];
    for (const paired of amounts) hashes.push((await claimLegacyFees(c, d, { paired, recipient })).txHash);
    await tokensIndexedTo(Number(await c.publicClient.getBlockNumber({ cacheTime: 0 })));
    const run = await indexLegacyClaims(8453);
    expect(run.setAside).toBe(0);
    return hashes;
  }

  it("sums a v3.1 creator's and interface's WETH from ClaimedRewards, newest claim first", async () => {
    const c = chain();
    const [creator, iface] = [c.accounts[6]!, c.accounts[7]!];
    const { d } = await legacyToken(c, "clanker_v3_1", {
      creatorRewardRecipient: creator,
      interfaceRewardRecipient: iface,
      creatorReward: 60n,
    });
    const hashes = await claimAndIndex(c, d, [parseEther("1"), parseEther("0.5")]);

    const res = await getClaimed(d.address, creator);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      tokenAddress: d.address,
      feeRecipient: creator,
      chainId: 8453,
      pairedTokenAddress: WETH_ADDRESS,
      totalClaimed: parseEther("0.9").toString(), // 60% of 1 and of 0.5 WETH
      claimCount: 2,
      txHashes: [...hashes].reverse(),
      pagination: { limit: 50, offset: 0, hasMore: false },
      indexedToBlock: expect.any(Number),
    });
    expect((await getClaimed(d.address, iface, "?limit=1")).body).toMatchObject({
      totalClaimed: parseEther("0.3").toString(), // the interface's 20%
      claimCount: 2,
      txHashes: [hashes[1]],
      pagination: { limit: 1, offset: 0, hasMore: true },
    });

    const earnings = await getEarnings(d.address);
    expect(earnings.status, earnings.text).toBe(200);
    expect(earnings.body).toMatchObject({
      tokenAddress: d.address,
      wethAddress: WETH_ADDRESS,
      totalWethClaimed: "1.2",
      claimCount: 2,
      claimsByRecipient: { [creator.toLowerCase()]: "0.9", [iface.toLowerCase()]: "0.3" },
      totalWethClaimedWei: parseEther("1.2").toString(),
    });
  });

  it.each(["proxy", "clanker", "clanker_v2", "clanker_v3"] as const)(
    "counts a %s claim for its token only, from its locker's event",
    async (generation) => {
      const c = chain();
      const recipient = c.accounts[6]!;
      const { d } = await legacyToken(c, generation);
      // Another token of the same generation: its claims are not this token's.
      const { d: other } = await legacyToken(c, generation);
      await claimAndIndex(c, other, [parseEther("2")], recipient);
      const [hash] = await claimAndIndex(c, d, [parseEther("1")], recipient);
      const paid = generation === "clanker_v2" || generation === "clanker_v3" ? d.deployer : recipient;
      const team = generation === "clanker_v2" || generation === "clanker_v3" ? LEGACY_V2_TEAM_REWARD : V0_TEAM_FEE;
      const share = parseEther("1") - (parseEther("1") * team) / 100n;
      expect((await getClaimed(d.address, paid)).body).toMatchObject({
        totalClaimed: share.toString(),
        claimCount: 1,
        txHashes: [hash],
      });
      const earnings = await getEarnings(d.address);
      expect(earnings.body.claimsByRecipientWei[paid.toLowerCase()]).toBe(share.toString());
      expect(earnings.body.claimCount).toBe(1);
    },
  );

  it("reads a v0 claim only once the blocks of its token are indexed", async () => {
    const c = chain();
    const recipient = c.accounts[6]!;
    const { d } = await legacyToken(c, "proxy");
    const { txHash } = await claimLegacyFees(c, d, { paired: parseEther("1"), recipient });
    const claimBlock = Number((await c.publicClient.getTransactionReceipt({ hash: txHash })).blockNumber);

    // The token indexer is behind the claim (a backfill still running): the claim stream waits there.
    await tokensIndexedTo(claimBlock - 1);
    const early = await indexLegacyClaims(8453);
    expect(early.toBlock ?? 0).toBeLessThan(claimBlock);
    expect((await getClaimed(d.address, recipient)).body).toMatchObject({ claimCount: 0 });

    await tokensIndexedTo(claimBlock);
    expect((await indexLegacyClaims(8453)).claimsInserted).toBe(1);
    expect((await getClaimed(d.address, recipient)).body).toMatchObject({ claimCount: 1, txHashes: [txHash] });
  });
});

describe("fee estimates of legacy tokens", () => {
  it("answers 422 rather than a v4 split's zeros", async () => {
    const { d } = await legacyToken(chain(), "clanker_v3_1");
    const byToken = await call(uncollectedFees, `/api/get-estimated-uncollected-fees/${d.address}`, {
      params: { address: d.address },
    });
    expect(expectError(byToken, 422, "unprocessable").error).toMatch(/clanker_v3_1 tokens are not served/);
    const byPool = await call(estimateByPool, `/api/tokens/estimate-rewards-by-pool-address?poolAddress=${d.pool}`);
    expectError(byPool, 422, "unprocessable");
  });
});
