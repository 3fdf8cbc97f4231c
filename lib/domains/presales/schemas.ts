// Request schemas of the presale endpoints (interface 4.4).
import { z } from "zod";
import { zAddress, zBytes32, zChainId, zInt, zIntLike, zLimit, zSort, zTxHash } from "@/lib/core/input";
import { zAllocationCursor } from "@/lib/domains/merkle/read";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

export const MAX_PRESALES_PAGE = 200;
export const MAX_OFFSET = 10_000;
export const DEFAULT_ALLOCATIONS_PAGE = 1000;
export const MAX_ALLOCATIONS_PAGE = 10_000;

/** Statuses that count as `status=successful`: SuccessfulMinimumHit, SuccessfulMaximumHit, Claimable. */
export const SUCCESSFUL_STATUSES = [2, 3, 5];

export const listPresalesQuery = z.object({
  sort: zSort.default("desc"),
  limit: zLimit(MAX_PRESALES_PAGE, 100),
  offset: zInt(0, MAX_OFFSET).default(0),
  chainId: zChainId.optional(),
  status: z.union([z.enum(["all", "successful"]), zInt(0, 255)]).default("all"),
});

const zPresaleId = zIntLike(1, Number.MAX_SAFE_INTEGER);

export const allowlistQuery = z.object({
  presaleId: zPresaleId,
  chainId: zIntLike(1, 2 ** 31 - 1),
  limit: zLimit(MAX_ALLOCATIONS_PAGE, DEFAULT_ALLOCATIONS_PAGE),
  cursor: zAllocationCursor.optional(),
});

export const proofQuery = z.object({
  presaleId: zPresaleId,
  chainId: zIntLike(1, 2 ** 31 - 1),
  buyerAddress: zAddress,
});

/** Members of the POST body besides `tree` (read from the stream; numbers arrive as their text). */
export const allowlistUploadFields = z.object({
  presaleId: zPresaleId,
  chainId: zIntLike(1, 2 ** 31 - 1),
  merkleRoot: zBytes32,
});

export const refreshQuery = z.object({ txHash: zTxHash, chainId: zChainId.default(DEFAULT_CHAIN_ID) });
