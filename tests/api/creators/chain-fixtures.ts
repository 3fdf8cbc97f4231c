// Launches, reward payments and fee claims on the local chain, and the matching tokens row.
import { encodeAbiParameters, getAddress, keccak256, toHex, type Address, type Hash } from "viem";
import { findTokenCreated, sendDeployToken, waitForReceipt } from "@/lib/platform/chain";
import {
  factoryAbi,
  feeLockerAbi,
  lpLockerFeeConversionAbi,
  poolAbi,
  tokenAbi,
  tokenVaultAbi,
  weth9Abi,
} from "@/dev/chain/artifacts";
import { defaultDeploymentConfig, setRewards, type TestChain } from "@/tests/helpers/chain";
import { insertToken } from "./fixtures";

const CHAIN = 8453;
let launches = 0;

export type Launch = { token: Address; pool: Address; recipients: Address[]; vaultAdmin: Address };

/**
 * Launches a token whose rewards go to accounts 2, 3, … by `rewardBps`, each taking its fees in the tokens of
 * `feeIn` (FEE_IN; both unless given), with 10% of the supply in a 7-day vault for account 7.
 */
export async function launch(
  c: TestChain,
  rewardBps: number[],
  options: { recipients?: Address[]; feeIn?: number[] } = {},
): Promise<Launch> {
  launches += 1;
  const config = defaultDeploymentConfig(c, { salt: keccak256(toHex(`earnings-${launches}-${Date.now()}`)) });
  const recipients = options.recipients ?? rewardBps.map((_, i) => c.accounts[2 + i]!);
  setRewards(config, recipients, rewardBps, options.feeIn);
  const vaultAdmin = c.accounts[7]!;
  config.extensionConfigs = [
    {
      extension: c.contracts.vault,
      msgValue: 0n,
      extensionBps: 1000,
      extensionData: encodeAbiParameters(
        [{ type: "address" }, { type: "uint256" }, { type: "uint256" }],
        [vaultAdmin, 604_800n, 0n],
      ),
    },
  ];
  const receipt = await waitForReceipt(CHAIN, await sendDeployToken(CHAIN, config));
  const token = getAddress(findTokenCreated(receipt)[0]!.tokenAddress);
  const [pool] = (await c.publicClient.readContract({
    address: c.contracts.factory,
    abi: factoryAbi,
    functionName: "deploymentInfo",
    args: [token],
  })) as readonly [Address, ...unknown[]];
  return { token, pool, recipients, vaultAdmin };
}

/** The tokens row the service reads (locker and pool as the launch made them). */
export function storeLaunch(
  c: TestChain,
  l: Launch,
  overrides: { poolAddress?: string; lockerAddress?: string | null } = {},
) {
  return insertToken({
    address: l.token,
    msgSender: c.deployment.deployer,
    poolAddress: overrides.poolAddress ?? l.pool,
    lockerAddress: overrides.lockerAddress === undefined ? c.contracts.locker : overrides.lockerAddress,
    pairedToken: c.contracts.weth,
  });
}

async function mined(c: TestChain, hash: Promise<Hash>) {
  return c.publicClient.waitForTransactionReceipt({ hash: await hash });
}

/** Account 9 buys the token with `amount` of WETH in its pool (the pool then holds WETH to convert fees into). */
export async function buy(c: TestChain, l: Launch, amount: bigint) {
  const buyer = c.wallet(9);
  await mined(
    c,
    buyer.writeContract({ address: c.contracts.weth, abi: weth9Abi, functionName: "deposit", value: amount }),
  );
  await mined(
    c,
    buyer.writeContract({ address: c.contracts.weth, abi: weth9Abi, functionName: "approve", args: [l.pool, amount] }),
  );
  await mined(
    c,
    buyer.writeContract({
      address: l.pool,
      abi: poolAbi,
      functionName: "swap",
      args: [c.contracts.weth, amount, buyer.account.address],
    }),
  );
}

/** What the pool pays for `amountIn` of `tokenIn` at its price (sqrtPriceX96 squared, in two halves as it does). */
export async function atPoolPrice(c: TestChain, l: Launch, tokenIn: Address, amountIn: bigint): Promise<bigint> {
  const read = <T>(functionName: "slot0" | "token0") =>
    c.publicClient.readContract({ address: l.pool, abi: poolAbi, functionName }) as Promise<T>;
  const [sqrtPrice] = await read<readonly [bigint, ...unknown[]]>("slot0");
  return tokenIn === (await read<Address>("token0"))
    ? (((amountIn * sqrtPrice) >> 96n) * sqrtPrice) >> 96n
    : (((amountIn << 96n) / sqrtPrice) << 96n) / sqrtPrice;
}

/** Account 9 wraps `amount` of ETH and pays it in as WETH rewards of the token. */
export async function payWethRewards(c: TestChain, token: Address, amount: bigint) {
  const payer = c.wallet(9);
  await mined(
    c,
    payer.writeContract({ address: c.contracts.weth, abi: weth9Abi, functionName: "deposit", value: amount }),
  );
  await mined(
    c,
    payer.writeContract({
      address: c.contracts.weth,
      abi: weth9Abi,
      functionName: "approve",
      args: [c.contracts.locker, amount],
    }),
  );
  await mined(
    c,
    payer.writeContract({
      address: c.contracts.locker,
      abi: lpLockerFeeConversionAbi,
      functionName: "distributeRewards",
      args: [token, c.contracts.weth, amount],
    }),
  );
}

/** After the vault's lockup, its admin pays `amount` of the token itself in as rewards. */
export async function payTokenRewards(c: TestChain, l: Launch, amount: bigint) {
  const admin = c.wallet(7);
  await c.increaseTime(604_801);
  await mined(
    c,
    admin.writeContract({ address: c.contracts.vault, abi: tokenVaultAbi, functionName: "claim", args: [l.token] }),
  );
  await mined(
    c,
    admin.writeContract({
      address: l.token,
      abi: tokenAbi,
      functionName: "approve",
      args: [c.contracts.locker, amount],
    }),
  );
  await mined(
    c,
    admin.writeContract({
      address: c.contracts.locker,
      abi: lpLockerFeeConversionAbi,
      functionName: "distributeRewards",
      args: [l.token, l.token, amount],
    }),
  );
}

/** Anyone (account 8) triggers a claim; the fee owner is paid. Returns the claim's block. */
export async function claimFees(c: TestChain, owner: Address, rewardToken: Address): Promise<bigint> {
  const receipt = await mined(
    c,
    c.wallet(8).writeContract({
      address: c.contracts.feeLocker,
      abi: feeLockerAbi,
      functionName: "claim",
      args: [owner, rewardToken],
    }),
  );
  return receipt.blockNumber;
}

/** Mines `blocks` empty blocks. */
export async function mine(c: TestChain, blocks: number) {
  await (c.provider.request as (a: { method: string; params?: unknown[] }) => Promise<unknown>)({
    method: "hardhat_mine",
    params: [`0x${blocks.toString(16)}`],
  });
}
