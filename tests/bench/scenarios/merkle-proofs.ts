// Airdrop trees of 10,000, 100,000 and 1,000,000 leaves. Setup launches a token on the run's local chain whose
// airdrop holds the tree's root and indexes it (uploads are admitted only when the chain holds their root), then
// uploads the tree through POST /api/airdrops (one StandardMerkleTree dump, as the SDK sends it) and records the
// save time and the server's peak memory during the save; the load is GET /api/airdrops/claim (one proof) for 64
// accounts spread over the tree. Teardown removes the token's row and tree. Beside the framework floor the run
// measures:
//   - the database floor: the endpoint's one statement per request (the account's leaves with their proofs' tiles);
//   - getProof on an already loaded StandardMerkleTree in this process (the in-memory ideal);
//   - load() + getProof per request (what a service that stores the dump and loads it per request does), up to
//     10k leaves (one load() of 100k takes 9 s, of a million minutes).
// Run: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/tls_bench_merkle npm run bench -- --tokens 0 --scenarios 'merkle-*'
import { request as httpRequest } from "node:http";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { buildStandardTree, type StandardDump } from "@/lib/domains/merkle/build";
import { accountProofTilesSql, MAX_LEAVES_PER_ACCOUNT } from "@/lib/domains/merkle/queries";
import { db } from "@/db";
import { airdropOwner } from "@/lib/domains/airdrops/service";
import { defineScenario, type BenchContext, type BenchScenario, type SqlRequest } from "./types";

const MiB = 2 ** 20;
const SAMPLE_ACCOUNTS = 64;
const LOAD_FLOOR_MAX_LEAVES = 10_000;

/** A deterministic account per index; every 100th index repeats the previous account (duplicate leaves). */
const account = (i: number) =>
  `0x${(BigInt((i % 100 === 99 ? i - 1 : i) + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(40, "0").slice(-40)}`;

type Loaded = {
  token: string;
  root: string;
  dump: StandardDump;
  sample: number[];
  loaded?: StandardMerkleTree<[string, string]>;
};

/**
 * POSTs `body` with node:http, which writes the buffer to the socket as is. Node 20's fetch() spends about 1.5 s
 * of the client's own CPU on a 225 MB buffer before it sends even the headers (the same with a plain node:http
 * server on the other end), which a save time taken through it would count as the server's.
 */
function post(url: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "POST", headers: { "content-type": "application/json", "content-length": body.length } },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (part: Buffer) => parts.push(part));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The SQL GET /api/airdrops/claim sends for 8 of the sample accounts: one statement each. */
function endpointSql({ token, dump, sample }: Loaded): SqlRequest[] {
  const owner = airdropOwner(token);
  return sample.slice(0, 8).map((i) => {
    const proof = accountProofTilesSql(owner, dump.values[i].value[0], MAX_LEAVES_PER_ACCOUNT).compile(db());
    return [[{ text: proof.sql, values: [...proof.parameters] }]];
  });
}

function scenario(leaves: number, label: string): BenchScenario {
  let state: Loaded | undefined;
  let launched: string | undefined;
  const need = () => {
    if (!state) throw new Error("setup did not finish");
    return state;
  };
  return {
    name: `merkle-${label}`,
    chain: true,
    description: `airdrop tree of ${leaves.toLocaleString("en-US")} leaves: save through POST /api/airdrops, then GET /api/airdrops/claim`,
    async setup(ctx: BenchContext) {
      const values = Array.from(
        { length: leaves },
        (_, i) => [account(i), BigInt((i % 1000) + 1) * 10n ** 15n] as const,
      );
      const { root, dump } = buildStandardTree(values);
      if (!ctx.chain) throw new Error("no local chain: the scenario needs `chain: true`");
      const token = (launched = await ctx.chain.launch(root));
      const body = Buffer.from(JSON.stringify({ tokenAddress: token, merkleRoot: root, tree: dump }));
      ctx.record("upload body", Math.round((body.length / MiB) * 10) / 10, "MiB");
      const before = ctx.server.memory().rssBytes;
      const kernelPeak = ctx.server.resetPeak();
      const started = performance.now();
      const { result, peakRssBytes } = await ctx.server.sampleMemory(() => post(`${ctx.baseUrl}/api/airdrops`, body));
      const seconds = (performance.now() - started) / 1000;
      if (result.status !== 200) throw new Error(`upload answered ${result.status}: ${result.text.slice(0, 300)}`);
      const peak = Math.max(peakRssBytes, kernelPeak ? ctx.server.memory().peakRssBytes : 0);
      ctx.record("save time (POST to answer)", Math.round(seconds * 100) / 100, "s");
      ctx.record("server RSS before the save", Math.round(before / MiB), "MiB");
      ctx.record("server peak RSS during the save", Math.round(peak / MiB), "MiB");
      const step = Math.floor(leaves / SAMPLE_ACCOUNTS);
      state = { token, root, dump, sample: Array.from({ length: SAMPLE_ACCOUNTS }, (_, k) => k * step + (k % step)) };
    },
    requests() {
      const { token, dump, sample } = need();
      return sample.map((i) => ({
        path: `/api/airdrops/claim?tokenAddress=${token}&claimerAddress=${dump.values[i].value[0]}`,
      }));
    },
    sql: () => endpointSql(need()),
    async floors() {
      const s = need();
      // The object load() returns, built without load()'s re-validation (that is the next floor's cost).
      const Tree = StandardMerkleTree as unknown as new (
        tree: string[],
        values: unknown,
        encoding: string[],
      ) => StandardMerkleTree<[string, string]>;
      s.loaded = new Tree(s.dump.tree, s.dump.values, s.dump.leafEncoding);
      let k = 0;
      const next = () => s.sample[k++ % s.sample.length];
      const floors = [
        { name: "getProof on a loaded StandardMerkleTree (in process)", run: () => s.loaded!.getProof(next()) },
      ];
      // Each loop of the floor runs at least one load(): 9 s at 100k leaves, minutes at a million. Measured up to 10k.
      if (leaves <= LOAD_FLOOR_MAX_LEAVES)
        floors.push({
          name: "StandardMerkleTree.load() + getProof per request (in process)",
          run: () => StandardMerkleTree.load(s.dump as never).getProof(next()),
        });
      return floors;
    },
    async teardown(ctx: BenchContext) {
      state = undefined;
      // A token and a tree per run: without this, every run would leave its tree (a million leaf rows) behind.
      if (launched) await ctx.chain?.forget([launched]);
      launched = undefined;
      // Where autovacuum is off (these machines), the deleted tree's rows would stay behind as dead tuples, run
      // after run, and the planner would keep statistics from before.
      await ctx.pool.query("VACUUM (ANALYZE) merkle_tiles, merkle_leaf_chunks, merkle_trees");
    },
  };
}

export default defineScenario([scenario(10_000, "10k"), scenario(100_000, "100k"), scenario(1_000_000, "1m")]);
