// Answer shapes shared by the endpoints that serve Merkle trees (presale allowlists and airdrops), for the
// OpenAPI document and the API tests. Only documentation: no answer is validated at run time (proofs are a
// hot path). Value primitives (addresses, wei, hex) are in lib/core/answers.ts.
import { z } from "zod";
import { bytes32Hex } from "@/lib/core/answers";

export const merkleRoot = bytes32Hex.describe("the tree's root (tree[0] of the uploaded dump), lowercase 0x-hex");

export const merkleProof = z
  .array(bytes32Hex)
  .describe(
    "sibling hashes from the leaf up, for OpenZeppelin MerkleProof (sorted pairs; standard-v1 leaf hashing); empty for a one-leaf tree",
  );

export const leafCount = z.number().int().min(1).describe("leaves in the tree (an account may hold several)");

export const nextCursor = z
  .string()
  .nullable()
  .describe(
    "opaque; pass as `cursor` for the next page (it pins this tree: 409 once a newer upload replaced and deleted it); null on the last page",
  );

/** The fields every successful tree upload answers with (POST /api/airdrops, POST /api/presales/allowlists). */
export const treeUploadResponse = z.object({
  success: z.literal(true),
  merkleRoot,
  leafCount,
  unchanged: z
    .literal(true)
    .optional()
    .describe("present when the tree is already the current one: nothing was written again"),
});
