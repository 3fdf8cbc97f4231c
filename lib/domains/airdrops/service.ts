// Airdrops: one Merkle tree per token (lib/domains/merkle), uploaded by anyone who has the dump of the tree whose
// root the token's airdrop holds on chain, read by claimers.
import type { Address } from "viem";
import type { z } from "zod";
import { readAirdropRoot } from "@/lib/platform/chain";
import { checksum } from "@/lib/core/evm";
import { notFound } from "@/lib/core/errors";
import {
  accountLeaves,
  accountProofs,
  allocationPage,
  currentTreeTotal,
  type AllocationCursor,
} from "@/lib/domains/merkle/read";
import { requireChainRoot, saveTreeUpload } from "@/lib/domains/merkle/upload";
import { tokenChainId } from "@/lib/domains/tokens/service";
import { chainSettings } from "@/lib/platform/chain";
import { db } from "@/db";
import { airdropUploadFields } from "./schemas";
import { sumAirdropClaimed } from "./queries";
import { airdropCheckpointOf } from "./indexer";
import type {
  airdropUploadResponse,
  allocationsResponse,
  claimAmountsResponse,
  claimedResponse,
  claimProofsResponse,
} from "./responses";

export const airdropOwner = (token: string) => `airdrop:${token.toLowerCase()}`;

const noAirdrop = (token: string) => notFound(`no airdrop tree is stored for token ${checksum(token)}`);

/** The tree's owner, for an indexed token whose airdrop holds this root on chain (404, 422, 503 otherwise). */
async function admitAirdrop(f: { tokenAddress: string; merkleRoot: string }): Promise<string> {
  const chainId = await tokenChainId(f.tokenAddress);
  if (chainId === null) throw notFound(`no token ${checksum(f.tokenAddress)} is indexed`);
  const onChain = await readAirdropRoot(chainId, f.tokenAddress as Address);
  requireChainRoot(onChain, f.merkleRoot, `the airdrop of token ${checksum(f.tokenAddress)} on chain ${chainId}`);
  return airdropOwner(f.tokenAddress);
}

/**
 * POST /api/airdrops: validates the streamed dump and publishes it now, or by a job after delaySeconds;
 * the token's current tree again is answered without rewriting it.
 */
export async function saveAirdrop(request: Request, client: string): Promise<z.input<typeof airdropUploadResponse>> {
  const saved = await saveTreeUpload(request, client, airdropUploadFields, admitAirdrop, (f) =>
    f.enqueue ? f.delaySeconds : undefined,
  );
  const { tokenAddress, merkleRoot, delaySeconds } = saved.fields;
  return {
    success: true,
    tokenAddress: checksum(tokenAddress),
    merkleRoot,
    leafCount: saved.leafCount,
    ...(saved.unchanged ? { unchanged: true } : {}),
    ...(saved.enqueued
      ? { enqueued: true, message: `Airdrop accepted; it is saved in ${delaySeconds} s`, delaySeconds }
      : {}),
  };
}

/** GET /api/airdrops: every amount the claimer has leaves for (largest first). */
export async function claimAmounts(
  tokenAddress: string,
  claimer: string,
): Promise<z.input<typeof claimAmountsResponse>> {
  const found = await accountLeaves(airdropOwner(tokenAddress), claimer);
  if (!found) throw noAirdrop(tokenAddress);
  return { claims: found.leaves.map((l) => l.amount) };
}

/** GET /api/airdrops/claim: a proof per leaf of the claimer, each verified against the root before it goes out. */
export async function claimProofs(tokenAddress: string, claimer: string): Promise<z.input<typeof claimProofsResponse>> {
  const found = await accountProofs(airdropOwner(tokenAddress), claimer);
  if (!found) throw noAirdrop(tokenAddress);
  return {
    proofs: found.leaves.map((leaf, k) => ({
      proof: found.proofs[k],
      entry: { account: checksum(claimer), amount: leaf.amount },
    })),
  };
}

/** GET /api/airdrops/allocations: one page of (account, amount) in account order. */
export async function allocations(
  tokenAddress: string,
  limit: number,
  cursor?: AllocationCursor,
): Promise<z.input<typeof allocationsResponse>> {
  const page = await allocationPage(airdropOwner(tokenAddress), cursor, limit);
  if (!page) throw noAirdrop(tokenAddress);
  return {
    allocations: page.leaves.map((l) => ({ account: checksum(l.account), amount: l.amount })),
    merkleRoot: page.tree.root,
    totalCount: page.tree.leafCount,
    nextCursor: page.nextCursor,
  };
}

/** GET /api/airdrops/claimed: what the token's airdrop has paid out (indexed claims), against its tree's total. */
export async function claimedShare(tokenAddress: string): Promise<z.input<typeof claimedResponse>> {
  const chainId = await tokenChainId(tokenAddress);
  if (chainId === null) throw notFound(`no token ${checksum(tokenAddress)} is indexed`);
  const token = tokenAddress.toLowerCase();
  const airdrop = chainSettings(chainId).contracts.airdrop?.toLowerCase();
  const [sum, total, checkpoint] = await Promise.all([
    sumAirdropClaimed(db(), chainId, token),
    currentTreeTotal(airdropOwner(token)),
    airdrop ? airdropCheckpointOf(chainId, airdrop) : Promise.resolve(null),
  ]);
  const claimed = BigInt(sum.claimed);
  return {
    tokenAddress: checksum(tokenAddress),
    chainId,
    claimed: sum.claimed,
    claimers: sum.claimers,
    total: total === null ? null : total.toString(),
    claimedShare: total === null || total === 0n ? null : Number((claimed * 1_000_000n) / total) / 1_000_000,
    indexedToBlock: checkpoint,
  };
}
