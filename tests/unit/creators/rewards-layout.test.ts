// The two layouts of a locker's tokenRewards answer, checked against their Solidity signatures.
import { describe, expect, it } from "vitest";
import { decodeFunctionResult, encodeFunctionResult, getAddress, parseAbi, toFunctionSelector } from "viem";
import { lockerLayout, TOKEN_REWARDS_LAYOUTS } from "@/lib/domains/rewards/fees/rewards";

const A = getAddress("0x00000000000000000000000000000000000000a1");
const B = getAddress("0x00000000000000000000000000000000000000b2");

describe("tokenRewards layouts", () => {
  it("decodes the platform's IClankerLpLocker.TokenRewardInfo", () => {
    // token, PoolKey (currency0, currency1, fee, tickSpacing, hooks), positionId, numPositions, rewardBps, rewardAdmins, rewardRecipients
    const reference = parseAbi([
      "function tokenRewards(address) view returns ((address,(address,address,uint24,int24,address),uint256,uint256,uint16[],address[],address[]))",
    ]);
    const data = encodeFunctionResult({
      abi: reference,
      functionName: "tokenRewards",
      result: [A, [A, B, 8_388_608, 200, B], 7n, 1n, [6000, 4000], [A, B], [B, A]],
    });
    const decoded = decodeFunctionResult({
      abi: TOKEN_REWARDS_LAYOUTS.platform,
      functionName: "tokenRewards",
      data,
    }) as any;
    expect([decoded.rewardBps, decoded.rewardAdmins, decoded.rewardRecipients]).toEqual([
      [6000, 4000],
      [A, B],
      [B, A],
    ]);
    expect(toFunctionSelector(TOKEN_REWARDS_LAYOUTS.platform[0])).toBe(toFunctionSelector(reference[0]));
  });

  it("uses the platform layout only for the chain's production locker", () => {
    expect(lockerLayout(8453, "0x63D2DfEA64b3433F4071A98665bcD7Ca14d93496")).toBe("platform");
    expect(lockerLayout(8453, "0x63d2dfea64b3433f4071a98665bcd7ca14d93496" as `0x${string}`)).toBe("platform");
    expect(lockerLayout(8453, A)).toBe("local");
    expect(lockerLayout(10, "0x63D2DfEA64b3433F4071A98665bcD7Ca14d93496")).toBe("local");
  });
});
