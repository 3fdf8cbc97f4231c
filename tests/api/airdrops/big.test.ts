// A 100,000-leaf tree through the same POST and reads: streamed in, validated, stored, proofs verified.
import { describe, expect, it } from "vitest";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { GET as claimGET } from "@/app/api/airdrops/claim/route";
import { GET as allocationsGET } from "@/app/api/airdrops/allocations/route";
import { POST } from "@/app/api/airdrops/route";
import { useTestChain } from "@/tests/helpers/chain";
import { call } from "@/tests/helpers/http";
import { makeTree, postRaw, tokenWithAirdrop } from "./trees";

const chain = useTestChain();

describe("a 100,000-leaf airdrop", () => {
  it("round-trips: upload, proofs for leaves across the tree, allocation pages", { timeout: 180_000 }, async () => {
    const tree = makeTree(100_000, (i) => BigInt(i % 1000) * 10n ** 15n + 1n);
    const token = await tokenWithAirdrop(chain(), tree.root);
    const body = JSON.stringify({ tokenAddress: token, merkleRoot: tree.root, tree: tree.dump });
    const res = await postRaw(POST, "/api/airdrops", body);
    expect(res.status, res.text).toBe(200);
    expect(res.body.leafCount).toBe(100_000);
    for (const i of [0, 1, 31_337, 65_535, 99_999]) {
      const { value } = tree.dump.values[i];
      const claim = await call(claimGET, `/api/airdrops/claim?tokenAddress=${token}&claimerAddress=${value[0]}`);
      expect(claim.body.proofs).toHaveLength(1);
      const { proof, entry } = claim.body.proofs[0];
      expect(entry.amount).toBe(value[1]);
      expect(proof.length).toBeGreaterThanOrEqual(16);
      expect(StandardMerkleTree.verify(tree.root, ["address", "uint256"], [entry.account, entry.amount], proof)).toBe(
        true,
      );
    }
    const page = await call(allocationsGET, `/api/airdrops/allocations?tokenAddress=${token}&limit=10000`);
    expect(page.body.allocations).toHaveLength(10_000);
    expect(page.body.totalCount).toBe(100_000);
    expect(page.body.nextCursor).toBeTruthy();
  });
});
