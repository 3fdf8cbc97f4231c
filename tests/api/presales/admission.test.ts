// Who may store a presale's allowlist: whoever uploads the tree whose root the presale holds, as indexed
// or, for a presale not indexed yet or whose owner changed the root, as the chain holds it now.
import { describe, expect, it } from "vitest";
import { db } from "@/db";
import { POST } from "@/app/api/presales/allowlists/route";
import { GET as proofGET } from "@/app/api/presales/allowlists/proof/route";
import {
  address,
  heldUpload,
  makeTree,
  postRaw,
  presaleWithAllowlist,
  updateAllowlistRoot,
} from "@/tests/api/airdrops/trees";
import { useTestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";

const chain = useTestChain();
const save = (body: Record<string, unknown>) =>
  postRaw(POST, "/api/presales/allowlists", JSON.stringify({ chainId: 8453, ...body }));
const storedRoot = async (presaleId: number) =>
  (await db().selectFrom("presales").select("allowlist_root").where("presale_id", "=", presaleId).executeTakeFirst())
    ?.allowlist_root;

describe("POST /api/presales/allowlists admits only the root the presale holds", () => {
  it("reads a presale it has not indexed from the chain: its root is stored, another is 422, an unknown presale 404", async () => {
    const tree = makeTree(4);
    const presaleId = await presaleWithAllowlist(chain(), tree.root);
    const forged = makeTree(2, () => 10n ** 24n);
    const refused = expectError(
      await save({ presaleId, merkleRoot: forged.root, tree: forged.dump }),
      422,
      "unprocessable",
    );
    expect(refused.details).toEqual([
      expect.objectContaining({ path: "merkleRoot", expected: tree.root, received: forged.root }),
    ]);
    const res = await save({ presaleId, merkleRoot: tree.root, tree: tree.dump });
    expect(res.status, res.text).toBe(200);
    expect(
      (
        await call(
          proofGET,
          `/api/presales/allowlists/proof?presaleId=${presaleId}&chainId=8453&buyerAddress=${address(1)}`,
        )
      ).body.isAllowed,
    ).toBe(true);
    const unknown = expectError(
      await save({ presaleId: presaleId + 100, merkleRoot: tree.root, tree: tree.dump }),
      404,
      "not_found",
    );
    expect(unknown.error).toMatch(/no presale \d+ is known on chain 8453/);
  });

  it("takes the new tree once the owner changes the root on chain, records it, and refuses the old one after", async () => {
    const [first, second] = [makeTree(3), makeTree(5, (i) => BigInt(i + 1))];
    const presaleId = await presaleWithAllowlist(chain(), first.root);
    await db()
      .insertInto("presales")
      .values({
        chain_id: 8453,
        presale_id: presaleId,
        presale_address: chain().contracts.presale.toLowerCase(),
        deployment_config: null,
        allowlist_root: first.root,
      })
      .execute();
    expect((await save({ presaleId, merkleRoot: first.root, tree: first.dump })).status).toBe(200);
    await updateAllowlistRoot(chain(), presaleId, second.root);
    const res = await save({ presaleId, merkleRoot: second.root, tree: second.dump });
    expect(res.status, res.text).toBe(200);
    expect(await storedRoot(presaleId)).toBe(second.root);
    expectError(await save({ presaleId, merkleRoot: first.root, tree: first.dump }), 422, "unprocessable");
    const proof = await call(
      proofGET,
      `/api/presales/allowlists/proof?presaleId=${presaleId}&chainId=8453&buyerAddress=${address(4)}`,
    );
    expect(proof.body).toMatchObject({ isAllowed: true, allowedAmountWei: "5" });
  });

  it("refuses a presale without an allowlist", async () => {
    const tree = makeTree(2);
    const presaleId = await presaleWithAllowlist(chain(), `0x${"0".repeat(64)}`);
    const error = expectError(await save({ presaleId, merkleRoot: tree.root, tree: tree.dump }), 422, "unprocessable");
    expect(error.error).toMatch(/holds no Merkle root on chain/);
  });
  it("refuses an allowlist admitted at its start whose root the chain no longer holds at its end", async () => {
    const [old, fresh] = [makeTree(3, (i) => BigInt(i + 300)), makeTree(4, (i) => BigInt(i + 400))];
    const presaleId = await presaleWithAllowlist(chain(), old.root);
    const held = heldUpload(
      POST,
      "/api/presales/allowlists",
      `{"chainId":8453,"presaleId":${presaleId},"merkleRoot":"${old.root}","tree":{"format":"standard-v1",` +
        `"leafEncoding":["address","uint256"],"values":${JSON.stringify(old.dump.values)},`,
      `"tree":${JSON.stringify(old.dump.tree)}}}`,
    );
    await held.headHandled;
    await updateAllowlistRoot(chain(), presaleId, fresh.root);
    const owner = await save({ presaleId, merkleRoot: fresh.root, tree: fresh.dump });
    expect(owner.status, owner.text).toBe(200);
    held.release();
    const late = await held.answer;
    expect(late.status).toBe(422);
    const proof = await call(
      proofGET,
      `/api/presales/allowlists/proof?presaleId=${presaleId}&chainId=8453&buyerAddress=${address(0)}`,
    );
    expect(proof.body).toMatchObject({ isAllowed: true, allowedAmountWei: "400" });
  });
});
