import { describe, expect, it } from "vitest";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { leafHashHex } from "@/lib/domains/merkle/hashing";

const address = (i: number) => `0x${(i * 2654435761 + 12345).toString(16).padStart(40, "0").slice(-40)}`;

describe("buildStandardTree", () => {
  it("lays a tree out exactly as StandardMerkleTree.of does", () => {
    for (const n of [1, 2, 3, 7, 64, 301]) {
      const values = Array.from(
        { length: n },
        (_, i) => [address(i), String(BigInt(i % 5) * 10n ** 18n + 1n)] as [string, string],
      );
      const ours = buildStandardTree(values);
      const theirs = StandardMerkleTree.of(values, ["address", "uint256"]).dump();
      expect(ours.dump).toEqual(theirs);
    }
  });

  it("keeps duplicate accounts and identical leaves apart, and hashes mixed-case addresses alike", () => {
    const a = "0xAbCdEf0000000000000000000000000000000001";
    const values = [
      [a, "5"],
      [a.toLowerCase(), "7"],
      [a, "5"],
      [address(9), "0"],
    ] as [string, string][];
    const ours = buildStandardTree(values);
    expect(ours.dump).toEqual(StandardMerkleTree.of(values, ["address", "uint256"]).dump());
    expect(new Set(ours.dump.values.map((v) => v.treeIndex)).size).toBe(4);
    expect(leafHashHex(a, 5n)).toBe(ours.dump.tree[ours.dump.values[0].treeIndex]);
  });
});
