// Presales: the list indexed from chain events, presale allowlists (Merkle trees, lib/domains/merkle) and the
// refresh that re-reads a presale transaction.
import type { z } from "zod";
import { db, type Database } from "@/db";
import { chainSettings, configuredChainIds, readPresaleAllowlistRoot } from "@/lib/platform/chain";
import { badRequest, notFound } from "@/lib/core/errors";
import { checksum } from "@/lib/core/evm";
import { enqueue } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import { formatEth } from "@/lib/core/answers";
import { accountProofs, allocationPage, type AllocationCursor } from "@/lib/domains/merkle/read";
import { requireChainRoot, saveTreeUpload } from "@/lib/domains/merkle/upload";
import { refreshPresaleJob } from "./jobs";
import { findPresaleAllowlistRoot, findPresaleIdOfToken, findPresalePage, updatePresaleAllowlistRoot } from "./queries";
import { allowlistUploadFields, SUCCESSFUL_STATUSES } from "./schemas";
import { toPresaleObject } from "./serialize";
import type {
  allowlistProofResponse,
  allowlistResponse,
  allowlistUploadResponse,
  presaleListResponse,
  presaleRefreshResponse,
} from "./responses";

export const allowlistOwner = (chainId: number, presaleId: number) => `allowlist:${chainId}:${presaleId}`;

const noAllowlist = (presaleId: number, chainId: number) =>
  notFound(`no allowlist is stored for presale ${presaleId} on chain ${chainId}`);

export async function listPresales(q: {
  sort: "asc" | "desc";
  limit: number;
  offset: number;
  chainId?: number;
  presaleId?: number;
  status: number | "all" | "successful";
}): Promise<z.input<typeof presaleListResponse>> {
  const status = q.status === "successful" ? SUCCESSFUL_STATUSES : q.status === "all" ? undefined : q.status;
  const { rows, count } = await findPresalePage(db(), { ...q, status });
  return { presales: rows.map(toPresaleObject), totalCount: count };
}

/** The id of the presale that deployed a token (lowercase address), or null (the token indexer links them). */
export function presaleIdOfToken(db: Database, chainId: number, tokenAddress: string): Promise<number | null> {
  return findPresaleIdOfToken(db, chainId, tokenAddress);
}

const presaleChainReadable = (chainId: number) =>
  configuredChainIds().includes(chainId) && !!chainSettings(chainId).contracts.presale;

/**
 * The tree's owner, for a presale that holds this allowlist root: the indexed root when it matches, else
 * the chain's (a presale not indexed yet, or whose owner changed the root since), which the row then
 * keeps. 404 for a presale neither knows, 422 for another root, 503 when the chain cannot be read.
 */
async function admitAllowlist(f: { presaleId: number; chainId: number; merkleRoot: string }): Promise<string> {
  const row = await findPresaleAllowlistRoot(db(), f.chainId, f.presaleId);
  const owner = allowlistOwner(f.chainId, f.presaleId);
  if (row?.allowlist_root && row.allowlist_root === f.merkleRoot.toLowerCase()) return owner;
  const onChain =
    row || presaleChainReadable(f.chainId) ? await readPresaleAllowlistRoot(f.chainId, BigInt(f.presaleId)) : null;
  if (!row && onChain === null) throw notFound(`no presale ${f.presaleId} is known on chain ${f.chainId}`);
  requireChainRoot(onChain, f.merkleRoot, `presale ${f.presaleId} on chain ${f.chainId}`);
  if (row) await updatePresaleAllowlistRoot(db(), row.id, f.merkleRoot.toLowerCase());
  return owner;
}

/**
 * POST /api/presales/allowlists: validates the streamed dump and replaces the presale's allowlist; the
 * current allowlist again is answered without rewriting it.
 */
export async function saveAllowlist(
  request: Request,
  client: string,
): Promise<z.input<typeof allowlistUploadResponse>> {
  const saved = await saveTreeUpload(request, client, allowlistUploadFields, admitAllowlist);
  const { presaleId, chainId, merkleRoot } = saved.fields;
  return {
    success: true,
    presaleId,
    chainId,
    merkleRoot,
    leafCount: saved.leafCount,
    ...(saved.unchanged ? { unchanged: true } : {}),
  };
}

/** GET /api/presales/allowlists: the root and one page of allocations (account order). */
export async function getAllowlist(
  presaleId: number,
  chainId: number,
  limit: number,
  cursor?: AllocationCursor,
): Promise<z.input<typeof allowlistResponse>> {
  const page = await allocationPage(allowlistOwner(chainId, presaleId), cursor, limit);
  if (!page) throw noAllowlist(presaleId, chainId);
  return {
    presaleId,
    chainId,
    merkleRoot: page.tree.root,
    allocations: page.leaves.map((l) => ({
      address: checksum(l.account),
      allowedAmountWei: l.amount,
      allowedAmountEth: formatEth(l.amount),
    })),
    totalCount: page.tree.leafCount,
    nextCursor: page.nextCursor,
  };
}

/**
 * GET /api/presales/allowlists/proof: the buyer's proof. A buyer listed several times gets the leaf with
 * the largest amount (any leaf verifies; the largest allows the most). Not listed: isAllowed false.
 */
export async function allowlistProof(
  presaleId: number,
  chainId: number,
  buyer: string,
): Promise<z.input<typeof allowlistProofResponse>> {
  const found = await accountProofs(allowlistOwner(chainId, presaleId), buyer, 1);
  if (!found) throw noAllowlist(presaleId, chainId);
  const [leaf] = found.leaves;
  if (!leaf) return { isAllowed: false, proof: [], allowedAmountWei: "0", allowedAmountEth: "0.0" };
  return {
    isAllowed: true,
    proof: found.proofs[0],
    allowedAmountWei: leaf.amount,
    allowedAmountEth: formatEth(leaf.amount),
  };
}

/** GET /api/presales/refresh: queues the job that re-reads the transaction (lib/domains/presales/jobs.ts). */
export async function refreshPresale(txHash: string, chainId: number): Promise<z.input<typeof presaleRefreshResponse>> {
  if (!configuredChainIds().includes(chainId)) throw badRequest(`chainId: this service reads no chain ${chainId}`);
  if (!chainSettings(chainId).contracts.presale)
    throw badRequest(`chainId: no presale contract is configured for chain ${chainId}`);
  await enqueue(refreshPresaleJob, { txHash, chainId });
  await dispatchJobs();
  return { enqueued: true, message: "Presale enqueued for refresh", data: { txHash, chainId } };
}
