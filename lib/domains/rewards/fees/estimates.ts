// Deprecated fee estimates: what each reward recipient of a token can still collect from the fee
// locker, in the token and in its paired token, read in one multicall. get-estimated-uncollected-fees also answers
// the members the platform's earlier SDK types (UncollectedFeesResponse): the pool's two currencies and their amounts.
import { getAddress, type Address } from "viem";
import {
  ChainRevertError,
  chainSettings,
  readAvailableFees,
  readTokenInfo,
  type AvailableFee,
} from "@/lib/platform/chain";
import { providerUnavailable } from "@/lib/core/errors";
import { findRewardToken, lockerOf, readTokenRewards, type TokenKey } from "./rewards";
import { isEvmAddress } from "@/lib/core/evm";

function pairedTokenOf(poolConfig: Record<string, unknown> | null, chainId: number): Address {
  const paired = poolConfig?.pairedToken;
  if (typeof paired === "string" && isEvmAddress(paired)) return getAddress(paired.toLowerCase());
  const weth = chainSettings(chainId).contracts.weth;
  if (!weth) throw providerUnavailable(`no WETH is configured for chain ${chainId}`, 60);
  return weth;
}

/**
 * The token's reward split and what each recipient (and `alsoOwner`, when given) can collect of the token and of
 * the paired token, in wei.
 */
async function readEstimate(key: TokenKey, alsoOwner?: Address) {
  const token = await findRewardToken(key);
  const chainId = token.chain_id;
  const tokenAddress = getAddress(token.contract_address);
  const paired = pairedTokenOf(token.pool_config, chainId);
  const locker = lockerOf(token, chainId);
  const rewards = await readTokenRewards(chainId, locker, tokenAddress);
  const recipients = new Map<string, { recipient: Address; admin: Address; rewardBps: number }>();
  for (const s of rewards.shares) {
    const seen = recipients.get(s.recipient);
    if (seen) seen.rewardBps += s.bps;
    else recipients.set(s.recipient, { recipient: s.recipient, admin: s.admin, rewardBps: s.bps });
  }
  const owners = [...new Set([...recipients.keys(), ...(alsoOwner ? [alsoOwner] : [])])] as Address[];
  let fees: AvailableFee[];
  try {
    fees = await readAvailableFees(chainId, undefined, owners, [tokenAddress, paired]);
  } catch (error) {
    // The configured fee locker does not answer availableFees: a deployment problem, not the caller's.
    if (error instanceof ChainRevertError) throw providerUnavailable("the fee locker could not be read", 60);
    throw error;
  }
  const amount = (owner: string, which: Address) =>
    fees.find((f) => f.feeOwner === owner && f.token === which)?.amount ?? 0n;
  const rows = [...recipients.values()].map((r) => ({
    ...r,
    tokenAmount: amount(r.recipient, tokenAddress).toString(),
    pairedAmount: amount(r.recipient, paired).toString(),
  }));
  const answer = {
    tokenAddress,
    poolAddress:
      token.pool_address && token.pool_address.length === 42 ? getAddress(token.pool_address) : token.pool_address,
    chainId,
    pairedTokenAddress: paired,
    recipients: rows,
    totals: {
      tokenAmount: rows.reduce((sum, r) => sum + BigInt(r.tokenAmount), 0n).toString(),
      pairedAmount: rows.reduce((sum, r) => sum + BigInt(r.pairedAmount), 0n).toString(),
    },
  };
  return { answer, locker, rewards, amount };
}

/**
 * Each distinct recipient once (shares of a recipient listed twice are added up), with its
 * uncollected balance of the token and of the paired token in wei, and the totals.
 */
export async function estimateUncollectedFees(key: TokenKey) {
  return (await readEstimate(key)).answer;
}

const NATIVE = "0x0000000000000000000000000000000000000000";

/** A currency as the earlier SDK's `Token`: the chain's answer (native ETH is address zero); null members unread. */
async function currencyOf(chainId: number, address: Address) {
  if (address === NATIVE) return { chainId, address, symbol: "ETH", decimals: 18, name: "Ether" };
  const info = await readTokenInfo(chainId, address);
  return { chainId, address, symbol: info?.symbol ?? null, decimals: info?.decimals ?? null, name: info?.name ?? null };
}

/**
 * GET /api/get-estimated-uncollected-fees: estimateUncollectedFees, and the earlier SDK's members: the LP locker
 * and its position, the pool's currencies (token0 < token1) and what can be collected in each, by all recipients,
 * or by `rewardRecipient` alone (any address: one no longer in the split may still hold fees).
 */
export async function uncollectedFeesOfToken(key: TokenKey, rewardRecipient?: string) {
  const owner = rewardRecipient === undefined ? undefined : getAddress(rewardRecipient);
  const { answer, locker, rewards, amount } = await readEstimate(key, owner);
  const { tokenAddress, pairedTokenAddress } = answer;
  const [token0, token1] =
    rewards.currencies ??
    ([tokenAddress, pairedTokenAddress].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)) as [
      Address,
      Address,
    ]);
  const collectable = (currency: Address) => {
    if (owner) return amount(owner, currency === tokenAddress ? tokenAddress : pairedTokenAddress).toString();
    return currency === tokenAddress ? answer.totals.tokenAmount : answer.totals.pairedAmount;
  };
  const [info0, info1] = await Promise.all([currencyOf(answer.chainId, token0), currencyOf(answer.chainId, token1)]);
  return {
    ...answer,
    lockerAddress: locker,
    lpNftId: Number(rewards.positionId),
    token0UncollectedRewards: collectable(token0),
    token1UncollectedRewards: collectable(token1),
    token0: info0,
    token1: info1,
  };
}
