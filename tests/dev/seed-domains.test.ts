// The seeded presales and airdrops: served by their endpoints (proofs verify against the stored roots, the
// presale list's documented shape holds) and deterministic per seed, trees included.
import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { db } from "@/db";
import { seedDatabase } from "@/dev/seed";
import { airdropsFor } from "@/dev/seed/airdrops";
import { presalesFor } from "@/dev/seed/presales";
import { GET as presalesGET } from "@/app/api/presales/route";
import { GET as allowlistGET } from "@/app/api/presales/allowlists/route";
import { GET as allowlistProofGET } from "@/app/api/presales/allowlists/proof/route";
import { GET as allocationsGET } from "@/app/api/airdrops/allocations/route";
import { GET as claimGET } from "@/app/api/airdrops/claim/route";
import { call } from "@/tests/helpers/http";

const TOKENS = 2400;
const ENCODING = ["address", "uint256"];

async function digest() {
  const one = async (query: string) => (await sql<{ d: string; n: number }>`${sql.raw(query)}`.execute(db())).rows[0];
  return {
    presales: await one(`SELECT md5(string_agg(p::text, '|' ORDER BY chain_id, presale_id)) AS d, count(*)::int AS n
      FROM (SELECT chain_id, presale_id, presale_address, status, owner, allowlist_root, deployment_config, min_eth_goal, max_eth_goal,
        eth_raised, end_time, lockup_end_time, vesting_end_time, token_address, token_supply, started_at, start_tx_hash FROM presales) p`),
    trees: await one(
      `SELECT md5(string_agg(owner || encode(root, 'hex') || leaf_count || state, '|' ORDER BY owner)) AS d, count(*)::int AS n FROM merkle_trees`,
    ),
    leaves:
      await one(`SELECT md5(string_agg(t.owner || encode(l.account, 'hex') || l.tree_index || l.amount, '|' ORDER BY t.owner, l.account, l.tree_index)) AS d,
      count(*)::int AS n FROM merkle_leaf_chunks c JOIN merkle_trees t ON t.id = c.tree_id,
        unnest(c.accounts, c.tree_indexes, c.amounts) AS l(account, tree_index, amount)`),
    tiles:
      await one(`SELECT md5(string_agg(t.owner || l.tile || encode(l.nodes, 'hex'), '|' ORDER BY t.owner, l.tile)) AS d,
      count(*)::int AS n FROM merkle_tiles l JOIN merkle_trees t ON t.id = l.tree_id`),
  };
}

describe("seeded presales and airdrops", () => {
  it("are served by their endpoints, with proofs that verify", async () => {
    await seedDatabase({ tokens: TOKENS, seed: "domains" });

    // Every status appears over a few seeds; here: the list answers all of them in its documented shape.
    const list = await call(presalesGET, "/api/presales?limit=200&status=all");
    expect(list.status, list.text).toBe(200);
    expect(list.body.totalCount).toBe(presalesFor(TOKENS));
    const withAllowlist = list.body.presales.filter((p: any) => p.allowlist_root);
    expect(withAllowlist.length).toBeGreaterThan(0);
    for (const p of withAllowlist) {
      const page = await call(allowlistGET, `/api/presales/allowlists?presaleId=${p.presale_id}&chainId=${p.chain_id}`);
      expect(page.status, page.text).toBe(200);
      expect(page.body.merkleRoot).toBe(p.allowlist_root);
      expect(page.body.allocations).toHaveLength(page.body.totalCount);
      const buyer = page.body.allocations[page.body.allocations.length >> 1].address;
      const proof = await call(
        allowlistProofGET,
        `/api/presales/allowlists/proof?presaleId=${p.presale_id}&chainId=${p.chain_id}&buyerAddress=${buyer}`,
      );
      expect(proof.body.isAllowed).toBe(true);
      expect(
        StandardMerkleTree.verify(p.allowlist_root!, ENCODING, [buyer, proof.body.allowedAmountWei], proof.body.proof),
      ).toBe(true);
    }
    const claimable = list.body.presales.filter((p: any) => p.status_name === "Claimable");
    expect(claimable.length, "the seeder always makes one Claimable presale").toBeGreaterThan(0);
    for (const p of claimable) {
      const token = await db()
        .selectFrom("tokens")
        .select("id")
        .where("contract_address", "=", p.token_address!.toLowerCase())
        .executeTakeFirst();
      expect(token, "a claimable presale ended in a seeded token").toBeDefined();
    }

    const airdrops = await db()
      .selectFrom("merkle_trees")
      .select(["owner", "leaf_count"])
      .where("owner", "like", "airdrop:%")
      .execute();
    expect(airdrops).toHaveLength(airdropsFor(TOKENS));
    for (const { owner, leaf_count } of airdrops) {
      const token = owner.slice("airdrop:".length);
      const page = await call(allocationsGET, `/api/airdrops/allocations?tokenAddress=${token}&limit=10000`);
      expect(page.status, page.text).toBe(200);
      expect(page.body.totalCount).toBe(leaf_count);
      for (const { account } of [page.body.allocations[0]!, page.body.allocations.at(-1)!]) {
        const claim = await call(claimGET, `/api/airdrops/claim?tokenAddress=${token}&claimerAddress=${account}`);
        expect(claim.status, claim.text).toBe(200);
        expect(claim.body.proofs.length).toBeGreaterThan(0);
        for (const { proof, entry } of claim.body.proofs) {
          expect(StandardMerkleTree.verify(page.body.merkleRoot, ENCODING, [entry.account, entry.amount], proof)).toBe(
            true,
          );
        }
      }
    }
  });

  it("are the same rows, trees included, for the same seed", async () => {
    await seedDatabase({ tokens: TOKENS, seed: "domains", reset: true });
    const first = await digest();
    expect(first.presales.n).toBe(presalesFor(TOKENS));
    expect(first.leaves.n).toBeGreaterThan(0);
    await seedDatabase({ tokens: TOKENS, seed: "domains", reset: true });
    expect(await digest()).toEqual(first);
    await seedDatabase({ tokens: TOKENS, seed: "other", reset: true });
    expect((await digest()).trees.d).not.toBe(first.trees.d);
  });
});
