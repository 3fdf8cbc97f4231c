// Request schemas of the presale endpoints (interface 4.4).
import { z } from "zod";
import { zAddress, zBytes32, zChainId, zInt, zIntLike, zLimit, zSort, zTxHash } from "@/lib/core/input";
import { zAllocationCursor } from "@/lib/domains/merkle/read";
import { EXAMPLE_TREE, standardTreeDump } from "@/lib/domains/merkle/schemas";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

export const MAX_PRESALES_PAGE = 200;
export const MAX_OFFSET = 10_000;
export const DEFAULT_ALLOCATIONS_PAGE = 1000;
export const MAX_ALLOCATIONS_PAGE = 10_000;

/** Statuses that count as `status=successful`: SuccessfulMinimumHit, SuccessfulMaximumHit, Claimable. */
export const SUCCESSFUL_STATUSES = [2, 3, 5];

export const listPresalesQuery = z.object({
  sort: zSort.default("desc").describe("by start (newest first with desc)"),
  limit: zLimit(MAX_PRESALES_PAGE, 100),
  offset: zInt(0, MAX_OFFSET).default(0).describe("presales to skip"),
  chainId: zChainId.optional().describe("only presales of this chain"),
  presaleId: zInt(1, Number.MAX_SAFE_INTEGER, 1)
    .optional()
    .describe("only the presale with this id (a token's presale_id; with chainId, at most one)"),
  status: z
    .union([z.enum(["all", "successful"]), zInt(0, 255)], {
      error: "must be all, successful or a PresaleStatus number from 0 to 255",
    })
    .default("all")
    .describe("all, successful (minimum or maximum hit, or claimable), or one PresaleStatus number"),
});

const zPresaleId = zIntLike(1, Number.MAX_SAFE_INTEGER).describe("the presale contract's id of the presale");
const zPresaleChain = zIntLike(1, 2 ** 31 - 1).describe("the chain of the presale contract");

export const allowlistQuery = z.object({
  presaleId: zPresaleId,
  chainId: zPresaleChain,
  limit: zLimit(MAX_ALLOCATIONS_PAGE, DEFAULT_ALLOCATIONS_PAGE),
  cursor: zAllocationCursor
    .optional()
    .describe("opaque: the previous page's nextCursor (it pins that tree; 409 once the tree is gone)"),
});

export const proofQuery = z.object({
  presaleId: zPresaleId,
  chainId: zPresaleChain,
  buyerAddress: zAddress.describe("the buyer whose allowlist proof is asked for (any case)"),
});

/** Members of the POST body besides `tree` (read from the stream; numbers arrive as their text). */
export const allowlistUploadFields = z.object({
  presaleId: zPresaleId,
  chainId: zPresaleChain,
  merkleRoot: zBytes32.describe("the tree's root: tree.tree[0], and the allowlist root the presale holds"),
});

/**
 * The POST /api/presales/allowlists body as the OpenAPI document shows it. The route streams the body:
 * `allowlistUploadFields` checks its members, lib/domains/merkle validates the tree.
 */
export const allowlistUploadBody = allowlistUploadFields.extend({ tree: standardTreeDump }).meta({
  examples: [{ presaleId: 1, chainId: DEFAULT_CHAIN_ID, merkleRoot: EXAMPLE_TREE.root, tree: EXAMPLE_TREE.dump }],
});

export const refreshQuery = z.object({
  txHash: zTxHash.describe("a transaction of the presale contract (start, buy, withdraw, deploy, claims)"),
  chainId: zChainId.default(DEFAULT_CHAIN_ID).describe("the chain of the transaction"),
});
