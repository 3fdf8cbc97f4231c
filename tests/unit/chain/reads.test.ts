// Pool state, market cap, the ETH/USD feed, token data, fee balances and fee claims on the local chain.
import { describe, expect, it } from "vitest";
import { getAddress, parseEther, type Address } from "viem";
import {
  CLAIM_TOKENS_TOPIC,
  decodeFeeClaim,
  findTokenCreated,
  getFeeClaimLogs,
  readAvailableFees,
  readPoolState,
  readPoolWithFeed,
  readTokenInfo,
  sendDeployToken,
  waitForReceipt,
  TOKEN_SUPPLY,
  type PoolState,
} from "@/lib/platform/chain";
import { factoryAbi, feeLockerAbi, lpLockerFeeConversionAbi, weth9Abi } from "@/dev/chain/artifacts";
import { LOCAL_ETH_USD } from "@/dev/chain/local";
import { marketCapUsd, ratioToNumber } from "@/lib/domains/tokens/market/price-math";
import { defaultDeploymentConfig, setRewards, useTestChain, type TestChain } from "@/tests/helpers/chain";

const CHAIN = 8453;

/** The market layer's exact math on a pool read from the chain: market cap in whole paired tokens. */
const capInPaired = (s: PoolState) =>
  ratioToNumber(
    marketCapUsd({
      sqrtPriceX96: s.sqrtPriceX96,
      tokenIsToken0: s.token.toLowerCase() === s.token0.toLowerCase(),
      supply: s.totalSupply,
      pairedDecimals: 18,
      pairedUsd: { num: 1n, den: 1n },
    }),
  );

async function deployToken(chain: TestChain, rewardBps = [10_000]) {
  const config = defaultDeploymentConfig(chain);
  const recipients = rewardBps.map((_, i) => chain.accounts[2 + i]!);
  setRewards(config, recipients, rewardBps);
  const receipt = await waitForReceipt(CHAIN, await sendDeployToken(CHAIN, config));
  const token = getAddress(findTokenCreated(receipt)[0]!.tokenAddress);
  const [pool] = (await chain.publicClient.readContract({
    address: chain.contracts.factory,
    abi: factoryAbi,
    functionName: "deploymentInfo",
    args: [token],
  })) as readonly [Address, ...unknown[]];
  return { token, pool, recipients };
}

describe("pool state and market cap", () => {
  const chain = useTestChain();

  it("reads slot0, tokens, fee and supply of a launched token's pool in one call", async () => {
    const { token, pool } = await deployToken(chain());
    const state = await readPoolState(CHAIN, pool, token);
    expect(state).not.toBeNull();
    const tokenIsToken0 = token.toLowerCase() < chain().contracts.weth.toLowerCase();
    expect(state).toMatchObject({
      pool,
      token,
      totalSupply: TOKEN_SUPPLY,
      fee: 10_000,
      tick: tokenIsToken0 ? -230_400 : 230_400,
      token0: tokenIsToken0 ? token : chain().contracts.weth,
      token1: tokenIsToken0 ? chain().contracts.weth : token,
    });
    // sqrt(1.0001^tick) * 2^96, within float precision.
    const expected = Math.sqrt(1.0001 ** state!.tick) * 2 ** 96;
    expect(Math.abs(Number(state!.sqrtPriceX96) / expected - 1)).toBeLessThan(1e-9);
    // Tick -230400 is the default pool: about 10 WETH of market cap.
    const cap = capInPaired(state!);
    expect(cap).toBeGreaterThan(9.5);
    expect(cap).toBeLessThan(10.5);
  });

  it("market cap is the same whichever side of the pool the token sorts to", async () => {
    // The paired token only has to sort: one below every address, one above.
    const caps = [];
    for (const pairedToken of [
      "0x0000000000000000000000000000000000000001",
      "0xFFfFfFffFFfffFFfFFfFFFFFffFFFffffFfFFFfF",
    ] as const) {
      const config = defaultDeploymentConfig(chain(), { salt: `0x${pairedToken.slice(-2).repeat(32)}` });
      config.poolConfig.pairedToken = pairedToken;
      const receipt = await waitForReceipt(CHAIN, await sendDeployToken(CHAIN, config));
      const token = getAddress(findTokenCreated(receipt)[0]!.tokenAddress);
      const [pool] = (await chain().publicClient.readContract({
        address: chain().contracts.factory,
        abi: factoryAbi,
        functionName: "deploymentInfo",
        args: [token],
      })) as readonly [Address, ...unknown[]];
      const state = (await readPoolState(CHAIN, pool, token))!;
      expect(state.tick).toBe(pairedToken.startsWith("0x00") ? 230_400 : -230_400);
      caps.push(capInPaired(state));
    }
    expect(Math.abs(caps[0]! - caps[1]!) / caps[1]!).toBeLessThan(1e-9);
    expect(caps[0]).toBeGreaterThan(9.5);
  });

  it("answers null for an address that is not a pool, or a token that is not in the pool", async () => {
    const { token, pool } = await deployToken(chain());
    expect(await readPoolState(CHAIN, chain().accounts[5]!, token)).toBeNull();
    expect(await readPoolState(CHAIN, pool, chain().contracts.feeLocker)).toBeNull();
  });

  it("reads the ETH/USD feed and the chain's time in the pool's multicall", async () => {
    const { token, pool } = await deployToken(chain());
    const reading = await readPoolWithFeed(CHAIN, pool, token, { feed: chain().contracts.ethUsdFeed, chainTime: true });
    expect(reading.pool).toEqual(await readPoolState(CHAIN, pool, token));
    expect(reading.feed).toMatchObject({ answer: LOCAL_ETH_USD, decimals: 8, roundId: expect.any(BigInt) });
    const block = await chain().publicClient.getBlock();
    expect(reading.chainTime).toBe(block.timestamp);
    expect(reading.feed!.updatedAt.getTime()).toBeLessThanOrEqual(Number(block.timestamp) * 1000);
    expect(reading.feed!.updatedAt.getTime()).toBeGreaterThan(Date.now() - 3_600_000);
    // Nothing asked for, nothing read; an address that is not a feed reads as null, not as an error.
    expect(await readPoolWithFeed(CHAIN, pool, token)).toEqual({ pool: reading.pool });
    const notAFeed = await readPoolWithFeed(CHAIN, pool, token, { feed: chain().accounts[5]! });
    expect(notAFeed).toEqual({ pool: reading.pool, feed: null });
  });

  it("reads a token's launch data", async () => {
    const { token } = await deployToken(chain());
    expect(await readTokenInfo(CHAIN, token)).toMatchObject({
      symbol: "TEST",
      decimals: 18,
      image: "https://example.com/token.png",
    });
    expect(await readTokenInfo(CHAIN, chain().accounts[5]!)).toBeNull();
  });
});

describe("fee locker", () => {
  const chain = useTestChain();

  /** Account 9 wraps ETH and pays it in as rewards of `token`, split by the locker into the fee locker. */
  async function payRewards(c: TestChain, token: Address, amount: bigint) {
    const payer = c.wallet(9);
    const send = async (hash: Promise<`0x${string}`>) => c.publicClient.waitForTransactionReceipt({ hash: await hash });
    await send(
      payer.writeContract({ address: c.contracts.weth, abi: weth9Abi, functionName: "deposit", value: amount }),
    );
    await send(
      payer.writeContract({
        address: c.contracts.weth,
        abi: weth9Abi,
        functionName: "approve",
        args: [c.contracts.locker, amount],
      }),
    );
    await send(
      payer.writeContract({
        address: c.contracts.locker,
        abi: lpLockerFeeConversionAbi,
        functionName: "distributeRewards",
        args: [token, c.contracts.weth, amount],
      }),
    );
  }

  it("answers available fees per owner and token, and decodes claims", async () => {
    const c = chain();
    const { token, recipients } = await deployToken(c, [7_000, 3_000]);
    await payRewards(c, token, parseEther("1"));

    const fees = await readAvailableFees(CHAIN, undefined, recipients, [c.contracts.weth, token]);
    expect(fees).toEqual([
      { feeOwner: recipients[0], token: c.contracts.weth, amount: parseEther("0.7") },
      { feeOwner: recipients[0], token, amount: 0n },
      { feeOwner: recipients[1], token: c.contracts.weth, amount: parseEther("0.3") },
      { feeOwner: recipients[1], token, amount: 0n },
    ]);

    // Anyone may trigger a claim; the fee owner is paid.
    const hash = await c.wallet(8).writeContract({
      address: c.contracts.feeLocker,
      abi: feeLockerAbi,
      functionName: "claim",
      args: [recipients[0]!, c.contracts.weth],
    });
    const receipt = await c.publicClient.waitForTransactionReceipt({ hash });
    const claim = decodeFeeClaim(receipt.logs.find((log) => log.topics[0] === CLAIM_TOKENS_TOPIC)!);
    expect(claim).toMatchObject({
      feeOwner: recipients[0],
      token: c.contracts.weth,
      amountClaimed: parseEther("0.7"),
      transactionHash: hash,
    });

    const logs = await getFeeClaimLogs(CHAIN, {
      feeLockers: [c.contracts.feeLocker],
      fromBlock: 0n,
      toBlock: receipt.blockNumber,
    });
    expect(logs.map((l) => [l.feeOwner, l.amountClaimed])).toEqual([[recipients[0], parseEther("0.7")]]);
    const forOther = await getFeeClaimLogs(CHAIN, {
      feeLockers: [c.contracts.feeLocker],
      fromBlock: 0n,
      toBlock: receipt.blockNumber,
      feeOwners: [recipients[1]!],
    });
    expect(forOther).toEqual([]);

    const after = await readAvailableFees(CHAIN, c.contracts.feeLocker, [recipients[0]!], [c.contracts.weth]);
    expect(after[0]!.amount).toBe(0n);
  });
});
