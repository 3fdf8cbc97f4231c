// Every limit of the factory and of the modules it passes data to (the V2 fee hooks, the fee-conversion locker,
// the sniper auction) rejects with its own custom error, and the boundary values pass. The v4.1 data starts as
// the platform's SDK encodes it.
import { describe, expect, it } from "vitest";
import { decodeErrorResult, encodeAbiParameters, type Abi, type Address, type Hex } from "viem";
import { ChainRevertError, simulateDeployToken, type DeploymentConfig } from "@/lib/platform/chain";
import * as artifacts from "@/dev/chain/artifacts";
import {
  defaultDeploymentConfig,
  dynamicFeeData,
  lockerData,
  poolData,
  sdkDeploymentConfig,
  setRewards,
  sniperData,
  staticFeeData,
  useTestChain,
  type SdkToken,
  type TestChain,
} from "@/tests/helpers/chain";

const CHAIN = 8453;
const fees = (a: number, b: number) => poolData(staticFeeData(a, b));
const vaultData = (admin: Address, lockup: bigint) =>
  encodeAbiParameters([{ type: "address" }, { type: "uint256" }, { type: "uint256" }], [admin, lockup, 0n]);
const DAY = 86_400n;

/** Every error a local contract declares (the service names the deploy path's ones: tests/dev/artifacts.test.ts). */
const localErrors = Object.entries(artifacts)
  .filter(([name]) => name.endsWith("Abi"))
  .flatMap(([, abi]) => (abi as Abi).filter((item) => item.type === "error"));

async function revertName(config: DeploymentConfig): Promise<string | undefined> {
  const error = await simulateDeployToken(CHAIN, config).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error === undefined) return undefined;
  expect(error).toBeInstanceOf(ChainRevertError);
  const { data } = error as ChainRevertError;
  expect(data, String(error)).toMatch(/^0x[0-9a-f]{8}/);
  return decodeErrorResult({ abi: localErrors, data: data! }).errorName;
}

/** n reward recipients sharing 10,000 bps (the first takes the remainder). */
function rewards(chain: TestChain, config: DeploymentConfig, n: number) {
  const who = Array.from({ length: n }, (_, i) => chain.accounts[i % 10]!);
  const bps = who.map((_, i) => (i === 0 ? 10_000 - Math.floor(10_000 / n) * (n - 1) : Math.floor(10_000 / n)));
  setRewards(config, who, bps);
}

/** n positions from the starting tick upward, sharing 10,000 bps. */
function positions(config: DeploymentConfig, n: number) {
  const lower = Array.from({ length: n }, (_, i) => -230_400 + i * 2_000);
  const bps = lower.map((_, i) => (i === 0 ? 10_000 - Math.floor(10_000 / n) * (n - 1) : Math.floor(10_000 / n)));
  Object.assign(config.lockerConfig, { tickLower: lower, tickUpper: lower.map(() => -120_000), positionBps: bps });
}

function vaults(chain: TestChain, config: DeploymentConfig, bps: number[]) {
  config.extensionConfigs = bps.map((extensionBps) => ({
    extension: chain.contracts.vault,
    msgValue: 0n,
    extensionBps,
    extensionData: vaultData(chain.accounts[2]!, 7n * DAY),
  }));
}

describe("factory limits", () => {
  const chain = useTestChain();
  const config = () => defaultDeploymentConfig(chain());

  it("accepts the boundaries: 7 recipients, 7 positions, 10 extensions taking 90%, 10% static fees", async () => {
    const c = config();
    rewards(chain(), c, 7);
    positions(c, 7);
    vaults(chain(), c, Array(10).fill(900));
    c.poolConfig.poolData = fees(100_000, 100_000);
    expect(await revertName(c)).toBeUndefined();
  });

  it("reward recipients: at most 7, at least 1, arrays of one length, bps summing to 10,000", async () => {
    let c = config();
    rewards(chain(), c, 8);
    expect(await revertName(c)).toBe("TooManyRewardParticipants");

    c = config();
    Object.assign(c.lockerConfig, { rewardAdmins: [], rewardRecipients: [], rewardBps: [] });
    expect(await revertName(c)).toBe("NoRewardRecipients");

    c = config();
    c.lockerConfig.rewardBps = [5_000, 5_000];
    expect(await revertName(c)).toBe("MismatchedRewardArrays");

    c = config();
    c.lockerConfig.rewardBps = [9_999];
    expect(await revertName(c)).toBe("InvalidRewardBps");

    c = config();
    rewards(chain(), c, 2);
    c.lockerConfig.rewardBps = [10_000, 0];
    expect(await revertName(c)).toBe("ZeroRewardAmount");
  });

  it("positions: at most 7, bps summing to 10,000, ticks on the spacing, at or above the start, ordered", async () => {
    let c = config();
    positions(c, 8);
    expect(await revertName(c)).toBe("TooManyPositions");

    c = config();
    c.lockerConfig.positionBps = [10_001];
    expect(await revertName(c)).toBe("InvalidPositionBps");

    c = config();
    c.lockerConfig.tickLower = [-230_300];
    expect(await revertName(c)).toBe("TicksNotMultipleOfTickSpacing");

    c = config();
    c.lockerConfig.tickLower = [-230_600];
    expect(await revertName(c)).toBe("TickRangeLowerThanStartingTick");

    c = config();
    c.lockerConfig.tickUpper = [-230_400];
    expect(await revertName(c)).toBe("TicksBackwards");

    c = config();
    c.poolConfig.tickIfToken0IsClanker = -230_500;
    expect(await revertName(c)).toBe("TicksNotMultipleOfTickSpacing");
  });

  it("extensions: at most 10, at most 90% of the supply, ETH matching their msgValue", async () => {
    let c = config();
    vaults(chain(), c, Array(11).fill(100));
    expect(await revertName(c)).toBe("MaxExtensionsExceeded");

    c = config();
    vaults(chain(), c, [4_500, 4_501]);
    expect(await revertName(c)).toBe("MaxExtensionBpsExceeded");

    c = config();
    vaults(chain(), c, [1_000]);
    c.extensionConfigs[0]!.msgValue = 1n;
    // simulateDeployToken sends the extensions' msgValue sum, so a vault given ETH rejects it itself.
    expect(await revertName(c)).toBe("UnexpectedMsgValue");

    c = config();
    vaults(chain(), c, [1_000]);
    c.extensionConfigs[0]!.extensionData = vaultData(chain().accounts[2]!, 7n * DAY - 1n);
    expect(await revertName(c)).toBe("LockupTooShort");

    c = config();
    c.extensionConfigs = [{ extension: chain().accounts[5]!, msgValue: 0n, extensionBps: 100, extensionData: "0x" }];
    expect(await revertName(c)).toBe("ExtensionNotEnabled");
  });

  it("modules must be enabled and the token must launch on its originating chain", async () => {
    let c = config();
    c.poolConfig.hook = chain().accounts[5]!;
    expect(await revertName(c)).toBe("HookNotEnabled");

    c = config();
    c.lockerConfig.locker = chain().contracts.feeLocker;
    expect(await revertName(c)).toBe("LockerNotEnabled");

    c = config();
    c.mevModuleConfig.mevModule = chain().accounts[5]!;
    expect(await revertName(c)).toBe("MevModuleNotEnabled");

    c = config();
    c.tokenConfig.originatingChainId = 1n;
    expect(await revertName(c)).toBe("OnlyOriginatingChain");
  });

  it("a revert carries the decoded arguments", async () => {
    const c = config();
    vaults(chain(), c, [1_000]);
    c.extensionConfigs[0]!.extensionData = vaultData(chain().accounts[2]!, 7n * DAY - 1n);
    const error = (await simulateDeployToken(CHAIN, c).catch((e) => e)) as ChainRevertError;
    expect(error.args).toEqual([7n * DAY - 1n, 7n * DAY]);
    expect(error.message).toContain("LockupTooShort");
  });
});

describe("the v4.1 data, as the platform's SDK encodes it", () => {
  const chain = useTestChain();
  const sdk = (token: Partial<SdkToken> = {}) =>
    sdkDeploymentConfig(chain(), { name: "Sdk", symbol: "SDK", tokenAdmin: chain().accounts[2]!, ...token });
  const withFeeData = (c: DeploymentConfig, feeData: Hex) => {
    c.poolConfig.poolData = poolData(feeData);
    return c;
  };

  it("the SDK's calldata passes: static, dynamic, several recipients with their fee preferences, sniper fees", async () => {
    const [a, b, d] = chain().accounts.slice(2, 5) as [Address, Address, Address];
    expect(await revertName(await sdk())).toBeUndefined();
    const many = await sdk({
      rewards: {
        recipients: [
          { admin: a, recipient: a, bps: 5_000, token: "Both" },
          { admin: b, recipient: b, bps: 3_000, token: "Paired" },
          { admin: d, recipient: d, bps: 2_000, token: "Clanker" },
        ],
      },
      fees: {
        type: "dynamic",
        baseFee: 25,
        maxFee: 1_000,
        referenceTickFilterPeriod: 30,
        resetPeriod: 120,
        resetTickFilter: 200,
        feeControlNumerator: 500_000_000,
        decayFilterBps: 7_500,
      },
      sniperFees: { startingFee: 800_000, endingFee: 30_000, secondsToDecay: 120 },
    });
    expect(many.poolConfig.hook).toBe(chain().contracts.dynamicFeeHook);
    expect(await revertName(many)).toBeUndefined();
  });

  it("pool data: PoolInitializationData, an enabled pool extension only, the hooks' fee rules", async () => {
    let c = await sdk();
    c.poolConfig.poolData = staticFeeData(10_000, 10_000); // the previous generation's bare fee data
    expect(await revertName(c)).toBe("InvalidPoolData");

    c = await sdk();
    c.poolConfig.poolData = poolData(staticFeeData(10_000, 10_000), chain().accounts[5]!, "0x01");
    expect(await revertName(c)).toBe("PoolExtensionNotEnabled");

    expect(await revertName(withFeeData(await sdk(), staticFeeData(100_001, 10_000)))).toBe("ClankerFeeTooHigh");
    expect(await revertName(withFeeData(await sdk(), staticFeeData(10_000, 100_001)))).toBe("PairedFeeTooHigh");

    c = await sdk();
    c.poolConfig.hook = chain().contracts.dynamicFeeHook;
    expect(await revertName(withFeeData(c, dynamicFeeData(2_500, 100_000)))).toBeUndefined();
    expect(await revertName(withFeeData(c, dynamicFeeData(2_499, 50_000)))).toBe("BaseFeeTooLow");
    expect(await revertName(withFeeData(c, dynamicFeeData(5_000, 100_001)))).toBe("MaxLpFeeTooHigh");
    expect(await revertName(withFeeData(c, dynamicFeeData(60_000, 50_000)))).toBe("BaseFeeGreaterThanMaxLpFee");
    expect(await revertName(withFeeData(c, staticFeeData(10_000, 10_000)))).toBe("InvalidPoolData");
  });

  it("locker data: one fee preference per recipient, each 0, 1 or 2", async () => {
    let c = await sdk();
    c.lockerConfig.lockerData = "0x"; // the previous generation's empty locker data
    expect(await revertName(c)).toBe("InvalidLockerData");

    c = await sdk();
    c.lockerConfig.lockerData = lockerData([0, 0]);
    expect(await revertName(c)).toBe("MismatchedRewardArrays");

    c = await sdk();
    c.lockerConfig.lockerData = lockerData([3]);
    expect(await revertName(c)).toBe("InvalidLockerData");
  });

  it("MEV module data: the sniper auction's fees and decay", async () => {
    const sniper = async (fees: Parameters<typeof sniperData>[0]) => {
      const c = await sdk();
      c.mevModuleConfig.mevModuleData = sniperData(fees);
      return revertName(c);
    };
    expect(await sniper({ startingFee: 800_000, endingFee: 30_000, secondsToDecay: 1n })).toBeUndefined();
    expect(await sniper({ secondsToDecay: 0n })).toBe("TimeDecayMustBeGreaterThanZero");
    expect(await sniper({ secondsToDecay: 121n })).toBe("TimeDecayLongerThanMaxMevDelay");
    expect(await sniper({ startingFee: 0, endingFee: 0 })).toBe("StartingFeeMustBeGreaterThanZero");
    expect(await sniper({ startingFee: 50_000, endingFee: 50_000 })).toBe("StartingFeeMustBeGreaterThanEndingFee");
    expect(await sniper({ startingFee: 800_001 })).toBe("StartingFeeGreaterThanMaxLpFee");
    expect(await sniper({ endingFee: 29_999 })).toBe("EndingFeeTooLow");

    const c = await sdk();
    c.mevModuleConfig.mevModuleData = "0x"; // the previous generation's empty MEV module data
    expect(await revertName(c)).toBe("InvalidMevModuleData");
  });
});
