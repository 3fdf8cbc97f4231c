// Request schemas of the airdrop endpoints (interface 4.5).
import { z } from "zod";
import { zAddress, zBool, zBytes32, zIntLike, zLimit } from "@/lib/core/input";
import { zAllocationCursor } from "@/lib/domains/merkle/read";
import { EXAMPLE_TREE, standardTreeDump } from "@/lib/domains/merkle/schemas";

/** Longest delay an enqueued save may ask for. */
export const MAX_DELAY_SECONDS = 3600;
export const DEFAULT_PAGE = 1000;
export const MAX_PAGE = 10_000;

const tokenAddress = zAddress.describe("the token whose airdrop it is (its contract address)");

/** Members of the POST body besides `tree` (read from the stream; numbers arrive as their text). */
export const airdropUploadFields = z.object({
  tokenAddress: zAddress.describe("the token (indexed) whose airdrop extension holds merkleRoot on chain"),
  merkleRoot: zBytes32.describe("the tree's root: tree.tree[0], and the root the airdrop holds on chain"),
  enqueue: z
    .union([z.boolean(), zBool])
    .default(false)
    .describe("validate and keep the tree now, publish it after delaySeconds (by a job)"),
  delaySeconds: zIntLike(0, MAX_DELAY_SECONDS)
    .default(10)
    .describe("with enqueue: seconds until the tree is published"),
});

/**
 * The POST /api/airdrops body as the OpenAPI document shows it. The route streams the body (a million-leaf dump
 * is ~250 MB): `airdropUploadFields` checks its members, lib/domains/merkle validates the tree.
 */
export const airdropUploadBody = airdropUploadFields.extend({ tree: standardTreeDump }).meta({
  examples: [
    {
      tokenAddress: "0x1234567890123456789012345678901234567890",
      merkleRoot: EXAMPLE_TREE.root,
      tree: EXAMPLE_TREE.dump,
    },
  ],
});

export const claimerQuery = z.object({
  tokenAddress,
  claimerAddress: zAddress.describe("the account whose leaves are asked for (any case)"),
});

export const allocationsQuery = z.object({
  tokenAddress,
  limit: zLimit(MAX_PAGE, DEFAULT_PAGE),
  cursor: zAllocationCursor
    .optional()
    .describe("opaque: the previous page's nextCursor (it pins that tree; 409 once the tree is gone)"),
});

export const claimedQuery = z.object({ tokenAddress });
