// The uploads' documented body (lib/domains/merkle/schemas.ts and the airdrop and allowlist upload schemas) against
// the streamed reader and validator that really check uploads: a valid upload satisfies both, and a bad member is
// refused by both, so the OpenAPI document's body says what the service accepts.
import { describe, expect, it } from "vitest";
import { HttpError } from "@/lib/core/errors";
import { airdropUploadBody, airdropUploadFields } from "@/lib/domains/airdrops/schemas";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { EXAMPLE_TREE, standardTreeDump } from "@/lib/domains/merkle/schemas";
import { readTreeUpload } from "@/lib/domains/merkle/upload";
import { allowlistUploadBody } from "@/lib/domains/presales/schemas";
import { address, clone } from "@/tests/api/airdrops/trees";

const { root, dump } = buildStandardTree([
  [address(0), 10n ** 18n],
  [address(1), 2n * 10n ** 18n],
  [address(2), 3n],
]);
const upload = { tokenAddress: address(9), merkleRoot: root, tree: dump };

/** What the streamed path makes of a body: "ok", or the status it refuses it with. */
async function streamed(body: unknown): Promise<"ok" | number> {
  const request = new Request("http://localhost/api/airdrops", { method: "POST", body: JSON.stringify(body) });
  try {
    await readTreeUpload(request, airdropUploadFields);
    return "ok";
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
}

/** An upload body to break: JSON, typed loosely on purpose. */
type Upload = Record<string, any>;
const tamper = (change: (body: Upload) => void): Upload => {
  const body = clone(upload) as Upload;
  change(body);
  return body;
};

describe("the documented upload body", () => {
  it("a valid upload satisfies the zod schema and the streamed validator", async () => {
    expect(airdropUploadBody.safeParse(upload).success).toBe(true);
    expect(await streamed(upload)).toBe("ok");
    const allowlist = { presaleId: 7, chainId: 8453, merkleRoot: root, tree: dump };
    expect(allowlistUploadBody.safeParse(allowlist).success).toBe(true);
  });

  it("amounts and tree positions as the reader takes them: decimal or hex text, JSON numbers, text positions", async () => {
    const variants = [
      tamper((b) => (b.tree.values[2].value[1] = 3)),
      tamper((b) => (b.tree.values[2].value[1] = "0x3")),
      tamper((b) => (b.tree.values[2].treeIndex = String(b.tree.values[2].treeIndex))),
    ];
    for (const body of variants) {
      expect(airdropUploadBody.safeParse(body).success, JSON.stringify(body.tree.values[2])).toBe(true);
      expect(await streamed(body)).toBe("ok");
    }
  });

  it.each([
    ["an amount with a fraction", (b: Upload) => (b.tree.values[0].value[1] = "1.5")],
    ["a negative amount", (b: Upload) => (b.tree.values[0].value[1] = "-1")],
    ["an amount of 2^256", (b: Upload) => (b.tree.values[0].value[1] = (2n ** 256n).toString())],
    ["a short address", (b: Upload) => (b.tree.values[0].value[0] = "0x1234")],
    ["a third member in a value", (b: Upload) => b.tree.values[0].value.push("1")],
    ["a node that is not 32 bytes", (b: Upload) => (b.tree.tree[1] = "0xabcd")],
    ["a treeIndex of 2^31", (b: Upload) => (b.tree.values[0].treeIndex = 2 ** 31)],
    ["another format", (b: Upload) => (b.tree.format = "standard-v2")],
    ["another leaf encoding", (b: Upload) => (b.tree.leafEncoding = ["address", "uint128"])],
    ["no values", (b: Upload) => delete b.tree.values],
    ["no merkleRoot", (b: Upload) => delete b.merkleRoot],
  ])("%s is refused by both", async (_name, change) => {
    const body = tamper(change);
    expect(airdropUploadBody.safeParse(body).success).toBe(false);
    expect(await streamed(body)).toBeGreaterThanOrEqual(400);
  });

  it("the documented example is a real tree: its root is tree[0] and the streamed validator accepts it", async () => {
    expect(standardTreeDump.safeParse(EXAMPLE_TREE.dump).success).toBe(true);
    expect(EXAMPLE_TREE.dump.tree[0]).toBe(EXAMPLE_TREE.root);
    expect(await streamed({ tokenAddress: address(9), merkleRoot: EXAMPLE_TREE.root, tree: EXAMPLE_TREE.dump })).toBe(
      "ok",
    );
  });
});
