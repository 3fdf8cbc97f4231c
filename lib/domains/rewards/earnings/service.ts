// creator-earnings/{token}: WETH its reward recipients have claimed from the fee locker, from the
// indexed ClaimTokens events: in ether as the platform answers, and in exact wei beside it. Tokens before v4
// answer from their LP locker's claim events (../legacy/claims.ts).
import { checksum } from "@/lib/core/evm";
import { formatEth } from "@/lib/core/answers";
import { db } from "@/db";
import { chainSettings, isLegacyTokenType } from "@/lib/platform/chain";
import { providerUnavailable } from "@/lib/core/errors";
import { findRewardToken, lockerOf, readTokenRewards } from "@/lib/domains/rewards/fees/rewards";
import { sumClaimsByOwner } from "@/lib/domains/rewards/queries";
import { legacyCreatorEarnings } from "../legacy/claims";
import { checkpointOf } from "./indexer";

/**
 * Every recipient currently in the token's reward split is listed (0 when it has claimed nothing).
 * Fee-locker balances are per owner and reward token, not per launched token: a recipient shared by
 * several tokens has all its WETH claims counted for each of them (docs/tokens-and-creators.md "Creator earnings").
 */
export async function creatorEarnings(tokenAddress: string, chainId: number) {
  const token = await findRewardToken({ by: "address", value: tokenAddress, chainId });
  if (isLegacyTokenType(token.type)) return legacyCreatorEarnings({ ...token, type: token.type });
  const settings = chainSettings(chainId);
  const weth = settings.contracts.weth;
  const feeLocker = settings.contracts.feeLocker;
  if (!weth || !feeLocker) throw providerUnavailable(`no WETH or fee locker is configured for chain ${chainId}`, 60);
  const { shares } = await readTokenRewards(chainId, lockerOf(token, chainId), checksum(token.contract_address));
  const recipients = [...new Set(shares.map((s) => s.recipient.toLowerCase()))];
  const sums = recipients.length ? await sumClaimsByOwner(db(), chainId, weth.toLowerCase(), recipients) : [];
  const byOwner = new Map(sums.map((s) => [s.fee_owner, s]));
  const wei = new Map(recipients.map((r) => [r, BigInt(byOwner.get(r)?.total ?? 0)]));
  const total = [...wei.values()].reduce((sum, v) => sum + v, 0n);
  const each = (format: (v: bigint) => string) => Object.fromEntries([...wei].map(([r, v]) => [r, format(v)]));
  return {
    tokenAddress: checksum(token.contract_address),
    chainId,
    wethAddress: checksum(weth),
    // Ether as the platform answers it; the exact wei beside it.
    totalWethClaimed: formatEth(total),
    claimCount: sums.reduce((n, s) => n + Number(s.claims), 0),
    claimsByRecipient: each(formatEth),
    totalWethClaimedWei: total.toString(),
    claimsByRecipientWei: each((v) => v.toString()),
    indexedToBlock: await checkpointOf(chainId, feeLocker),
  };
}
