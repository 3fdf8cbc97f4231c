// The tokenRewards answer the service reads, checked against the platform's Solidity signature and the local locker.
import { describe, expect, it } from "vitest";
import { decodeFunctionResult, encodeFunctionResult, getAbiItem, getAddress, parseAbi, toFunctionSelector } from "viem";
import { formatAbiItem } from "viem/utils";
import { tokenRewardsAbi } from "@/lib/domains/rewards/fees/rewards";
import { lpLockerFeeConversionAbi } from "@/dev/chain/artifacts";

const A = getAddress("0x00000000000000000000000000000000000000a1");
const B = getAddress("0x00000000000000000000000000000000000000b2");

describe("tokenRewards", () => {
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
    const decoded = decodeFunctionResult({ abi: tokenRewardsAbi, functionName: "tokenRewards", data });
    expect([decoded.rewardBps, decoded.rewardAdmins, decoded.rewardRecipients]).toEqual([
      [6000, 4000],
      [A, B],
      [B, A],
    ]);
    expect(toFunctionSelector(tokenRewardsAbi[0])).toBe(toFunctionSelector(reference[0]));
  });

  it("is the answer of the local chain's locker (installed at the platform's address)", () => {
    const local = getAbiItem({ abi: lpLockerFeeConversionAbi, name: "tokenRewards" });
    const types = (item: { outputs: readonly unknown[] }) => formatAbiItem({ ...item, name: "f" } as never);
    expect(types(local)).toBe(types(tokenRewardsAbi[0]));
  });
});
