// Who may store a token's airdrop tree: whoever uploads the tree whose root the token's airdrop holds on
// chain. Unknown tokens are refused before the body is read, other roots with both roots named, and an
// unreadable chain with a 503 (never an unverified tree); slow senders are cut and free their slot.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { custom, http } from "viem";
import { db } from "@/db";
import { GET, POST } from "@/app/api/airdrops/route";
import { resetChainClients, setChainTransport } from "@/lib/platform/chain";
import { resetConfig } from "@/lib/core/config";
import { useTestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";
import { address, heldUpload, makeTree, postRaw, tokenWithAirdrop, updateAirdropRoot, type Tree } from "./trees";

const chain = useTestChain();
let tree: Tree;
let token: string;

const upload = (body: unknown, options?: Parameters<typeof postRaw>[3]) =>
  postRaw(POST, "/api/airdrops", JSON.stringify(body), options);
const storedTrees = async () =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM merkle_trees`.execute(db())).rows[0].n);
const claims = async (tokenAddress: string, account: string) =>
  (await call(GET, `/api/airdrops?tokenAddress=${tokenAddress}&claimerAddress=${account}`)).body.claims;

/** POSTs the members then the start of a tree, then one more byte every `everyMs` and never ends. */
function endlessUpload(members: Record<string, unknown>, ip = "203.0.113.9", everyMs = 50) {
  let timer: NodeJS.Timeout | undefined;
  const head = new TextEncoder().encode(
    `${JSON.stringify(members).slice(0, -1)},"tree":{"format":"standard-v1","values":[`,
  );
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(head);
      timer = setInterval(() => c.enqueue(new TextEncoder().encode(" ")), everyMs);
    },
    cancel: () => clearInterval(timer),
  });
  const request = new Request("http://localhost:3000/api/airdrops", {
    method: "POST",
    body,
    duplex: "half",
    headers: { "x-forwarded-for": ip },
  } as RequestInit);
  return POST(request, { params: Promise.resolve({}) }).finally(() => clearInterval(timer));
}

beforeAll(async () => {
  tree = makeTree(5);
  token = await tokenWithAirdrop(chain(), tree.root);
});

afterEach(() => {
  for (const name of ["MERKLE_UPLOAD_TIMEOUT_SECONDS", "MERKLE_MAX_CONCURRENT_UPLOADS"]) delete process.env[name];
  resetConfig();
});

describe("POST /api/airdrops admits only the chain's root", () => {
  it("stores the tree of the root the token's airdrop holds, and the same tree again writes nothing", async () => {
    const first = await upload({ tokenAddress: token, merkleRoot: tree.root, tree: tree.dump });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ success: true, leafCount: 5 });
    expect(first.body.unchanged).toBeUndefined();
    const before = await storedTrees();
    const again = await upload({ tokenAddress: token.toLowerCase(), merkleRoot: tree.root, tree: tree.dump });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ success: true, leafCount: 5, unchanged: true });
    expect(await storedTrees()).toBe(before);
  });

  it("refuses another root with 422 naming both, and the stored tree stays", async () => {
    await upload({ tokenAddress: token, merkleRoot: tree.root, tree: tree.dump });
    const forged = makeTree(2, () => 10n ** 30n);
    const before = await storedTrees();
    const res = await upload({ tokenAddress: token, merkleRoot: forged.root, tree: forged.dump });
    const error = expectError(res, 422, "unprocessable");
    expect(error.error).toContain(tree.root);
    expect(error.details).toEqual([
      expect.objectContaining({ path: "merkleRoot", expected: tree.root, received: forged.root }),
    ]);
    expect(await storedTrees()).toBe(before);
    expect(await claims(token, address(0))).toEqual([
      tree.dump.values.find((v) => v.value[0] === address(0))!.value[1],
    ]);
  });

  it("refuses a token without an airdrop on chain", async () => {
    const none = await tokenWithAirdrop(chain(), `0x${"0".repeat(64)}`);
    const error = expectError(
      await upload({ tokenAddress: none, merkleRoot: tree.root, tree: tree.dump }),
      422,
      "unprocessable",
    );
    expect(error.error).toMatch(/holds no Merkle root on chain/);
  });

  it("answers 404 for a token it has not indexed, before the rest of the body, and closes the connection", async () => {
    const unknown = "0x00000000000000000000000000000000000000aa";
    const res = await endlessUpload({ tokenAddress: unknown, merkleRoot: tree.root });
    expect(res.status).toBe(404);
    expect(res.headers.get("connection")).toBe("close");
    expect((await res.json()).error).toMatch(/no token 0x0+AA is indexed/i);
  });

  it("answers 503 with Retry-After when the chain cannot be read, storing nothing", async () => {
    const before = await storedTrees();
    setChainTransport(8453, http("http://127.0.0.1:9", { retryCount: 0 }));
    resetChainClients();
    try {
      const res = await upload({ tokenAddress: token, merkleRoot: tree.root, tree: tree.dump });
      expectError(res, 503, "provider_unavailable");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      setChainTransport(8453, custom(chain().provider, { retryCount: 0 }));
      resetChainClients();
    }
    expect(await storedTrees()).toBe(before);
  });

  it("takes the new tree when the airdrop's admin changes the root on chain, and never the old one again", async () => {
    await upload({ tokenAddress: token, merkleRoot: tree.root, tree: tree.dump });
    const next = makeTree(3, (i) => BigInt(i + 7));
    expectError(await upload({ tokenAddress: token, merkleRoot: next.root, tree: next.dump }), 422, "unprocessable");
    await updateAirdropRoot(chain(), token as `0x${string}`, next.root);
    const res = await upload({ tokenAddress: token, merkleRoot: next.root, tree: next.dump });
    expect(res.status, res.text).toBe(200);
    expect(await claims(token, address(0))).toEqual(["7"]);
    expectError(await upload({ tokenAddress: token, merkleRoot: tree.root, tree: tree.dump }), 422, "unprocessable");
    expect(await claims(token, address(0))).toEqual(["7"]);
  });
});

describe("POST /api/airdrops when the chain's root changes during an upload", () => {
  it("refuses a tree admitted at its start whose root the chain no longer holds at its end, keeping the new tree", async () => {
    const old = makeTree(4, (i) => BigInt(i + 100));
    const fresh = makeTree(3, (i) => BigInt(i + 200));
    const airdrop = await tokenWithAirdrop(chain(), old.root);
    // The old root is admitted from the head; its values come first and its nodes last, whenever the sender likes.
    const held = heldUpload(
      POST,
      "/api/airdrops",
      `{"tokenAddress":"${airdrop}","merkleRoot":"${old.root}","tree":{"format":"standard-v1",` +
        `"leafEncoding":["address","uint256"],"values":${JSON.stringify(old.dump.values)},`,
      `"tree":${JSON.stringify(old.dump.tree)}}}`,
    );
    await held.headHandled;
    await updateAirdropRoot(chain(), airdrop as `0x${string}`, fresh.root);
    const owner = await upload({ tokenAddress: airdrop, merkleRoot: fresh.root, tree: fresh.dump });
    expect(owner.status, owner.text).toBe(200);
    const before = await storedTrees();
    held.release();
    const late = await held.answer;
    expect(late.status).toBe(422);
    expect((await late.json()).error).toContain(fresh.root);
    expect(await storedTrees()).toBe(before);
    expect(await claims(airdrop, address(0))).toEqual(["200"]);
  });
});

describe("POST /api/airdrops against slow senders", () => {
  it("cuts senders that trickle past the deadline with 408 and frees their upload slots at once", async () => {
    process.env.MERKLE_UPLOAD_TIMEOUT_SECONDS = "1";
    process.env.MERKLE_MAX_CONCURRENT_UPLOADS = "2";
    resetConfig();
    const started = Date.now();
    // Both slots held by two senders whose members are incomplete (nothing to admit yet), one byte at a time.
    const held = await Promise.all([
      endlessUpload({ tokenAddress: token }, "203.0.113.31"),
      endlessUpload({ tokenAddress: token }, "203.0.113.32"),
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const res of held) {
      expect(res.status).toBe(408);
      expect((await res.json()).code).toBe("request_timeout");
    }
    const res = await upload({ tokenAddress: token, merkleRoot: tree.root, tree: tree.dump });
    expect(res.status, res.text).toBe(200);
  });
  it("lets one client hold one upload slot: its second upload is 429 while the first is read, another client's goes", async () => {
    const held = heldUpload(
      POST,
      "/api/airdrops",
      `{"tokenAddress":"${token}","merkleRoot":"${tree.root}","tree":`,
      `${JSON.stringify(tree.dump)}}`,
      "2001:db8:5:5::1",
    );
    await held.headHandled; // its slot is held while the rest of its body is awaited
    const body = { tokenAddress: token, merkleRoot: tree.root, tree: tree.dump };
    const second = await upload(body, { ip: "2001:db8:5:5::2" }); // the same /64: the same client
    expectError(second, 429, "rate_limited");
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await upload(body, { ip: "203.0.113.33" });
    expect(other.status, other.text).toBe(200);
    held.release();
    expect((await held.answer).status).toBe(200);
    const after = await upload(body, { ip: "2001:db8:5:5::2" });
    expect(after.status, after.text).toBe(200);
  });
});
