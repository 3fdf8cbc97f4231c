// The platform's own SDK (clanker-sdk, unchanged, with its built-in Base addresses) deploys on the local chain,
// and the service indexes and serves the token like any other: POST index-by-address, then the public lookups.
import { beforeEach, describe, expect, it } from "vitest";
import { Clanker } from "clanker-sdk/v4";
import { getAddress, type Address } from "viem";
import { db } from "@/db";
import { POST as indexByAddress } from "@/app/api/tokens/index-by-address/route";
import { GET as byPool } from "@/app/api/tokens/fetch-by-pool-address/route";
import { lpLockerFeeConversionAbi, sniperAuctionV2Abi } from "@/dev/chain/artifacts";
import { FEE_IN, sdkDeploy, useTestChain } from "@/tests/helpers/chain";
import { call } from "@/tests/helpers/http";

const chain = useTestChain();

beforeEach(async () => {
  for (const table of ["tokens", "rate_limits"] as const) await db().deleteFrom(table).execute();
});

describe("a token deployed by the platform's SDK on the local chain", () => {
  it("lands at the platform's Base contracts, is indexed by address and served with its pool, locker, hook and MEV module", async () => {
    const c = chain();
    const [creator, partner] = [c.accounts[4]!, c.accounts[5]!];
    const token = await sdkDeploy(c, 4, {
      name: "Sdk Static",
      symbol: "SDKS",
      tokenAdmin: creator,
      image: "https://example.com/sdk.png",
      metadata: { description: "deployed by the SDK" },
      context: { interface: "clanker-sdk", platform: "", messageId: "", id: "" },
      rewards: {
        recipients: [
          { admin: creator, recipient: creator, bps: 7_000, token: "Both" },
          { admin: partner, recipient: partner, bps: 3_000, token: "Paired" },
        ],
      },
      fees: { type: "static", clankerFee: 100, pairedFee: 250 },
      sniperFees: { startingFee: 500_000, endingFee: 50_000, secondsToDecay: 30 },
    });

    const indexed = await call(indexByAddress, "/api/tokens/index-by-address", {
      body: { address: token.toLowerCase() },
      headers: { "x-forwarded-for": "10.9.0.1" },
    });
    expect(indexed.status, indexed.text).toBe(200);
    expect(indexed.body).toEqual({
      success: true,
      address: getAddress(token),
      message: "Token indexed successfully",
      url: expect.stringMatching(/\/tokens\/0x/),
    });

    const row = await db()
      .selectFrom("tokens")
      .select("pool_address")
      .where("contract_address", "=", token.toLowerCase())
      .executeTakeFirstOrThrow();
    expect(row.pool_address).toMatch(/^0x[0-9a-f]{64}$/);
    const served = await call(byPool, `/api/tokens/fetch-by-pool-address?poolAddress=${row.pool_address}`);
    expect(served.status, served.text).toBe(200);
    expect(served.body.data).toMatchObject({
      contract_address: token,
      name: "Sdk Static",
      symbol: "SDKS",
      admin: creator,
      msg_sender: c.accounts[4],
      type: "clanker_v4",
      pair: "WETH",
      factory_address: "0xE85A59c628F7d27878ACeB4bf3b35733630083a9",
      locker_address: "0x63D2DfEA64b3433F4071A98665bcD7Ca14d93496",
      pool_config: {
        pairedToken: c.contracts.weth,
        tickIfToken0IsNewToken: -230_400,
        poolHook: "0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC",
        mevModule: "0xebB25BB797D82CB78E1bc70406b13233c0854413",
      },
      metadata: { description: "deployed by the SDK", socialMediaUrls: [], auditUrls: [] },
      social_context: { interface: "clanker-sdk", platform: "", messageId: "", id: "" },
    });

    // What the SDK encoded reached the locker and the MEV module.
    const read = (index: bigint) =>
      c.publicClient.readContract({
        address: c.contracts.locker,
        abi: lpLockerFeeConversionAbi,
        functionName: "feePreferences",
        args: [token, index],
      });
    expect([await read(0n), await read(1n)]).toEqual([FEE_IN.Both, FEE_IN.Paired]);
    const poolId = row.pool_address as `0x${string}`;
    expect(
      await c.publicClient.readContract({
        address: c.contracts.mevModule,
        abi: sniperAuctionV2Abi,
        functionName: "feeConfig",
        args: [poolId],
      }),
    ).toEqual([500_000, 50_000, 30n]);
  });

  it("deploys with the dynamic fee hook, a vault and the SDK's defaults elsewhere", async () => {
    const c = chain();
    const admin = c.accounts[6]!;
    const token = await sdkDeploy(c, 6, {
      name: "Sdk Dynamic",
      symbol: "SDKD",
      tokenAdmin: admin,
      vault: { percentage: 10, lockupDuration: 7 * 86_400, vestingDuration: 86_400 },
      fees: {
        type: "dynamic",
        baseFee: 50,
        maxFee: 500,
        referenceTickFilterPeriod: 30,
        resetPeriod: 120,
        resetTickFilter: 200,
        feeControlNumerator: 500_000_000,
        decayFilterBps: 7_500,
      },
    });
    const indexed = await call(indexByAddress, "/api/tokens/index-by-address", {
      body: { address: token },
      headers: { "x-forwarded-for": "10.9.0.2" },
    });
    expect(indexed.status, indexed.text).toBe(200);
    const row = await db()
      .selectFrom("tokens")
      .select(["pool_config", "locker_address"])
      .where("contract_address", "=", token.toLowerCase())
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      locker_address: c.contracts.locker.toLowerCase(),
      pool_config: { poolHook: c.contracts.dynamicFeeHook, mevModule: c.contracts.mevModule },
    });
  });

  it("the SDK reads rewards back from the local fee locker at the platform's address", async () => {
    const c = chain();
    const admin = c.accounts[4]!;
    const token = await sdkDeploy(c, 4, { name: "Sdk Rewards", symbol: "SDKR", tokenAdmin: admin });
    const sdk = new Clanker({ publicClient: c.publicClient as never });
    expect(await sdk.availableRewards({ token, rewardRecipient: admin as Address })).toBe(0n);
  });
});
