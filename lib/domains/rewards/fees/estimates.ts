// Deprecated fee estimates: what each reward recipient of a token can still collect from the fee
// locker, in the token and in its paired token, read in one multicall.
import { getAddress, type Address } from "viem";
import { ChainRevertError, chainSettings, readAvailableFees, type AvailableFee } from "@/lib/platform/chain";
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
 * Each distinct recipient once (shares of a recipient listed twice are added up), with its
 * uncollected balance of the token and of the paired token in wei, and the totals.
 */
export async function estimateUncollectedFees(key: TokenKey) {
  const token = await findRewardToken(key);
  const chainId = token.chain_id;
  const tokenAddress = getAddress(token.contract_address);
  const paired = pairedTokenOf(token.pool_config, chainId);
  const shares = await readTokenRewards(chainId, lockerOf(token, chainId), tokenAddress);
  const recipients = new Map<string, { recipient: Address; admin: Address; rewardBps: number }>();
  for (const s of shares) {
    const seen = recipients.get(s.recipient);
    if (seen) seen.rewardBps += s.bps;
    else recipients.set(s.recipient, { recipient: s.recipient, admin: s.admin, rewardBps: s.bps });
  }
  let fees: AvailableFee[];
  try {
    fees = await readAvailableFees(chainId, undefined, [...recipients.keys()] as Address[], [tokenAddress, paired]);
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
  return {
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
}
