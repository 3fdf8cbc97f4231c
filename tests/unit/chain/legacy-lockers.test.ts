// The legacy lockers' claim events, reward recipients and LP deposits, read on the local chain's stand-ins for the
// platform's v0 to v3.1 contracts, and the decoding of their claim events from hand-made logs.
import { describe, expect, it } from "vitest";
import { encodeAbiParameters, encodeEventTopics, getAddress, keccak256, toHex, zeroAddress, type Address } from "viem";
import {
  CLAIMED_FEES_TOPIC,
  decodeLegacyClaim,
  readLegacyClaimLogs,
  readLegacyLocker,
  readLpDeposit,
} from "@/lib/platform/chain";
import { LEGACY_V2_TEAM_REWARD, WETH_ADDRESS } from "@/dev/chain/local";
import { useTestChain } from "@/tests/helpers/chain";
import {
  LEGACY_GENERATIONS,
  LEGACY_SUPPLY,
  claimLegacyFees,
  deployLegacyToken,
  type LegacyGeneration,
} from "@/tests/helpers/legacy-chain";

const CHAIN = 8453;
const chain = useTestChain();
const ETH = 10n ** 18n;

/** The WETH side of a payout, by the pair's order. */
const wethOf = (token: Address, p: { amount0: bigint; amount1: bigint }) =>
  BigInt(WETH_ADDRESS) < BigInt(token) ? p.amount0 : p.amount1;

describe("legacy lockers on the local chain", () => {
  it.each(LEGACY_GENERATIONS)("%s: the claim event, the recipients and the deposit", async (generation) => {
    const c = chain();
    const recipient = c.accounts[6]!;
    const deployment = await deployLegacyToken(c, generation as LegacyGeneration, {
      name: `Lockers ${generation}`,
      creatorRewardRecipient: recipient,
    });
    const claim = await claimLegacyFees(c, deployment, { paired: ETH, recipient });

    const { events, undecodable } = await readLegacyClaimLogs(CHAIN, {
      fromBlock: deployment.blockNumber,
      toBlock: claim.blockNumber,
      lockers: [deployment.locker],
    });
    expect(undecodable).toEqual([]);
    const event = events.find((e) => e.transactionHash === claim.txHash)!;
    expect(event.address).toBe(deployment.locker);
    const creator = event.payouts.find((p) => p.role === "creator")!;
    // v0/v1 pay the recipient the claimer names; v2/v3 their user recipient (the deployer); v3.1 its creator recipient.
    const paid = generation === "clanker_v2" || generation === "clanker_v3" ? deployment.deployer : recipient;
    expect(creator.recipient).toBe(paid);
    const expected =
      generation === "clanker_v3_1"
        ? (ETH * 80n) / 100n
        : generation === "clanker_v2" || generation === "clanker_v3"
          ? ETH - (ETH * LEGACY_V2_TEAM_REWARD) / 100n
          : wethOf(deployment.address, creator);
    expect(wethOf(deployment.address, creator)).toBe(expected);
    expect(wethOf(deployment.address, creator)).toBeGreaterThan(0n);
    if (generation === "clanker_v3_1") {
      expect(event.lpNftId).toBe(deployment.positionId);
      expect(event.payouts.map((p) => p.role)).toEqual(["creator", "team"]);
    }

    const reading = await readLegacyLocker(CHAIN, {
      type: generation as LegacyGeneration,
      locker: deployment.locker,
      lpNftId: deployment.positionId,
      token: deployment.address,
    });
    expect(reading.positionOwner).toBe(deployment.locker);
    expect(reading.totalSupply).toBe(LEGACY_SUPPLY);
    expect(reading.recipients[0]?.recipient).toBe(generation === "clanker_v3_1" ? recipient : deployment.deployer);

    const deposit = await readLpDeposit(CHAIN, {
      token: deployment.address,
      block: Number(deployment.blockNumber),
      lpNftId: deployment.positionId,
      pairedToken: WETH_ADDRESS,
    });
    expect(deposit).toEqual({ positionId: deployment.positionId, tokenAmount: LEGACY_SUPPLY });
    // Another block holds no deposit for the position.
    expect(
      await readLpDeposit(CHAIN, {
        token: deployment.address,
        block: Number(claim.blockNumber),
        lpNftId: deployment.positionId,
        pairedToken: WETH_ADDRESS,
      }),
    ).toBeNull();
  });
});

describe("decodeLegacyClaim", () => {
  const place = {
    address: "0x1111111111111111111111111111111111111111" as Address,
    blockNumber: 5n,
    blockHash: keccak256(toHex("block")),
    transactionHash: keccak256(toHex("tx")),
    transactionIndex: 0,
    logIndex: 3,
  };
  const claimer = getAddress("0x2222222222222222222222222222222222222222");

  it("reads a v0 locker's claim without a team fee, which names no tokens", () => {
    const topics = encodeEventTopics({
      abi: [
        {
          type: "event",
          name: "ClaimedFees",
          inputs: [
            { indexed: true, name: "claimer", type: "address" },
            { indexed: true, name: "token0", type: "address" },
            { indexed: true, name: "token1", type: "address" },
            { indexed: false, name: "amount0", type: "uint256" },
            { indexed: false, name: "amount1", type: "uint256" },
            { indexed: false, name: "totalAmount1", type: "uint256" },
            { indexed: false, name: "totalAmount0", type: "uint256" },
          ],
        },
      ],
      args: { claimer, token0: zeroAddress, token1: zeroAddress },
    });
    expect(topics[0]).toBe(CLAIMED_FEES_TOPIC);
    const data = encodeAbiParameters(
      [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
      [7n, 9n, 7n, 9n],
    );
    const event = decodeLegacyClaim({ ...place, topics: topics as [`0x${string}`], data });
    expect(event).toMatchObject({
      shape: "split",
      lpNftId: null,
      token0: zeroAddress,
      token1: zeroAddress,
      payouts: [{ role: "creator", recipient: claimer, amount0: 7n, amount1: 9n }],
    });
  });

  it("ignores another event and throws on a claim topic whose data does not decode", () => {
    expect(decodeLegacyClaim({ ...place, topics: [keccak256(toHex("Other()"))], data: "0x" })).toBeNull();
    expect(() =>
      decodeLegacyClaim({ ...place, topics: [CLAIMED_FEES_TOPIC, keccak256(toHex("x"))], data: "0x01" }),
    ).toThrow();
  });
});
