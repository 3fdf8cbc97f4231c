// The local stand-ins for the platform's v0 to v3.1 contracts: each factory's TokenCreated and deployToken are the
// platform SDK's own, each locker answers the reads and emits the claim events the platform's contracts do, and a
// claim sent as the SDK's legacy fee claim helper builds it pays the right shares.
import { describe, expect, it } from "vitest";
import { CLANKERS } from "clanker-sdk";
import { ClankerClaimRewardsAbi, LockerCollectFeesAbi } from "clanker-sdk/legacyFeeClaims";
import { Clanker as ClankerV3 } from "clanker-sdk/v3";
import { getAddress, parseEventLogs, zeroAddress, type Abi, type AbiEvent, type AbiFunction, type Address } from "viem";
import { formatAbiItem } from "viem/utils";
import * as artifacts from "@/dev/chain/artifacts";
import { LEGACY_BASE_ADDRESSES, LEGACY_V2_TEAM_REWARD, WETH_ADDRESS } from "@/dev/chain/local";
import { useTestChain } from "@/tests/helpers/chain";
import {
  LEGACY,
  LEGACY_GENERATIONS,
  LEGACY_SUPPLY,
  claimLegacyFees,
  deployLegacyToken,
  platformPoolAddress,
} from "@/tests/helpers/legacy-chain";

const chain = useTestChain();
const L = LEGACY_BASE_ADDRESSES;

const FACTORY_ABIS = {
  proxy: artifacts.legacyFactoryV0Abi,
  clanker: artifacts.legacyFactoryV1Abi,
  clanker_v2: artifacts.legacyFactoryV2Abi,
  clanker_v3: artifacts.legacyFactoryV3Abi,
  clanker_v3_1: artifacts.legacyFactoryV3_1Abi,
} as const;

type Item = { type: string; name?: string };
const find = (abi: readonly Item[], type: string, name: string) =>
  abi.filter((i) => i.type === type && i.name === name) as (AbiEvent | AbiFunction)[];
/** Signature, member names, indexed flags and outputs: what decoding a log or a read, or encoding a call, depends on. */
const shape = (item: AbiEvent | AbiFunction) =>
  `${formatAbiItem(item as never)} ${JSON.stringify(item.inputs, ["name", "type", "indexed", "components"])} -> ${JSON.stringify(
    (item as AbiFunction).outputs ?? [],
    ["name", "type", "components"],
  )}`;

/** Every function and event of the SDK's ABI that the local contract has is exactly the SDK's (some overload of it). */
function expectFaithful(
  sdk: readonly Item[],
  local: readonly Item[],
  required: string[],
  notImplemented: string[] = [],
) {
  const implemented = sdk.filter(
    (i) =>
      (i.type === "event" || i.type === "function") &&
      find(local, i.type, i.name!).length &&
      !notImplemented.includes(formatAbiItem(i as never)),
  );
  for (const item of implemented) {
    expect(find(local, item.type, item.name!).map(shape), `${item.type} ${item.name}`).toContain(
      shape(item as AbiEvent),
    );
  }
  expect(implemented.map((i) => i.name)).toEqual(expect.arrayContaining(required));
  return implemented.map((i) => i.name);
}

/** The v3.1 locker's ABI as the SDK's v3 client sends it (the SDK does not export it by name). */
async function sdkLockerV3_1Abi(): Promise<readonly Item[]> {
  const sdk = new ClankerV3({ publicClient: { chain: { id: 8453 } } } as never);
  const tx = await sdk.getUpdateCreatorRewardRecipientTransaction(1n, zeroAddress);
  expect(getAddress(tx.address)).toBe(L.lockerV3_1);
  return tx.abi as readonly Item[];
}

describe("legacy contract ABIs", () => {
  it("each factory emits the SDK's TokenCreated and takes the SDK's deployToken", () => {
    for (const g of LEGACY_GENERATIONS) {
      const required = ["TokenCreated", "deployToken"];
      if (g === "clanker_v2" || g === "clanker_v3" || g === "clanker_v3_1")
        required.push("claimRewards", "deploymentInfoForToken");
      // v3's presale overload is not implemented.
      const presale =
        "deployToken((string,string,uint256,uint24,bytes32,address,uint256,string,string,(int24,address,uint24)),uint256,(uint256,address)[],(uint256,uint256,uint256,uint256,address))";
      expectFaithful(
        LEGACY[g].sdk.abi as readonly Item[],
        FACTORY_ABIS[g],
        required,
        g === "clanker_v3" ? [presale] : [],
      );
      expect(getAddress(LEGACY[g].sdk.address)).toBe(LEGACY[g].factory);
    }
  });

  it("the lockers take the claims the SDK's legacy fee claims send, and the v3.1 locker is the SDK's", async () => {
    const [claimRewards] = ClankerClaimRewardsAbi;
    for (const g of ["clanker_v2", "clanker_v3", "clanker_v3_1"] as const) {
      expect(find(FACTORY_ABIS[g], "function", "claimRewards").map(shape)).toEqual([shape(claimRewards)]);
    }
    expect(find(artifacts.legacyLockerV0Abi, "function", "collectFees").map(shape)).toEqual([
      shape(LockerCollectFeesAbi[0]),
    ]);
    expectFaithful(await sdkLockerV3_1Abi(), artifacts.legacyLockerV3_1Abi, [
      "ClaimedRewards",
      "TokenRewardAdded",
      "collectRewards",
      "tokenRewards",
      "getLpTokenIdsForCreator",
      "updateCreatorRewardRecipient",
      "updateCreatorRewardAdmin",
      "updateInterfaceRewardRecipient",
      "updateInterfaceRewardAdmin",
    ]);
  });
});

describe("legacy tokens on the local chain", () => {
  it("deploy with each generation's event, pool and locked LP position", async () => {
    const c = chain();
    for (const g of LEGACY_GENERATIONS) {
      const d = await deployLegacyToken(c, g, { fid: 77n, castHash: "0xcast", image: "https://img.example/1.png" });
      expect(d.factory).toBe(LEGACY[g].factory);
      expect(d.positionId).toBeGreaterThan(0n);
      const owner = await c.publicClient.readContract({
        address: L.positionManager,
        abi: artifacts.legacyPositionManagerAbi,
        functionName: "ownerOf",
        args: [d.positionId],
      });
      expect(owner, g).toBe(d.locker);
      const [token0, token1, fee] = await Promise.all(
        (["token0", "token1", "fee"] as const).map((f) =>
          c.publicClient.readContract({ address: d.pool, abi: artifacts.poolAbi, functionName: f }),
        ),
      );
      expect([token0, token1].sort()).toEqual([d.address, WETH_ADDRESS].sort());
      expect(fee).toBe(10_000);
      expect(platformPoolAddress(d.address)).not.toBe(d.pool);
      const supply = await c.publicClient.readContract({
        address: d.address,
        abi: artifacts.tokenAbi,
        functionName: "totalSupply",
      });
      expect(supply).toBe(LEGACY_SUPPLY);
      if (g !== "proxy" && g !== "clanker_v3_1") {
        const [fid, castHash, deployer] = await Promise.all(
          (["fid", "castHash", "deployer"] as const).map((f) =>
            c.publicClient.readContract({ address: d.address, abi: artifacts.legacyTokenAbi, functionName: f }),
          ),
        );
        expect([fid, castHash, deployer]).toEqual([77n, "0xcast", d.deployer]);
      }
      if (g === "clanker_v2" || g === "clanker_v3" || g === "clanker_v3_1") {
        const info = await c.publicClient.readContract({
          address: d.factory,
          abi: artifacts.legacyFactoryV2Abi,
          functionName: "deploymentInfoForToken",
          args: [d.address],
        });
        expect(info).toEqual([d.address, d.positionId, d.locker]);
      }
    }
  });

  it("v0/v1 lockers pay the deployer its share and emit ClaimedFees", async () => {
    const c = chain();
    for (const g of ["proxy", "clanker"] as const) {
      const d = await deployLegacyToken(c, g);
      const weth = 10n ** 18n;
      const claim = await claimLegacyFees(c, d, { paired: weth });
      const wethIsToken0 = BigInt(WETH_ADDRESS) < BigInt(d.address);
      const mine = weth - (weth * 60n) / 100n;
      expect(claim.event.eventName).toBe("ClaimedFees");
      expect(claim.event.args).toMatchObject({
        claimer: d.deployer,
        token0: wethIsToken0 ? WETH_ADDRESS : d.address,
        token1: wethIsToken0 ? d.address : WETH_ADDRESS,
        amount0: wethIsToken0 ? mine : 0n,
        amount1: wethIsToken0 ? 0n : mine,
        totalAmount1: wethIsToken0 ? weth : 0n,
        totalAmount0: wethIsToken0 ? 0n : weth,
      });
      // Only the locker's owner (the deployer) may claim.
      await expect(claimLegacyFees(c, d, { claimer: 3 })).rejects.toThrow();
    }
  });

  it("v2/v3 lockers answer the user's recipient and emit ClaimedRewards through the factory's claimRewards", async () => {
    const c = chain();
    for (const g of ["clanker_v2", "clanker_v3"] as const) {
      const d = await deployLegacyToken(c, g);
      expect(
        await c.publicClient.readContract({
          address: d.locker,
          abi: artifacts.legacyLockerV2Abi,
          functionName: "_userRewardRecipientForToken",
          args: [d.positionId],
        }),
      ).toEqual([d.deployer, d.positionId]);
      expect(
        await c.publicClient.readContract({
          address: d.locker,
          abi: artifacts.legacyLockerV2Abi,
          functionName: "getLpTokenIdsForUser",
          args: [d.deployer],
        }),
      ).toEqual([d.positionId]);
      const before = await wethOf(c, d.deployer);
      const claim = await claimLegacyFees(c, d, { paired: 1_000n, claimer: 6 });
      const mine = 1_000n - (1_000n * LEGACY_V2_TEAM_REWARD) / 100n;
      expect(claim.event.eventName).toBe("ClaimedRewards");
      expect(claim.event.args.claimer).toBe(d.deployer);
      expect((claim.event.args.amount0 as bigint) + (claim.event.args.amount1 as bigint)).toBe(mine);
      expect(await wethOf(c, d.deployer)).toBe(before + mine);
    }
  });

  it("the v3.1 locker splits team, creator and interface rewards and emits the SDK's ClaimedRewards", async () => {
    const c = chain();
    const [creator, iface] = [c.accounts[2]!, c.accounts[3]!];
    const d = await deployLegacyToken(c, "clanker_v3_1", {
      creatorReward: 60n,
      interfaceAdmin: iface,
      interfaceRewardRecipient: iface,
      vaultPercentage: 10,
      vaultDurationSeconds: 30n * 86_400n,
    });
    const info = await c.publicClient.readContract({
      address: d.locker,
      abi: artifacts.legacyLockerV3_1Abi,
      functionName: "tokenRewards",
      args: [d.positionId],
    });
    expect(info).toEqual([
      d.positionId,
      60n,
      { admin: creator, recipient: creator },
      { admin: iface, recipient: iface },
    ]);
    const [allocation] = await c.publicClient.readContract({
      address: L.vaultV3_1,
      abi: artifacts.legacyVaultV3_1Abi,
      functionName: "allocation",
      args: [d.address],
    });
    expect(allocation).toBe(LEGACY_SUPPLY / 10n);

    const claim = await claimLegacyFees(c, d, { paired: 1_000n, claimer: 7 });
    const sdkEvents = parseEventLogs({
      abi: (await sdkLockerV3_1Abi()) as Abi,
      logs: claim.receipt.logs,
      eventName: "ClaimedRewards",
    });
    expect(sdkEvents).toHaveLength(1);
    const wethIsToken0 = BigInt(WETH_ADDRESS) < BigInt(d.address);
    const pick = (n: bigint) => (wethIsToken0 ? [n, 0n] : [0n, n]);
    const a = sdkEvents[0]!.args as Record<string, unknown>;
    expect(a).toMatchObject({
      lpTokenId: d.positionId,
      creatorRecipient: creator,
      interfaceRecipient: iface,
      teamRecipient: c.accounts[0],
    });
    expect([a.teamReward0, a.teamReward1]).toEqual(pick(200n));
    expect([a.creatorReward0, a.creatorReward1]).toEqual(pick(600n));
    expect([a.interfaceReward0, a.interfaceReward1]).toEqual(pick(200n));

    // The creator admin names a new recipient, and the next claim pays it.
    const admin = c.wallet(2);
    const hash = await admin.writeContract({
      address: d.locker,
      abi: artifacts.legacyLockerV3_1Abi,
      functionName: "updateCreatorRewardRecipient",
      args: [d.positionId, c.accounts[4]!],
    });
    await c.publicClient.waitForTransactionReceipt({ hash });
    const next = await claimLegacyFees(c, d, { paired: 100n });
    expect(next.event.args.creatorRecipient).toBe(c.accounts[4]);
  });

  it("the v3.1 factory takes the SDK's dev buy and refuses a second token of the same admin and salt", async () => {
    const c = chain();
    const d = await deployLegacyToken(c, "clanker_v3_1", { devBuy: 10n ** 16n, saltLabel: "dev-buy" });
    const bought = await c.publicClient.readContract({
      address: d.address,
      abi: artifacts.tokenAbi,
      functionName: "balanceOf",
      args: [d.deployer],
    });
    expect(bought).toBeGreaterThan(0n);
    const [created] = parseEventLogs({
      abi: CLANKERS.clanker_v3_1.abi as unknown as Abi,
      eventName: "TokenCreated",
      logs: d.receipt.logs,
    });
    expect((created!.args as { amountTokensBought: bigint }).amountTokensBought).toBe(bought);
    await expect(deployLegacyToken(c, "clanker_v3_1", { saltLabel: "dev-buy" })).rejects.toThrow();
  });
});

async function wethOf(c: ReturnType<typeof chain>, who: Address) {
  return c.publicClient.readContract({
    address: WETH_ADDRESS,
    abi: artifacts.weth9Abi,
    functionName: "balanceOf",
    args: [who],
  });
}
