// get-claimed-fees/{tokenAddress}/{feeRecipient}: what one fee recipient has claimed of the token's paired token
// (WETH for most), from the ClaimTokens events the earnings indexer stores (v4), or from the claim events of the
// token's legacy LP locker (v0 to v3.1, ../legacy/claims.ts), with the claims' transactions paged.
import { checksum } from "@/lib/core/evm";
import type { z } from "zod";
import { db } from "@/db";
import { chainSettings, isLegacyTokenType } from "@/lib/platform/chain";
import { pairedTokenOf } from "@/lib/domains/rewards/fees/estimates";
import { findRewardToken } from "@/lib/domains/rewards/fees/rewards";
import { findClaimsOfOwner, sumClaimsByOwner } from "@/lib/domains/rewards/queries";
import { legacyClaimedFees } from "../legacy/claims";
import { checkpointOf } from "./indexer";
import type { claimedFeesParams, claimedFeesQuery } from "./schemas";

/**
 * The recipient's claims of the token's paired token: the total (wei) and count of all of them, and a page of their
 * transactions. Fee-locker balances are per owner and currency, not per launched token, as in creatorEarnings.
 */
export async function claimedFees(params: z.infer<typeof claimedFeesParams>, query: z.infer<typeof claimedFeesQuery>) {
  const { chainId, limit, offset } = query;
  const token = await findRewardToken({ by: "address", value: params.tokenAddress, chainId });
  const paired = pairedTokenOf(token.pool_config, chainId).toLowerCase();
  const owner = params.feeRecipient;
  const answer = {
    tokenAddress: checksum(token.contract_address),
    feeRecipient: checksum(owner),
    chainId,
    pairedTokenAddress: checksum(paired),
  };
  if (isLegacyTokenType(token.type)) {
    const legacy = await legacyClaimedFees({ ...token, type: token.type }, checksum(paired), {
      feeRecipient: owner,
      limit,
      offset,
    });
    return {
      ...answer,
      totalClaimed: legacy.totalClaimed,
      claimCount: legacy.claimCount,
      txHashes: legacy.txHashes,
      pagination: { limit, offset, hasMore: legacy.hasMore },
      indexedToBlock: legacy.indexedToBlock,
    };
  }
  const [sums, page] = await Promise.all([
    sumClaimsByOwner(db(), chainId, paired, [owner]),
    findClaimsOfOwner(db(), { chainId, token: paired, owner, limit, offset }),
  ]);
  const feeLocker = chainSettings(chainId).contracts.feeLocker;
  return {
    ...answer,
    totalClaimed: sums[0]?.total ?? "0",
    claimCount: Number(sums[0]?.claims ?? 0),
    txHashes: page.slice(0, limit).map((c) => c.tx_hash),
    pagination: { limit, offset, hasMore: page.length > limit },
    indexedToBlock: feeLocker ? await checkpointOf(chainId, feeLocker) : null,
  };
}
