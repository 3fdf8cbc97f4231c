// Deprecated fee estimates: what each reward recipient of a token can still collect from the fee
// locker, in the token and in its paired token, read in one multicall. get-estimated-uncollected-fees also answers
// the members the platform's earlier SDK types (UncollectedFeesResponse): the pool's two currencies and their amounts.
import { zeroAddress, type Address } from "viem";
import {
  isLegacyTokenType,
  ChainRevertError,
  ChainUnavailableError,
  chainSettings,
  readAvailableFees,
  readErc20Basics,
  type AvailableFee,
} from "@/lib/platform/chain";
import { HttpError, providerUnavailable, unprocessable } from "@/lib/core/errors";
import { pairedAmountUsd } from "@/lib/domains/tokens/service";
import { findRewardToken, lockerOf, readTokenRewards, type TokenKey } from "./rewards";
import { isEvmAddress, checksum } from "@/lib/core/evm";

/** The token's paired token as its pool configuration names it, else the chain's WETH (503 when none is configured). */
export function pairedTokenOf(poolConfig: Record<string, unknown> | null, chainId: number): Address {
  const paired = poolConfig?.pairedToken;
  if (typeof paired === "string" && isEvmAddress(paired)) return checksum(paired.toLowerCase());
  const weth = chainSettings(chainId).contracts.weth;
  if (!weth) throw providerUnavailable(`no WETH is configured for chain ${chainId}`, 60);
  return weth;
}

/**
 * The token's reward split, and what each recipient (and `alsoOwner`, when given) can collect of the token, of the
 * paired token and of the pool's currencies when the locker names others, in wei: `available(owner, currency)`.
 */
async function readEstimate(key: TokenKey, alsoOwner?: Address) {
  const token = await findRewardToken(key);
  // A legacy locker has no v4 split or fee-locker balance: answering zeros would misstate what its position holds.
  if (isLegacyTokenType(token.type))
    throw unprocessable(
      `fee estimates of ${token.type} tokens are not served: their fees sit in the LP position get-lp-info names`,
    );
  const chainId = token.chain_id;
  const tokenAddress = checksum(token.contract_address);
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
  const currencies = [...new Set([tokenAddress, paired, ...(rewards.currencies ?? [])])];
  let fees: AvailableFee[];
  try {
    fees = await readAvailableFees(chainId, undefined, owners, currencies);
  } catch (error) {
    // The configured fee locker does not answer availableFees: a deployment problem, not the caller's.
    if (error instanceof ChainRevertError) throw providerUnavailable("the fee locker could not be read", 60);
    throw error;
  }
  const available = (owner: string, currency: Address) =>
    fees.find((f) => f.feeOwner === owner && f.token === currency)?.amount ?? 0n;
  const rows = [...recipients.values()].map((r) => ({
    ...r,
    tokenAmount: available(r.recipient, tokenAddress).toString(),
    pairedAmount: available(r.recipient, paired).toString(),
  }));
  const answer = {
    tokenAddress,
    poolAddress:
      token.pool_address && token.pool_address.length === 42 ? checksum(token.pool_address) : token.pool_address,
    chainId,
    pairedTokenAddress: paired,
    recipients: rows,
    totals: {
      tokenAmount: rows.reduce((sum, r) => sum + BigInt(r.tokenAmount), 0n).toString(),
      pairedAmount: rows.reduce((sum, r) => sum + BigInt(r.pairedAmount), 0n).toString(),
    },
  };
  return { answer, token, locker, rewards, recipients: [...recipients.keys()], available };
}

/**
 * The first reward recipient's uncollected rewards in USD: the earlier SDK's `userRewards` (the creator's, first in
 * the platform's splits). The token at its stored market price, the paired token as GET /api/marketcap prices it;
 * null when an amount it holds has no price.
 */
async function creatorRewardsUsd(
  chainId: number,
  first: { tokenAmount: string; pairedAmount: string } | undefined,
  paired: Address,
  tokenPriceUsd: number | null,
): Promise<number | null> {
  const tokenWei = BigInt(first?.tokenAmount ?? 0);
  const pairedWei = BigInt(first?.pairedAmount ?? 0);
  if (tokenWei > 0n && tokenPriceUsd === null) return null;
  let pairedUsd = 0;
  if (pairedWei > 0n) {
    try {
      pairedUsd = await pairedAmountUsd(chainId, paired, pairedWei);
    } catch (error) {
      // No price source (no feed, a stale one, an unpriced pair) leaves the figure unknown, not the estimate failed.
      if (error instanceof HttpError || error instanceof ChainUnavailableError) return null;
      throw error;
    }
  }
  // A float is enough for a figure shown in dollars: the token's price is a float already.
  return (tokenWei > 0n ? (Number(tokenWei) / 1e18) * tokenPriceUsd! : 0) + pairedUsd;
}

/**
 * GET /api/tokens/estimate-rewards-by-pool-address: each distinct recipient once (shares of a recipient listed twice
 * are added up), with its uncollected balance of the token and of the paired token in wei, the totals, and the
 * earlier SDK's `userRewards`.
 */
export async function estimateRewardsOfPool(key: TokenKey) {
  const { answer, token } = await readEstimate(key);
  const userRewards = await creatorRewardsUsd(
    answer.chainId,
    answer.recipients[0],
    answer.pairedTokenAddress,
    token.price_usd,
  );
  return { ...answer, userRewards };
}

/**
 * GET /api/get-estimated-uncollected-fees: the estimate without `userRewards`, and the earlier SDK's members: the LP locker
 * and its position, the pool's currencies (token0 < token1, as the locker names them; else the token and its paired
 * token in that order) and what can be collected in each, by all recipients, or by `rewardRecipient` alone (any
 * address: one no longer in the split may still hold fees). Native ETH (the zero address) is named, not read.
 */
export async function uncollectedFeesOfToken(key: TokenKey, rewardRecipient?: string) {
  const owner = rewardRecipient === undefined ? undefined : checksum(rewardRecipient);
  const { answer, locker, rewards, recipients, available } = await readEstimate(key, owner);
  const pair = rewards.currencies ?? [answer.tokenAddress, answer.pairedTokenAddress];
  const [token0, token1] = [...pair].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
  const collectable = (currency: Address) =>
    (owner ? [owner] : recipients).reduce((sum, r) => sum + available(r, currency), 0n).toString();
  const erc20s = [token0, token1].filter((c) => c !== zeroAddress);
  const basics = await readErc20Basics(answer.chainId, erc20s);
  const currency = (address: Address) =>
    address === zeroAddress
      ? { chainId: answer.chainId, address, symbol: "ETH", decimals: 18, name: "Ether" }
      : { chainId: answer.chainId, address, ...basics[erc20s.indexOf(address)]! };
  return {
    ...answer,
    lockerAddress: locker,
    lpNftId: Number(rewards.positionId),
    token0UncollectedRewards: collectable(token0),
    token1UncollectedRewards: collectable(token1),
    token0: currency(token0),
    token1: currency(token1),
  };
}
