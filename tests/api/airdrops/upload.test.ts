// POST /api/airdrops: every rejection names the first bad member, leaf or node, and stores nothing;
// bodies are accepted the way scripts and SDKs send them.
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@/db";
import { config } from "@/lib/core/config";
import { bulk } from "@/lib/domains/merkle/queries";
import { GET, POST } from "@/app/api/airdrops/route";
import { useTestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";
import { address, clone, makeTree, postRaw, tokenWithAirdrop, type Tree } from "./trees";

const chain = useTestChain();
let token: string;
let other: string;
let tree: Tree;

const upload = (body: unknown, options?: Parameters<typeof postRaw>[3]) =>
  postRaw(POST, "/api/airdrops", typeof body === "string" ? body : JSON.stringify(body), options);
const good = () => ({ tokenAddress: token, merkleRoot: tree.root, tree: clone(tree.dump) });
const storedTrees = async () =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM merkle_trees`.execute(db())).rows[0].n);

/** Rejected with this status, code and path, and nothing new stored. */
async function rejects(body: unknown, status: number, path: string | RegExp, options?: Parameters<typeof postRaw>[3]) {
  const before = await storedTrees();
  const res = await upload(body, options);
  const code = status === 400 ? "invalid_request" : status === 413 ? "payload_too_large" : "unprocessable";
  const error = expectError({ ...res, body: res.body }, status, code);
  if (typeof path === "string") expect((error.details as { path: string }[] | undefined)?.[0]?.path ?? "").toBe(path);
  else expect(error.error).toMatch(path);
  expect(await storedTrees()).toBe(before);
  return error;
}

beforeAll(async () => {
  tree = makeTree(6);
  [token, other] = [await tokenWithAirdrop(chain(), tree.root), await tokenWithAirdrop(chain(), tree.root)];
  expect((await upload(good())).status).toBe(200);
});

describe("POST /api/airdrops rejects", () => {
  it("bodies that are not a JSON object", async () => {
    await rejects("", 400, /a JSON body is required/);
    await rejects("{not json", 400, /not valid JSON/);
    await rejects('{"tokenAddress": 1,}', 400, /not valid JSON/);
    await rejects("[1, 2]", 400, /must be a JSON object/);
  });

  it("bad or missing members besides the tree", async () => {
    await rejects({ ...good(), tokenAddress: "0x123" }, 400, "tokenAddress");
    await rejects({ ...good(), tokenAddress: undefined }, 400, "tokenAddress");
    await rejects({ ...good(), merkleRoot: "0x1234" }, 400, "merkleRoot");
    await rejects({ ...good(), delaySeconds: 100_000, enqueue: true }, 400, "delaySeconds");
    await rejects({ ...good(), enqueue: "maybe" }, 400, "enqueue");
    await rejects({ ...good(), tokenAddress: { nested: true } }, 400, "tokenAddress");
  });

  it("a tree that is missing or not a standard-v1 (address, uint256) dump", async () => {
    await rejects({ ...good(), tree: undefined }, 400, "tree");
    await rejects({ ...good(), tree: "dump" }, 400, "tree");
    await rejects({ ...good(), tree: { ...good().tree, format: "simple-v1" } }, 400, "tree.format");
    await rejects({ ...good(), tree: { ...good().tree, format: undefined } }, 400, "tree.format");
    await rejects(
      { ...good(), tree: { ...good().tree, leafEncoding: ["address", "uint96"] } },
      400,
      "tree.leafEncoding",
    );
    await rejects(
      { ...good(), tree: { ...good().tree, leafEncoding: ["uint256", "address"] } },
      400,
      "tree.leafEncoding",
    );
    await rejects(
      { ...good(), tree: { ...good().tree, leafEncoding: ["address", "uint256", "bool"] } },
      400,
      "tree.leafEncoding",
    );
    await rejects({ ...good(), tree: { ...good().tree, values: undefined } }, 400, "tree.values");
    await rejects({ ...good(), tree: { ...good().tree, tree: {} } }, 400, "tree.tree");
  });

  it("the first value that is not [address, non-negative integer]", async () => {
    const cases: [(v: any[]) => void, string][] = [
      [(v) => (v[3].value[0] = "0x12345"), "tree.values.3.value.0"],
      [(v) => (v[3].value[0] = 42), "tree.values.3.value.0"],
      [(v) => (v[2].value[1] = "-5"), "tree.values.2.value.1"],
      [(v) => (v[2].value[1] = 1.5), "tree.values.2.value.1"],
      [(v) => (v[2].value[1] = (2n ** 256n).toString()), "tree.values.2.value.1"],
      [(v) => (v[2].value[1] = "1 ether"), "tree.values.2.value.1"],
      [(v) => v[1].value.push("7"), "tree.values.1.value"],
      [(v) => (v[1].value = v[1].value[0]), "tree.values.1.value"],
      [(v) => delete v[4].treeIndex, "tree.values.4.treeIndex"],
      [(v) => (v[4].treeIndex = "five"), "tree.values.4.treeIndex"],
      [(v) => (v[4].treeIndex = 2 ** 32 + v[4].treeIndex), "tree.values.4.treeIndex"],
      [(v) => (v[0] = [address(0), "1"]), "tree.values.0"],
    ];
    for (const [tamper, path] of cases) {
      const body = good();
      tamper(body.tree.values);
      await rejects(body, 400, path);
    }
  });

  it("a node that is not 32 bytes of hex", async () => {
    for (const bad of ["0x1234", "nothex", 7, null]) {
      const body = good();
      (body.tree.tree as unknown[])[5] = bad;
      await rejects(body, 400, "tree.tree.5");
    }
  });

  it("a node array of the wrong length", async () => {
    const body = good();
    body.tree.tree.push(body.tree.tree[0]);
    await rejects(body, 422, "tree.tree");
    const empty = good();
    empty.tree.values = [];
    empty.tree.tree = [];
    await rejects(empty, 422, "tree.values");
  });

  it("a treeIndex that is not a leaf position, or is taken twice", async () => {
    const internal = good();
    internal.tree.values[2].treeIndex = 1;
    await rejects(internal, 422, "tree.values.2.treeIndex");
    const outside = good();
    outside.tree.values[2].treeIndex = 99;
    await rejects(outside, 422, "tree.values.2.treeIndex");
    const twice = good();
    twice.tree.values[4].treeIndex = twice.tree.values[1].treeIndex;
    await rejects(twice, 422, "tree.values.4.treeIndex");
  });

  it("the first value whose leaf is not at its treeIndex", async () => {
    const body = good();
    body.tree.values[3].value[1] = "999";
    body.tree.values[5].value[1] = "998";
    await rejects(body, 422, "tree.values.3");
    const swapped = good();
    [swapped.tree.values[0].treeIndex, swapped.tree.values[1].treeIndex] = [
      swapped.tree.values[1].treeIndex,
      swapped.tree.values[0].treeIndex,
    ];
    await rejects(swapped, 422, "tree.values.0");
  });

  it("the first node (from the leaves up) that is not the hash of its children", async () => {
    const body = good();
    body.tree.tree[1] = body.tree.tree[2];
    await rejects(body, 422, "tree.tree.1");
    // A root the chain holds but that is not the hash of the tree's top children.
    const root = good();
    root.tree.tree[0] = `0x${"ab".repeat(32)}`;
    const holder = await tokenWithAirdrop(chain(), root.tree.tree[0] as `0x${string}`);
    await rejects({ ...root, tokenAddress: holder, merkleRoot: root.tree.tree[0] }, 422, "tree.tree.0");
  });

  it("a merkleRoot other than the tree's root", async () => {
    await rejects({ ...good(), merkleRoot: makeTree(3).root }, 422, "merkleRoot");
  });

  it("duplicated members", async () => {
    const text = JSON.stringify(good()).replace('"values":', '"values":[],"values":');
    await rejects(text, 400, "tree.values");
  });

  it("more leaves than allowed and bodies over the byte cap (413)", async () => {
    process.env.MERKLE_MAX_LEAVES = "5";
    const { resetConfig } = await import("@/lib/core/config");
    resetConfig();
    try {
      await rejects(good(), 413, /at most 5 leaves|at most 9 nodes/);
    } finally {
      delete process.env.MERKLE_MAX_LEAVES;
      resetConfig();
    }
    const padded = JSON.stringify({ ...good(), padding: "x".repeat(100) }).replace(
      '"padding"',
      `${" ".repeat(2 ** 20 + 10)}"padding"`,
    );
    process.env.MERKLE_MAX_BODY_BYTES = String(2 ** 20);
    resetConfig();
    try {
      await rejects(padded, 413, /exceeds 1048576 bytes/);
      await rejects(JSON.stringify(good()), 413, /exceeds/, { headers: { "content-length": String(2 ** 21) } });
    } finally {
      delete process.env.MERKLE_MAX_BODY_BYTES;
      resetConfig();
    }
  });

  it("a bad value found while the tiles, written from the nodes, are stored, and deletes them and their job", async () => {
    const rows = async () => {
      const { rows } = await sql<{ trees: string; tiles: string; chunks: string; jobs: string }>`
        SELECT (SELECT last_value FROM merkle_trees_id_seq) AS trees, (SELECT count(*) FROM merkle_tiles) AS tiles,
          (SELECT count(*) FROM merkle_leaf_chunks) AS chunks, (SELECT count(*) FROM jobs) AS jobs`.execute(db());
      return rows[0];
    };
    const before = await rows();
    const body = { ...good(), tokenAddress: other }; // a token without this tree yet (else it is left unchanged)
    body.tree.values[5].value[1] = "998";
    await rejects(body, 422, "tree.values.5", { chunk: 64 });
    const after = await rows();
    expect(Number(after.trees)).toBeGreaterThan(Number(before.trees)); // a tree was started from its nodes
    expect([after.tiles, after.chunks, after.jobs]).toEqual([before.tiles, before.chunks, before.jobs]);
  });

  it("a failed write: the tree's other writers stop after their current statement, and nothing is left", async () => {
    // 30,000 leaves are three leaf statements for two writers: the first statement fails, the one beside it ends.
    const big = makeTree(30_000);
    const bigToken = await tokenWithAirdrop(chain(), big.root);
    await sql`CREATE SEQUENCE test_leaf_statements`.execute(db());
    await sql`CREATE FUNCTION test_fail_first_leaf_statement() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('test_leaf_statements') = 1 THEN
          RAISE EXCEPTION 'the first leaf statement fails' USING ERRCODE = '53000';
        END IF;
        RETURN NULL;
      END $$`.execute(db());
    await sql`CREATE TRIGGER test_fail_first BEFORE INSERT ON merkle_leaf_chunks
      FOR EACH STATEMENT EXECUTE FUNCTION test_fail_first_leaf_statement()`.execute(db());
    const rows = async () => {
      const { rows } = await sql<{ trees: string; tiles: string; chunks: string; jobs: string }>`
        SELECT (SELECT count(*) FROM merkle_trees) AS trees, (SELECT count(*) FROM merkle_tiles) AS tiles,
          (SELECT count(*) FROM merkle_leaf_chunks) AS chunks, (SELECT count(*) FROM jobs) AS jobs`.execute(db());
      return rows[0];
    };
    try {
      const before = await rows();
      const res = await upload({ tokenAddress: bigToken, merkleRoot: big.root, tree: big.dump });
      expectError(res, 503, "provider_unavailable");
      const { rows: tried } = await sql<{ n: string }>`SELECT last_value AS n FROM test_leaf_statements`.execute(db());
      // Without the halt, the second writer goes on to the third statement. With it, the second writer's statement
      // beside the failed one is the last (PostgreSQL), or there is none: on PGlite's one connection the second
      // writer's transaction starts only after the first one's ended.
      expect(Number(tried[0].n)).toBeLessThanOrEqual(2);
      expect(await rows()).toEqual(before);
    } finally {
      await sql`DROP TRIGGER test_fail_first ON merkle_leaf_chunks`.execute(db());
      await sql`DROP FUNCTION test_fail_first_leaf_statement`.execute(db());
      await sql`DROP SEQUENCE test_leaf_statements`.execute(db());
    }
  });

  it("and leaves the stored tree as it was", async () => {
    const res = await call(GET, `/api/airdrops?tokenAddress=${token}&claimerAddress=${address(0)}`);
    expect(res.body).toEqual({ claims: [tree.dump.values[0].value[1]] });
  });
});

describe("POST /api/airdrops accepts bodies as clients send them", () => {
  const claims = async (account: string, tokenAddress = token) =>
    (await call(GET, `/api/airdrops?tokenAddress=${tokenAddress}&claimerAddress=${account}`)).body.claims;

  it("without a content-type, as text/plain, split into tiny chunks, pretty-printed, with a BOM", async () => {
    const text = JSON.stringify(good(), null, 2);
    for (const options of [{}, { headers: { "content-type": "text/plain;charset=UTF-8" } }, { chunk: 7 }]) {
      const res = await upload(text, options);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ success: true, leafCount: 6 });
    }
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect((await postRaw(POST, "/api/airdrops", bom)).status).toBe(200);
  });

  it("with members in any order, unknown members, any address case, and amounts as numbers or hex", async () => {
    const body = good();
    const dump = body.tree as any;
    dump.values[0].value[1] = Number(dump.values[0].value[1]); // 1e17 is exact as a double
    dump.values[1].value[1] = `0x${BigInt(dump.values[1].value[1]).toString(16)}`;
    dump.values[2].value[0] = dump.values[2].value[0].toUpperCase().replace("0X", "0x");
    const reordered = {
      tree: {
        values: dump.values,
        extra: { ignored: [1, 2] },
        tree: dump.tree,
        leafEncoding: dump.leafEncoding,
        format: dump.format,
      },
      source: "sdk",
      merkleRoot: body.merkleRoot.toUpperCase().replace("0X", "0x"),
      tokenAddress: other.toUpperCase().replace("0X", "0x"),
    };
    const res = await upload(reordered);
    expect(res.status, res.text).toBe(200);
    expect(await claims(address(0).toLowerCase(), other)).toEqual([tree.dump.values[0].value[1]]);
    expect(await claims(address(1), other)).toEqual([tree.dump.values[1].value[1]]);
    expect(await claims(address(2).toLowerCase(), other)).toEqual([tree.dump.values[2].value[1]]);
  });

  it("as enqueue: true with a delay, answering that it was accepted", async () => {
    const fresh = await tokenWithAirdrop(chain(), tree.root);
    const res = await upload({ ...good(), tokenAddress: fresh, enqueue: "true", delaySeconds: "0" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ success: true, enqueued: true, delaySeconds: 0 });
  });
});

describe("a tree's writers", () => {
  it("send their statements in one transaction on PostgreSQL, one transaction each on the embedded database", async () => {
    const seen: { txid: string; timeout: string }[] = [];
    await bulk(async (trx) => {
      const { rows } = await sql<{ txid: string; timeout: string }>`
        SELECT txid_current()::text AS txid, current_setting('statement_timeout') AS timeout`.execute(trx);
      seen.push(rows[0]);
      return seen.length < 3;
    });
    expect(seen).toHaveLength(3);
    // One commit per writer where a commit waits for the WAL; on PGlite's one session, other requests between them.
    expect(new Set(seen.map((s) => s.txid)).size).toBe(config().embedded ? 3 : 1);
    for (const { timeout } of seen) expect(timeout).toBe("1min");
  });
});
