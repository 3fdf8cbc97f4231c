// Every limit of the factory rejects with its own custom error, and the boundary values pass.
import { describe, expect, it } from "vitest";
import { encodeAbiParameters, type Address } from "viem";
import { ChainRevertError, simulateDeployToken, type DeploymentConfig } from "@/lib/platform/chain";
import { defaultDeploymentConfig, useTestChain, type TestChain } from "@/tests/helpers/chain";

const CHAIN = 8453;
const fees = (a: number, b: number) => encodeAbiParameters([{ type: "uint24" }, { type: "uint24" }], [a, b]);
const vaultData = (admin: Address, lockup: bigint) =>
  encodeAbiParameters([{ type: "address" }, { type: "uint256" }, { type: "uint256" }], [admin, lockup, 0n]);
const DAY = 86_400n;

async function revertName(config: DeploymentConfig): Promise<string | undefined> {
  const error = await simulateDeployToken(CHAIN, config).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error === undefined) return undefined;
  expect(error).toBeInstanceOf(ChainRevertError);
  return (error as ChainRevertError).errorName;
}

/** n reward recipients sharing 10,000 bps (the first takes the remainder). */
function rewards(chain: TestChain, config: DeploymentConfig, n: number) {
  const who = Array.from({ length: n }, (_, i) => chain.accounts[i % 10]!);
  const bps = who.map((_, i) => (i === 0 ? 10_000 - Math.floor(10_000 / n) * (n - 1) : Math.floor(10_000 / n)));
  Object.assign(config.lockerConfig, { rewardAdmins: who, rewardRecipients: who, rewardBps: bps });
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

  it("accepts the boundaries: 7 recipients, 7 positions, 10 extensions taking 90%, 5% static fees", async () => {
    const c = config();
    rewards(chain(), c, 7);
    positions(c, 7);
    vaults(chain(), c, Array(10).fill(900));
    c.poolConfig.poolData = fees(50_000, 50_000);
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

  it("fees: static at most 5% per side, dynamic base at least 0.25%", async () => {
    let c = config();
    c.poolConfig.poolData = fees(50_001, 10_000);
    expect(await revertName(c)).toBe("StaticFeeTooHigh");

    c = config();
    c.poolConfig.poolData = fees(10_000, 50_001);
    expect(await revertName(c)).toBe("StaticFeeTooHigh");

    c = config();
    c.poolConfig.hook = chain().contracts.dynamicFeeHook;
    c.poolConfig.poolData = fees(2_500, 50_000);
    expect(await revertName(c)).toBeUndefined();

    c.poolConfig.poolData = fees(2_499, 50_000);
    expect(await revertName(c)).toBe("BaseFeeTooLow");

    c.poolConfig.poolData = fees(5_000, 50_001);
    expect(await revertName(c)).toBe("MaxLpFeeTooHigh");
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
    c.poolConfig.poolData = fees(50_001, 10_000);
    const error = (await simulateDeployToken(CHAIN, c).catch((e) => e)) as ChainRevertError;
    expect(error.args).toEqual([50_001]);
    expect(error.message).toContain("StaticFeeTooHigh");
  });
});
