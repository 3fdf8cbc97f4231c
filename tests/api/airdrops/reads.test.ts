// GET /api/airdrops, /api/airdrops/claim and /api/airdrops/allocations over a stored tree: proofs verify
// with StandardMerkleTree.verify, accounts with several leaves get all of them, any address case matches.
import { beforeAll, describe, expect, it } from "vitest";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { getAddress } from "viem";
import { GET as claimsGET, POST } from "@/app/api/airdrops/route";
import { GET as claimGET } from "@/app/api/airdrops/claim/route";
import { GET as allocationsGET } from "@/app/api/airdrops/allocations/route";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { useTestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";
import { address, tokenWithAirdrop } from "./trees";

const chain = useTestChain();
let token: string;
const twice = address(100); // three leaves, two of them identical
const values: (readonly [string, bigint])[] = [
  ...Array.from({ length: 40 }, (_, i) => [address(i), BigInt(i + 1) * 10n ** 18n] as const),
  [twice, 5n],
  [twice.toLowerCase(), 9n],
  [twice, 5n],
];
const { root, dump } = buildStandardTree(values);

beforeAll(async () => {
  token = await tokenWithAirdrop(chain(), root);
  // Through call(): the answer is also checked against the route's documented response schema.
  const res = await call(POST, "/api/airdrops", { body: { tokenAddress: token, merkleRoot: root, tree: dump } });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({
    success: true,
    tokenAddress: getAddress(token),
    merkleRoot: root,
    leafCount: values.length,
  });
});

const q = (account: string, tokenAddress = token) => `tokenAddress=${tokenAddress}&claimerAddress=${account}`;

describe("airdrop reads", () => {
  it("GET /api/airdrops answers every amount of the claimer, largest first, whatever the address case", async () => {
    expect((await call(claimsGET, `/api/airdrops?${q(address(7).toUpperCase().replace("0X", "0x"))}`)).body).toEqual({
      claims: ["8000000000000000000"],
    });
    expect((await call(claimsGET, `/api/airdrops?${q(twice.toLowerCase())}`)).body).toEqual({
      claims: ["9", "5", "5"],
    });
    expect((await call(claimsGET, `/api/airdrops?${q(address(999))}`)).body).toEqual({ claims: [] });
  });

  it("GET /api/airdrops/claim answers proofs that StandardMerkleTree.verify accepts", async () => {
    for (const account of [address(0), address(39), twice]) {
      const res = await call(claimGET, `/api/airdrops/claim?${q(account.toLowerCase())}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const expected = values.filter(([a]) => a.toLowerCase() === account.toLowerCase());
      expect(res.body.proofs).toHaveLength(expected.length);
      for (const { proof, entry } of res.body.proofs) {
        expect(entry.account).toBe(getAddress(account.toLowerCase()));
        expect(StandardMerkleTree.verify(root, ["address", "uint256"], [entry.account, entry.amount], proof)).toBe(
          true,
        );
      }
    }
    expect((await call(claimGET, `/api/airdrops/claim?${q(address(500))}`)).body).toEqual({ proofs: [] });
  });

  it("GET /api/airdrops/claim proves every leaf of trees of every shape (full, one leaf over, odd, a single leaf)", async () => {
    // The proof's tiles are read as the tiles rooted on the leaf's path: a missing one answers 500, so every leaf
    // of trees whose last level is full, has one node more or is ragged across tile bands shows the set is whole.
    for (const size of [1, 2, 3, 64, 65, 130]) {
      const leaves = Array.from({ length: size }, (_, i) => [address(1000 + i), BigInt(i + 1)] as const);
      const tree = buildStandardTree(leaves);
      const owner = await tokenWithAirdrop(chain(), tree.root);
      const saved = await call(POST, "/api/airdrops", {
        body: { tokenAddress: owner, merkleRoot: tree.root, tree: tree.dump },
      });
      expect(saved.status, saved.text).toBe(200);
      for (const [account, amount] of leaves) {
        const res = await call(claimGET, `/api/airdrops/claim?${q(account, owner)}`);
        expect(res.status, `${size} leaves, ${account}: ${res.text}`).toBe(200);
        const [{ proof, entry }] = res.body.proofs;
        expect(entry.amount).toBe(String(amount));
        expect(StandardMerkleTree.verify(tree.root, ["address", "uint256"], [account, amount], proof)).toBe(true);
      }
    }
  });

  it("GET /api/airdrops/allocations pages through every leaf in account order", async () => {
    const seen: { account: string; amount: string }[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await call(
        allocationsGET,
        `/api/airdrops/allocations?tokenAddress=${token}&limit=7${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.totalCount).toBe(values.length);
      expect(res.body.merkleRoot).toBe(root);
      seen.push(...res.body.allocations);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(values.length);
    const lower = seen.map((s) => s.account.toLowerCase());
    expect([...lower].sort()).toEqual(lower);
    expect(seen.map((s) => `${s.account.toLowerCase()}:${s.amount}`).sort()).toEqual(
      values.map(([a, v]) => `${a.toLowerCase()}:${v}`).sort(),
    );
  });

  it("answers 404 for a token without a tree and 400 for bad parameters", async () => {
    const none = "0x00000000000000000000000000000000000000c2";
    expectError(await call(claimsGET, `/api/airdrops?${q(address(0), none)}`), 404, "not_found");
    expectError(await call(claimGET, `/api/airdrops/claim?${q(address(0), none)}`), 404, "not_found");
    expectError(await call(allocationsGET, `/api/airdrops/allocations?tokenAddress=${none}`), 404, "not_found");
    expectError(await call(claimGET, `/api/airdrops/claim?tokenAddress=${token}`), 400, "invalid_request");
    expectError(await call(claimGET, `/api/airdrops/claim?${q("0x1234")}`), 400, "invalid_request");
    expectError(
      await call(allocationsGET, `/api/airdrops/allocations?tokenAddress=${token}&limit=-1`),
      400,
      "invalid_request",
    );
    expectError(
      await call(allocationsGET, `/api/airdrops/allocations?tokenAddress=${token}&cursor=garbage`),
      400,
      "invalid_request",
    );
    // Two different values of one parameter are a 400; the same value twice is that value.
    expectError(await call(claimsGET, `/api/airdrops?${q(address(0))}&tokenAddress=${none}`), 400, "invalid_request");
    expect((await call(claimsGET, `/api/airdrops?${q(address(0))}&tokenAddress=${token}`)).status).toBe(200);
  });
});
