// A tree upload's `tree` member (an OpenZeppelin StandardMerkleTree dump of (address, uint256) leaves) as a zod
// schema: the OpenAPI document's request body of POST /api/airdrops and POST /api/presales/allowlists. Uploads are
// read as a stream (upload.ts, dump-reader.ts) and checked by validate.ts, never by this schema: a million-leaf
// dump is hundreds of MB. Its member rules are the reader's own functions (amounts.ts), so the two accept the same
// members; what no schema can say (each treeIndex holds its leaf, every node hashes its children, tree[0] is
// merkleRoot, at most MERKLE_MAX_LEAVES leaves) is validate.ts's alone.
import { z } from "zod";
import { decodeHexInto, parseAmount } from "./amounts";
import { buildStandardTree } from "./build";

/** The reader's decoding of `0x` + 2·size hex digits (either case of the x, as decodeHexInto reads it). */
const hexOf = (size: number, pattern: RegExp, message: string) =>
  z
    .string()
    .regex(pattern, message)
    .refine((v) => decodeHexInto(v, size, new Uint8Array(size), 0), message);

const node = hexOf(32, /^0[xX][0-9a-fA-F]{64}$/, "must be 0x followed by 64 hex digits");
const account = hexOf(20, /^0[xX][0-9a-fA-F]{40}$/, "must be an address: 0x followed by 40 hex digits");

const AMOUNT_MESSAGE = "must be a non-negative integer amount below 2^256";
/** A uint256 as the reader takes it: decimal or 0x-hex text, or a JSON number (exact only below 2^53: send text). */
const amount = z.union([
  z
    .string()
    .regex(/^(\d{1,78}|0x[0-9a-fA-F]{1,64})$/, AMOUNT_MESSAGE)
    .refine((v) => parseAmount(v, false) !== null, AMOUNT_MESSAGE),
  z
    .number()
    .int()
    .nonnegative()
    .refine((v) => parseAmount(String(v), true) !== null, AMOUNT_MESSAGE),
]);

/** Tree positions are int32 in the reader (dump-reader.ts readTreeIndex). */
const MAX_TREE_INDEX = 0x7fffffff;
const treeIndex = z.union([
  z.number().int().min(0).max(MAX_TREE_INDEX),
  z
    .string()
    .regex(/^\d{1,10}$/, "must be a whole number below 2^31")
    .refine((v) => Number(v) <= MAX_TREE_INDEX, "must be a whole number below 2^31"),
]);

export const standardTreeDump = z
  .object({
    format: z.literal("standard-v1").describe("the dump's format, always standard-v1"),
    leafEncoding: z
      .tuple([z.literal("address"), z.literal("uint256")])
      .describe("the leaf types, always [address, uint256]: an account and an amount in wei"),
    tree: z.array(node).min(1).describe("every node, root first: 2n - 1 for n values"),
    values: z
      .array(
        z.object({
          value: z.tuple([account, amount]).describe("[account, amount in wei]"),
          treeIndex: treeIndex.describe("the leaf's position in `tree` (n - 1 to 2n - 2)"),
        }),
      )
      .min(1)
      .describe("one per leaf; an account may have several"),
  })
  .meta({
    id: "StandardMerkleTreeDump",
    description: "A StandardMerkleTree dump (OpenZeppelin merkle-tree `tree.dump()`) of (address, uint256) leaves",
  });

export type StandardTreeDump = z.infer<typeof standardTreeDump>;

/** A valid two-leaf tree (root and dump), computed: the uploads' documented example. */
export const EXAMPLE_TREE = buildStandardTree([
  ["0x1111111111111111111111111111111111111111", 10n ** 18n],
  ["0x2222222222222222222222222222222222222222", 5n * 10n ** 17n],
]);
