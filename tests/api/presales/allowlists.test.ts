// Presale allowlists: POST the tree, GET the root and allocations (wei and exact ETH), GET a buyer's proof.
import { beforeAll, describe, expect, it } from "vitest";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { getAddress } from "viem";
import { GET, POST } from "@/app/api/presales/allowlists/route";
import { GET as proofGET } from "@/app/api/presales/allowlists/proof/route";
import { db } from "@/db";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { call, expectError } from "@/tests/helpers/http";
import { address, clone, postRaw } from "@/tests/api/airdrops/trees";

const listed = address(1);
const values = [
  [address(0), 10n ** 18n],
  [listed, 25n * 10n ** 16n],
  [listed.toLowerCase(), 3n * 10n ** 18n + 1n],
  [address(2), 1n],
  ...Array.from({ length: 20 }, (_, i) => [address(10 + i), BigInt(i) * 10n ** 17n] as const),
] as const;
const tree = buildStandardTree(values);
const save = (body: unknown) => postRaw(POST, "/api/presales/allowlists", JSON.stringify(body));
const proof = (buyer: string, presaleId = 7, chainId = 8453) =>
  call(proofGET, `/api/presales/allowlists/proof?presaleId=${presaleId}&chainId=${chainId}&buyerAddress=${buyer}`);

/** A presale row as the indexer stores it from the chain's PresaleStarted event. */
const indexPresale = (presaleId: number, chainId: number, root: string) =>
  db()
    .insertInto("presales")
    .values({
      chain_id: chainId,
      presale_id: presaleId,
      presale_address: "0xeebbc567c3d612f50a67820f39cdd30dccf7e6b8",
      deployment_config: null,
      allowlist_root: root,
    })
    .execute();

beforeAll(async () => {
  await indexPresale(7, 8453, tree.root);
  await indexPresale(7, 84532, tree.root);
  // Through call(): the answer is also checked against the route's documented response schema.
  const res = await call(POST, "/api/presales/allowlists", {
    body: { presaleId: 7, chainId: 8453, merkleRoot: tree.root, tree: tree.dump },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({
    success: true,
    presaleId: 7,
    chainId: 8453,
    merkleRoot: tree.root,
    leafCount: values.length,
  });
});

describe("presale allowlists", () => {
  it("GET answers the root and allocations with wei and exact ETH amounts", async () => {
    const res = await call(GET, "/api/presales/allowlists?presaleId=7&chainId=8453");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      presaleId: 7,
      chainId: 8453,
      merkleRoot: tree.root,
      totalCount: values.length,
      nextCursor: null,
    });
    const byAddress = res.body.allocations.filter((a: any) => a.address === getAddress(listed.toLowerCase()));
    expect(byAddress).toHaveLength(2);
    expect(byAddress).toEqual(
      expect.arrayContaining([
        { address: getAddress(listed.toLowerCase()), allowedAmountWei: "250000000000000000", allowedAmountEth: "0.25" },
        {
          address: getAddress(listed.toLowerCase()),
          allowedAmountWei: "3000000000000000001",
          allowedAmountEth: "3.000000000000000001",
        },
      ]),
    );
    expect(res.body.allocations.find((a: any) => a.address === getAddress(address(0).toLowerCase()))).toMatchObject({
      allowedAmountEth: "1.0",
    });
    expect(res.body.allocations.find((a: any) => a.address === getAddress(address(2).toLowerCase()))).toMatchObject({
      allowedAmountEth: "0.000000000000000001",
    });
  });

  it("GET pages with limit and cursor", async () => {
    const first = await call(GET, "/api/presales/allowlists?presaleId=7&chainId=8453&limit=10");
    expect(first.body.allocations).toHaveLength(10);
    const second = await call(
      GET,
      `/api/presales/allowlists?presaleId=7&chainId=8453&limit=100&cursor=${first.body.nextCursor}`,
    );
    expect(second.body.allocations).toHaveLength(values.length - 10);
    expect(second.body.nextCursor).toBeNull();
  });

  it("proof: the buyer's proof verifies; several leaves give the largest; any address case matches", async () => {
    const res = await proof(listed.toUpperCase().replace("0X", "0x"));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      isAllowed: true,
      allowedAmountWei: "3000000000000000001",
      allowedAmountEth: "3.000000000000000001",
    });
    expect(
      StandardMerkleTree.verify(tree.root, ["address", "uint256"], [listed, res.body.allowedAmountWei], res.body.proof),
    ).toBe(true);
  });

  it("proof: a buyer not on the list gets isAllowed false (200)", async () => {
    const res = await proof(address(999));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ isAllowed: false, proof: [], allowedAmountWei: "0", allowedAmountEth: "0.0" });
  });

  it("answers 404 for a presale without an allowlist, 400 for bad parameters", async () => {
    expectError(await proof(listed, 8), 404, "not_found");
    expectError(await proof(listed, 7, 1), 404, "not_found");
    expectError(await call(GET, "/api/presales/allowlists?presaleId=8&chainId=8453"), 404, "not_found");
    for (const [q, message] of [
      ["presaleId=x&chainId=8453", "presaleId: must be a whole number"],
      ["presaleId=1.0&chainId=8453", "presaleId: must be a whole number"],
      ["presaleId=0&chainId=8453", "presaleId: must be at least 1"],
    ]) {
      expect(expectError(await call(GET, `/api/presales/allowlists?${q}`), 400, "invalid_request").error).toBe(message);
    }
    expect(expectError(await call(GET, "/api/presales/allowlists?presaleId=7"), 400, "invalid_request").error).toMatch(
      /^chainId: /,
    );
    expectError(
      await call(proofGET, "/api/presales/allowlists/proof?presaleId=7&chainId=8453&buyerAddress=0xnope"),
      400,
      "invalid_request",
    );
  });

  it("POST rejects bad members and bad trees, storing nothing", async () => {
    const good = { presaleId: 7, chainId: 8453, merkleRoot: tree.root, tree: tree.dump };
    await indexPresale(8, 8453, `0x${"ab".repeat(32)}`); // holds a root that is not the hash of the tree's top
    const bad: [unknown, number, string][] = [
      [{ ...good, presaleId: "seven" }, 400, "presaleId"],
      [{ ...good, presaleId: 0 }, 400, "presaleId"],
      [{ ...good, chainId: undefined }, 400, "chainId"],
      [{ ...good, merkleRoot: undefined }, 400, "merkleRoot"],
      [{ ...good, tree: { ...clone(tree.dump), leafEncoding: ["address"] } }, 400, "tree.leafEncoding"],
      [
        {
          ...good,
          presaleId: 8,
          merkleRoot: `0x${"ab".repeat(32)}`,
          tree: { ...clone(tree.dump), tree: [`0x${"ab".repeat(32)}`, ...tree.dump.tree.slice(1)] },
        },
        422,
        "tree.tree.0",
      ],
    ];
    for (const [body, status, path] of bad) {
      const res = await save(body);
      const error = expectError(res, status, status === 400 ? "invalid_request" : "unprocessable");
      expect((error.details as { path: string }[])[0].path).toBe(path);
    }
    // A root the presale does not hold, while the chain that could say otherwise cannot be read.
    expectError(
      await save({ ...good, merkleRoot: buildStandardTree([[address(5), 1n]]).root }),
      503,
      "provider_unavailable",
    );
    expect((await call(GET, "/api/presales/allowlists?presaleId=7&chainId=8453")).body.merkleRoot).toBe(tree.root);
  });

  it("POST replaces the presale's allowlist; other presales and chains keep theirs", async () => {
    const next = buildStandardTree([[address(500), 5n * 10n ** 18n]]);
    // The owner set a new root on chain and the indexer recorded it.
    await db()
      .updateTable("presales")
      .set({ allowlist_root: next.root })
      .where("presale_id", "=", 7)
      .where("chain_id", "=", 8453)
      .execute();
    expect((await save({ presaleId: "7", chainId: "8453", merkleRoot: next.root, tree: next.dump })).status).toBe(200);
    expect((await save({ presaleId: 7, chainId: 84532, merkleRoot: tree.root, tree: tree.dump })).status).toBe(200);
    expect((await proof(listed)).body.isAllowed).toBe(false);
    expect((await proof(address(500))).body).toMatchObject({ isAllowed: true, allowedAmountEth: "5.0", proof: [] });
    expect((await proof(listed, 7, 84532)).body.isAllowed).toBe(true);
  });
});
