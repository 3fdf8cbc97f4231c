// The service reads the platform's presale contract as published: its ABI (events, getPresale, the allowlist's
// record) is the platform SDK's, and logs built with the SDK's ABI decode and fold into presale changes.
import { describe, expect, it } from "vitest";
import { getBuyIntoPresaleTransaction, getSetMerkleRootTransaction } from "clanker-sdk/v4/extensions";
import {
  type Abi,
  type AbiEvent,
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  getAbiItem,
  type Hex,
  parseEther,
  zeroAddress,
  zeroHash,
} from "viem";
import { getPresaleLogs, PRESALE_STATUS } from "@/lib/platform/chain";
import { presaleAbi, presaleAllowlistAbi, presaleEventsAbi } from "@/lib/platform/chain/abi-presale";
import { foldPresaleEvents } from "@/lib/domains/presales/indexer";

const BASE_PRESALE: Address = "0xeeBbC567C3D612f50a67820f39CDD30dcCF7E6b8";
const sdkPresaleAbi = getBuyIntoPresaleTransaction({ presaleId: 1n, chainId: 8453, value: 0n }).abi as Abi;
const sdkAllowlistAbi = getSetMerkleRootTransaction({ presaleId: 1n, chainId: 8453, merkleRoot: zeroHash }).abi as Abi;

/** An ABI item without internalType (which names each side's Solidity types): names, types, indexed, order. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== "internalType")
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, v]) => [key, shape(v)]),
    );
  }
  return value;
}

const sdkItem = (abi: Abi, type: string, name: string) =>
  abi.find((item) => item.type === type && "name" in item && item.name === name);

describe("the platform presale ABI", () => {
  it("is the SDK's ClankerPresaleEthToCreator v4.1 and ClankerPresaleAllowlist v4.1, item for item", () => {
    for (const item of [...presaleEventsAbi, ...presaleAbi])
      expect(shape(item), `${item.type} ${item.name}`).toEqual(shape(sdkItem(sdkPresaleAbi, item.type, item.name)));
    for (const item of presaleAllowlistAbi)
      expect(shape(item), item.name).toEqual(shape(sdkItem(sdkAllowlistAbi, item.type, item.name)));
    // Every presale lifecycle event the platform emits is decoded (the rest are admin events).
    const lifecycle = sdkPresaleAbi.filter(
      (item): item is AbiEvent =>
        item.type === "event" && item.inputs.some((input) => input.name === "presaleId" && input.type === "uint256"),
    );
    expect(lifecycle.map((e) => e.name).filter((name) => name !== "ClankerFeeUpdatedForPresale")).toEqual(
      expect.arrayContaining(presaleEventsAbi.map((e) => e.name)),
    );
    expect(lifecycle).toHaveLength(presaleEventsAbi.length + 1);
  });
});

describe("presale logs built with the SDK's ABI", () => {
  const owner: Address = "0x2222222222222222222222222222222222222222";
  const buyer = "0x3333333333333333333333333333333333333333";
  const token = "0x4444444444444444444444444444444444444444";
  const deploymentConfig = {
    tokenConfig: {
      tokenAdmin: owner,
      name: "Presale Token",
      symbol: "PST",
      salt: zeroHash,
      image: "",
      metadata: "",
      context: "",
      originatingChainId: 8453n,
    },
    poolConfig: {
      hook: zeroAddress,
      pairedToken: zeroAddress,
      tickIfToken0IsClanker: -230400,
      tickSpacing: 200,
      poolData: "0x",
    },
    lockerConfig: {
      locker: zeroAddress,
      rewardAdmins: [owner],
      rewardRecipients: [owner],
      rewardBps: [10_000],
      tickLower: [-230400],
      tickUpper: [-120000],
      positionBps: [10_000],
      lockerData: "0x",
    },
    mevModuleConfig: { mevModule: zeroAddress, mevModuleData: "0x" },
    extensionConfigs: [{ extension: BASE_PRESALE, msgValue: 0n, extensionBps: 1000, extensionData: "0x" }],
  };

  /** A log of the Base presale, encoded with the SDK's ABI alone. */
  let logIndex = 0;
  function sdkLog(name: string, args: Record<string, unknown>, blockNumber = 100n) {
    const event = getAbiItem({ abi: sdkPresaleAbi, name }) as AbiEvent;
    const topics = encodeEventTopics({ abi: [event], eventName: name, args } as never) as Hex[];
    const data = event.inputs.filter((input) => !input.indexed);
    return {
      address: BASE_PRESALE,
      topics: topics as [Hex, ...Hex[]],
      data: encodeAbiParameters(
        data,
        data.map((input) => args[input.name!]),
      ),
      blockNumber,
      blockHash: `0x${"bb".repeat(32)}` as Hex,
      transactionHash: `0x${"cc".repeat(32)}` as Hex,
      transactionIndex: 0,
      logIndex: logIndex++,
    };
  }

  it("decodes every lifecycle event and folds it into the presale's change", () => {
    const blockTime = new Date("2026-11-01T00:00:00Z");
    const logs = [
      sdkLog("PresaleStarted", {
        presaleId: 7n,
        allowlist: zeroAddress,
        deploymentConfig,
        minEthGoal: parseEther("1"),
        maxEthGoal: parseEther("2"),
        presaleDuration: 3600n,
        presaleOwner: owner,
        lockupDuration: 7n * 86_400n,
        vestingDuration: 86_400n,
        clankerFeeBps: 0n,
      }),
      sdkLog("PresaleBuy", { presaleId: 7n, buyer, ethToUse: parseEther("2"), ethRaised: parseEther("2") }),
      sdkLog("PresaleDeployed", { presaleId: 7n, token }),
      sdkLog("ClaimEth", { presaleId: 7n, recipient: owner, ethAmount: parseEther("2"), fee: 0n }),
      sdkLog("ClaimTokens", { presaleId: 7n, claimer: buyer, tokenAmount: 5n }),
      sdkLog("WithdrawFromPresale", { presaleId: 8n, withdrawer: buyer, amount: 1n, ethRaised: 4n }),
      sdkLog("PresaleFailed", { presaleId: 8n }),
    ];
    const events = getPresaleLogs({ logs }, BASE_PRESALE);
    expect(events.map((e) => e.eventName)).toEqual([
      "PresaleStarted",
      "PresaleBuy",
      "PresaleDeployed",
      "ClaimEth",
      "ClaimTokens",
      "WithdrawFromPresale",
      "PresaleFailed",
    ]);
    expect(events[1]).toMatchObject({ args: { presaleId: 7n, buyer, ethToUse: parseEther("2") } });

    const [seven, eight] = foldPresaleEvents(events, blockTime);
    expect(seven).toMatchObject({
      presaleId: 7n,
      allowlist: zeroAddress,
      config: {
        owner,
        min_eth_goal: parseEther("1").toString(),
        max_eth_goal: parseEther("2").toString(),
        end_time: new Date(blockTime.getTime() + 3_600_000),
        lockup_duration: 7 * 86_400,
        vesting_duration: 86_400,
        started_at: blockTime,
      },
      // Claims leave the state alone: it is the launch's (log 2).
      state: { status: PRESALE_STATUS.Claimable, ethRaised: parseEther("2"), logIndex: 2 },
      deployed: { token },
    });
    expect(eight).toMatchObject({
      presaleId: 8n,
      state: { status: PRESALE_STATUS.Failed, ethRaised: 4n, logIndex: 6 },
    });
    expect(eight!.config).toBeUndefined();
  });

  it("ignores another contract's same-shaped logs and the platform's admin events", () => {
    const other = { ...sdkLog("PresaleFailed", { presaleId: 1n }), address: owner };
    const admin = sdkLog("SetAllowlist", { allowlist: owner, enabled: true });
    expect(getPresaleLogs({ logs: [other, admin] }, BASE_PRESALE)).toEqual([]);
  });
});
