// A new upload replaces a token's tree atomically: readers running during the upload see the old tree or
// the new one, never a mix; the replaced tree is deleted after the grace period; concurrent and enqueued
// uploads end with the last upload current.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { db } from "@/db";
import { GET as claimGET } from "@/app/api/airdrops/claim/route";
import { GET as allocationsGET } from "@/app/api/airdrops/allocations/route";
import { POST } from "@/app/api/airdrops/route";
import { resetConfig } from "@/lib/core/config";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { deleteTree, publishTree } from "@/lib/domains/merkle/jobs";
import { accountLeaves, accountProofs } from "@/lib/domains/merkle/read";
import { useTestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";
import { address, postRaw, tokenWithAirdrop, updateAirdropRoot } from "./trees";

const chain = useTestChain();

/** Old and new trees over the same accounts with different amounts; account 0 has two leaves in each. */
const versions = [1n, 2n].map((v) =>
  buildStandardTree([
    ...Array.from({ length: 1500 }, (_, i) => [address(i), BigInt(i + 1) * 1000n * v] as const),
    [address(0), 7n * v] as const,
  ]),
);

// Each test uploads for its own token, so that trees left by one test do not count in another.
let token: `0x${string}`;
let owner = "";
let chainRoot = "";
beforeEach(async () => {
  token = await tokenWithAirdrop(chain(), versions[0].root);
  owner = `airdrop:${token.toLowerCase()}`;
  chainRoot = versions[0].root;
});

/** Uploads `tree`, its root first set on chain by the airdrop's admin (an upload must match the chain). */
async function upload(tree: { root: `0x${string}`; dump: unknown }, extra: Record<string, unknown> = {}, ip?: string) {
  if (tree.root !== chainRoot) await updateAirdropRoot(chain(), token, (chainRoot = tree.root));
  return postRaw(
    POST,
    "/api/airdrops",
    JSON.stringify({ tokenAddress: token, merkleRoot: tree.root, tree: tree.dump, ...extra }),
    { ip },
  );
}

afterEach(() => {
  delete process.env.MERKLE_RETIRED_TREE_GRACE_SECONDS;
  resetConfig();
});

describe("tree replacement", () => {
  it("never shows a reader a mix of the old and the new tree", async () => {
    expect((await upload(versions[0])).status).toBe(200);
    const seen = new Set<string>();
    let uploading = true;
    let readsDuringUpload = 0;
    const readers = Array.from({ length: 3 }, async (_, r) => {
      for (let k = 0, after = 0; uploading || after++ < 2; k++) {
        if (uploading) readsDuringUpload++;
        // In-process readers resolve on microtasks only: yield so the upload's chain read (I/O) gets its turn.
        await new Promise((resolve) => setImmediate(resolve));
        const account = address(k % 2 === 0 ? 0 : (k * 37 + r) % 1500);
        const res = await call(claimGET, `/api/airdrops/claim?tokenAddress=${token}&claimerAddress=${account}`);
        expect(res.status, res.text).toBe(200);
        // Every proof of one answer verifies against one and the same root, with that tree's amounts.
        const roots = versions.filter((t) =>
          res.body.proofs.every((p: any) =>
            StandardMerkleTree.verify(t.root, ["address", "uint256"], [p.entry.account, p.entry.amount], p.proof),
          ),
        );
        expect(roots).toHaveLength(1);
        expect(res.body.proofs).toHaveLength(account === address(0) ? 2 : 1);
        seen.add(roots[0].root);
      }
    });
    const res = await upload(versions[1]).finally(() => (uploading = false));
    await Promise.all(readers);
    expect(res.status, res.text).toBe(200);
    expect(readsDuringUpload).toBeGreaterThan(3);
    expect([...seen].sort()).toEqual(versions.map((v) => v.root).sort());
    const after = await call(claimGET, `/api/airdrops/claim?tokenAddress=${token}&claimerAddress=${address(5)}`);
    expect(after.body.proofs[0].entry.amount).toBe("12000");
  });

  it("keeps the replaced tree readable for the grace period, then deletes it", async () => {
    process.env.MERKLE_RETIRED_TREE_GRACE_SECONDS = "0";
    resetConfig();
    expect((await upload(versions[0])).status).toBe(200);
    const page = await call(allocationsGET, `/api/airdrops/allocations?tokenAddress=${token}&limit=10`);
    expect((await upload(versions[1])).status).toBe(200);
    // A cursor pins the tree it started on: still that tree while it exists...
    const next = await call(
      allocationsGET,
      `/api/airdrops/allocations?tokenAddress=${token}&limit=10&cursor=${page.body.nextCursor}`,
    );
    expect(next.body.merkleRoot).toBe(versions[0].root);
    const outcomes = await runDueJobs(jobs);
    expect(outcomes.filter((o) => o.status === "done").length).toBeGreaterThan(0);
    // ...and 409 once it is gone; only the current tree's rows are left.
    expectError(
      await call(
        allocationsGET,
        `/api/airdrops/allocations?tokenAddress=${token}&limit=10&cursor=${page.body.nextCursor}`,
      ),
      409,
      "conflict",
    );
    const trees = await sql<{ id: number }>`SELECT id FROM merkle_trees WHERE owner = ${owner}`.execute(db());
    expect(trees.rows).toHaveLength(1);
    const stray = await sql<{ n: string }>`
      SELECT (SELECT count(*) FROM merkle_tiles WHERE tree_id NOT IN (SELECT id FROM merkle_trees))
           + (SELECT count(*) FROM merkle_leaf_chunks WHERE tree_id NOT IN (SELECT id FROM merkle_trees)) AS n`.execute(
      db(),
    );
    expect(Number(stray.rows[0].n)).toBe(0);
  });

  it("reads a proof from one tree whole, the one current when it is read, while trees are replaced and deleted", async () => {
    expect((await upload(versions[0])).status).toBe(200);
    const before = (await accountLeaves(owner, address(9).toLowerCase()))!;
    expect((await upload(versions[1])).status).toBe(200);
    expect(await deleteTree(before.tree.id)).toBe("deleted");
    // The leaves and the tiles of their proofs come from one statement: never the old tree's leaf with the new tiles.
    const found = (await accountProofs(owner, address(9).toLowerCase()))!;
    expect(found.leaves).toHaveLength(1);
    const amount = found.leaves[0].amount;
    expect(amount).not.toBe(before.leaves[0].amount);
    expect(
      StandardMerkleTree.verify(versions[1].root, ["address", "uint256"], [address(9), amount], found.proofs[0]),
    ).toBe(true);
  });

  it("makes the last upload current when uploads race or an older enqueued one publishes late", async () => {
    expect((await upload(versions[0], { enqueue: true, delaySeconds: 0 })).body.enqueued).toBe(true);
    expect((await upload(versions[1])).status).toBe(200);
    await runDueJobs(jobs); // the older, enqueued upload publishes after the newer one: it is superseded
    const res = await call(claimGET, `/api/airdrops/claim?tokenAddress=${token}&claimerAddress=${address(3)}`);
    expect(res.body.proofs[0].entry.amount).toBe("8000");
    // Two uploads of the tree the chain holds, from two clients, race on a token that has none stored yet.
    token = await tokenWithAirdrop(chain(), versions[0].root);
    [owner, chainRoot] = [`airdrop:${token.toLowerCase()}`, versions[0].root];
    const [a, b] = await Promise.all([
      upload(versions[0], {}, "203.0.113.21"),
      upload(versions[0], {}, "203.0.113.22"),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const current = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM merkle_trees WHERE owner = ${owner} AND state = 'current'`.execute(db());
    expect(Number(current.rows[0].n)).toBe(1);
    const newest = await sql<{
      state: string;
    }>`SELECT state FROM merkle_trees WHERE owner = ${owner} ORDER BY id DESC LIMIT 1`.execute(db());
    expect(newest.rows[0].state).toBe("current");
  });

  it("publishes idempotently", async () => {
    expect((await upload(versions[0])).status).toBe(200);
    const { rows } = await sql<{
      id: number;
    }>`SELECT id FROM merkle_trees WHERE owner = ${owner} AND state = 'current'`.execute(db());
    expect(await publishTree(Number(rows[0].id))).toBe("published");
    expect(await deleteTree(Number(rows[0].id))).toBe("kept");
  });
});
