// Answer shapes shared by the endpoints that serve Merkle trees (presale allowlists and airdrops), for the
// OpenAPI document and the API tests. Only documentation: no answer is validated at run time (proofs are a
// hot path).
import { z } from "zod";
import { getAddress } from "viem";

const isChecksummed = (value: string) => {
  try {
    return getAddress(value) === value;
  } catch {
    return false;
  }
};

export const checksummedAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .refine(isChecksummed, "must be EIP-55 checksummed")
  .meta({ description: "EIP-55 checksummed address", examples: ["0x4200000000000000000000000000000000000006"] });

export const weiAmount = z
  .string()
  .regex(/^\d{1,78}$/)
  .meta({ description: "wei, decimal string (uint256)", examples: ["250000000000000000"] });

export const ethAmount = z
  .string()
  .regex(/^\d+\.\d+$/)
  .meta({
    description: 'the same amount in ether, exact decimal with at least one fractional digit ("1.0", "0.000000000000000001")',
    examples: ["0.25"],
  });

export const bytes32Hex = z.string().regex(/^0x[0-9a-f]{64}$/).describe("32 bytes, lowercase 0x-hex");

export const merkleRoot = bytes32Hex.describe("the tree's root (tree[0] of the uploaded dump), lowercase 0x-hex");

export const merkleProof = z
  .array(bytes32Hex)
  .describe("sibling hashes from the leaf up, for OpenZeppelin MerkleProof (sorted pairs; standard-v1 leaf hashing); empty for a one-leaf tree");

export const leafCount = z.number().int().min(1).describe("leaves in the tree (an account may hold several)");

export const nextCursor = z
  .string()
  .nullable()
  .describe("opaque; pass as `cursor` for the next page (it pins this tree: 409 once a newer upload replaced and deleted it); null on the last page");

/** The fields every successful tree upload answers with (POST /api/airdrops, POST /api/presales/allowlists). */
export const treeUploadResponse = z.object({
  success: z.literal(true),
  merkleRoot,
  leafCount,
});
