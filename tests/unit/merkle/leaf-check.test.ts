// Each value's leaf hash is checked against the node at its treeIndex: while reading when that node was already
// read (dumps write the tree before the values), else once the whole upload is read. Both give the same verdicts
// and the same message, which names the value's leaf hash.
import { describe, expect, it } from "vitest";
import { HttpError } from "@/lib/core/errors";
import { airdropUploadFields } from "@/lib/domains/airdrops/schemas";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { leafHashHex } from "@/lib/domains/merkle/hashing";
import { readTreeUpload } from "@/lib/domains/merkle/upload";
import { address } from "@/tests/api/airdrops/trees";

const values = Array.from({ length: 2500 }, (_, i) => [address(i % 700), BigInt(i + 1) * 10n ** 15n] as const);
const { root, dump } = buildStandardTree(values);

async function read(tree: object): Promise<"ok" | { status: number; message: string }> {
  const body = JSON.stringify({ tokenAddress: address(9), merkleRoot: root, tree });
  try {
    await readTreeUpload(new Request("http://localhost/api/airdrops", { method: "POST", body }), airdropUploadFields);
    return "ok";
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, message: error.message };
    throw error;
  }
}

/** The dump with the values written before the nodes, or after them as the library writes it. */
const ordered = (d: typeof dump, valuesFirst: boolean) =>
  valuesFirst
    ? { values: d.values, format: d.format, leafEncoding: d.leafEncoding, tree: d.tree }
    : { format: d.format, leafEncoding: d.leafEncoding, tree: d.tree, values: d.values };

describe("the leaf check", () => {
  it("accepts a valid tree in either order", async () => {
    expect(await read(ordered(dump, false))).toBe("ok");
    expect(await read(ordered(dump, true))).toBe("ok");
  });

  it("names the first value whose leaf is not at its treeIndex, with its leaf hash, in either order", async () => {
    const bad = structuredClone(dump);
    // Values 1700 and 1900 trade positions: value 1700 is the first whose leaf is elsewhere.
    [bad.values[1700].treeIndex, bad.values[1900].treeIndex] = [bad.values[1900].treeIndex, bad.values[1700].treeIndex];
    const hash = leafHashHex(values[1700][0], values[1700][1]);
    const expected = {
      status: 422,
      message: `tree.values.1700: its leaf hash ${hash} is not tree.tree.${bad.values[1700].treeIndex}`,
    };
    expect(await read(ordered(bad, false))).toEqual(expected);
    expect(await read(ordered(bad, true))).toEqual(expected);
  });
});
