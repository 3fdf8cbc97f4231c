// Answer shapes of the airdrop endpoints (interface 4.5, COMPAT), for the OpenAPI document and the API tests.
import { z } from "zod";
import { MAX_LEAVES_PER_ACCOUNT } from "@/lib/domains/merkle/read";
import { checksummedAddress, weiAmount } from "@/lib/core/answers";
import { leafCount, merkleProof, merkleRoot, nextCursor, treeUploadResponse } from "@/lib/domains/merkle/responses";
import { MAX_DELAY_SECONDS, MAX_PAGE } from "./schemas";

export const airdropUploadResponse = treeUploadResponse.extend({
  tokenAddress: checksummedAddress,
  enqueued: z
    .literal(true)
    .optional()
    .describe("present only with `enqueue: true`: the tree is validated and kept, and published after delaySeconds"),
  message: z.string().optional().describe("present only with `enqueue: true`"),
  delaySeconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_DELAY_SECONDS)
    .optional()
    .describe("present only with `enqueue: true`: seconds until the tree is published"),
});

/** One leaf of an airdrop tree: an account and the amount it may claim. */
export const airdropEntry = z
  .object({
    account: checksummedAddress.describe("the account that may claim, EIP-55 checksummed"),
    amount: weiAmount.describe("what it may claim, in the token's smallest unit (wei), decimal string"),
  })
  .meta({ id: "AirdropEntry", description: "One leaf of an airdrop tree: an account and its amount" });

export const claimAmountsResponse = z.object({
  claims: z
    .array(weiAmount)
    .max(MAX_LEAVES_PER_ACCOUNT)
    .describe("wei, decimal strings: one per leaf of the claimer, largest first; empty when the claimer has none"),
});

export const claimProofsResponse = z.object({
  proofs: z
    .array(
      z.object({ proof: merkleProof, entry: airdropEntry.describe("the leaf the proof proves") }).meta({
        id: "AirdropProof",
        description: "A Merkle proof and the leaf it proves: pass both to the airdrop extension's claim",
      }),
    )
    .max(MAX_LEAVES_PER_ACCOUNT)
    .describe("one per leaf of the claimer, largest amount first; empty when the claimer has none"),
});

export const allocationsResponse = z.object({
  allocations: z
    .array(airdropEntry)
    .max(MAX_PAGE)
    .describe("one page, in account order; an account in several leaves has one entry per leaf"),
  merkleRoot,
  totalCount: leafCount.describe("leaves in the tree, all pages"),
  nextCursor,
});

export const claimedResponse = z.object({
  tokenAddress: checksummedAddress,
  chainId: z.number().int().positive().describe("the chain the token is indexed on"),
  claimed: weiAmount.describe(
    "wei, decimal string: what the airdrop has paid out, from the indexed AirdropClaimed events (the sum over accounts of their claimed total); 0 before any claim",
  ),
  claimers: z.number().int().min(0).describe("accounts that have claimed at least once"),
  total: weiAmount
    .nullable()
    .describe(
      "wei, decimal string: the sum of the amounts of the token's current airdrop tree; null when no tree is stored",
    ),
  claimedShare: z
    .number()
    .min(0)
    .nullable()
    .describe(
      "claimed / total (0 to 1; above 1 only if the tree stored is not the one claimed against); null without a total",
    ),
  indexedToBlock: z
    .number()
    .int()
    .min(0)
    .nullable()
    .describe("the last block the claim indexer has read on the token's chain; null before its first run"),
});
