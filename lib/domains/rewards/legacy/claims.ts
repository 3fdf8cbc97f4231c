// What a legacy token's recipients have claimed (v0 to v3.1), from the stored claim events of its LP locker
// (legacy_fee_claims, filled by ./indexer). A legacy locker pays each position's fees out at the claim, so a claim
// belongs to one token: unlike the v4 fee locker's balances per owner, these sums are the token's own.
import type { Address } from "viem";
import { checksum } from "@/lib/core/evm";
import { db } from "@/db";
import { formatEth } from "@/lib/core/answers";
import { providerUnavailable } from "@/lib/core/errors";
import { chainSettings, readLegacyLocker, type LegacyGeneration } from "@/lib/platform/chain";
import { checkpointOfLegacyClaims } from "./indexer";
import { countLegacyClaims, findLegacyClaimsOfRecipient, sumLegacyClaims, type LegacyClaimScope } from "./queries";

export type LegacyToken = {
  chain_id: number;
  contract_address: string;
  type: LegacyGeneration;
  locker_address: string | null;
  lp_nft_id: string | null;
};

/** The claims of the token's locker for its pair with `currency`; null when the token has no known locker. */
function scopeOf(token: LegacyToken, currency: Address): (LegacyClaimScope & { currencyIs0: boolean }) | null {
  if (!token.locker_address) return null;
  const own = token.contract_address.toLowerCase();
  const other = currency.toLowerCase();
  const currencyIs0 = other < own;
  return {
    chainId: token.chain_id,
    locker: token.locker_address.toLowerCase(),
    token0: currencyIs0 ? other : own,
    token1: currencyIs0 ? own : other,
    ownLocker: token.type === "proxy" || token.type === "clanker",
    currencyIs0,
  };
}

/** get-claimed-fees of a legacy token: the recipient's claims of the paired token, paged as the v4 answer is. */
export async function legacyClaimedFees(
  token: LegacyToken,
  paired: Address,
  q: { feeRecipient: string; limit: number; offset: number },
) {
  const scope = scopeOf(token, paired);
  const recipient = q.feeRecipient.toLowerCase();
  const [sums, page, indexedToBlock] = await Promise.all([
    scope ? sumLegacyClaims(db(), scope, [recipient]) : [],
    scope ? findLegacyClaimsOfRecipient(db(), scope, { recipient, limit: q.limit, offset: q.offset }) : [],
    checkpointOfLegacyClaims(token.chain_id),
  ]);
  const sum = sums[0];
  return {
    totalClaimed: sum ? (scope!.currencyIs0 ? sum.total0 : sum.total1) : "0",
    claimCount: Number(sum?.claims ?? 0),
    txHashes: page.slice(0, q.limit).map((c) => c.tx_hash),
    hasMore: page.length > q.limit,
    indexedToBlock,
  };
}

/**
 * creator-earnings of a legacy token: WETH claimed by each of its recipients, those the locker names now (one
 * multicall) and those its stored claims paid as creator or interface (a v0/v1 claimer names any recipient).
 */
export async function legacyCreatorEarnings(token: LegacyToken) {
  const chainId = token.chain_id;
  const weth = chainSettings(chainId).contracts.weth;
  if (!weth) throw providerUnavailable(`no WETH is configured for chain ${chainId}`, 60);
  const scope = scopeOf(token, weth);
  const current =
    token.locker_address && token.lp_nft_id
      ? (
          await readLegacyLocker(chainId, {
            type: token.type,
            locker: checksum(token.locker_address),
            lpNftId: BigInt(token.lp_nft_id),
            token: checksum(token.contract_address),
          })
        ).recipients.map((r) => r.recipient.toLowerCase())
      : [];
  const roles = ["creator", "interface"] as const;
  const [claimed, claimCount, indexedToBlock] = await Promise.all([
    scope ? sumLegacyClaims(db(), scope, undefined, [...roles]) : [],
    scope ? countLegacyClaims(db(), scope, [...roles]) : 0,
    checkpointOfLegacyClaims(chainId),
  ]);
  const wei = new Map<string, bigint>(current.map((r) => [r, 0n]));
  for (const row of claimed)
    wei.set(row.recipient, (wei.get(row.recipient) ?? 0n) + BigInt(scope!.currencyIs0 ? row.total0 : row.total1));
  const total = [...wei.values()].reduce((sum, v) => sum + v, 0n);
  const each = (format: (v: bigint) => string) => Object.fromEntries([...wei].map(([r, v]) => [r, format(v)]));
  return {
    tokenAddress: checksum(token.contract_address),
    chainId,
    wethAddress: checksum(weth),
    totalWethClaimed: formatEth(total),
    claimCount,
    claimsByRecipient: each(formatEth),
    totalWethClaimedWei: total.toString(),
    claimsByRecipientWei: each((v) => v.toString()),
    indexedToBlock,
  };
}
