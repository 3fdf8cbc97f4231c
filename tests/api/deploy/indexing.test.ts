// Tokens that did not come through the deploy API: the TokenCreated indexer (checkpoints, re-runs, reorgs),
// POST /api/tokens/index-by-address and POST /api/tokens/save-deployed-token/from-ui, on the in-process chain.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { custom, getAddress, keccak256, toHex, type Address, type Hash } from "viem";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { resetChainClients, setChainTransport, tokenFactoryAbi, type DeploymentConfig } from "@/lib/platform/chain";
import { enqueue } from "@/lib/platform/jobs/define";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { followTokenCreatedJob } from "@/lib/domains/launch/indexer/jobs";
import { followTokenCreated, tokenIndexCheckpoint } from "@/lib/domains/launch/indexer/follow";
import { indexByAddress as indexTokenByAddress } from "@/lib/domains/launch/indexer/lookup";
import { DeploymentReadStopped, type DeploymentRead, readUnreadDeployments } from "@/lib/domains/launch/indexer/reread";
import { POST as indexByAddress } from "@/app/api/tokens/index-by-address/route";
import { POST as fromUi } from "@/app/api/tokens/save-deployed-token/from-ui/route";
import { defaultDeploymentConfig, useTestChain, type TestChain } from "@/tests/helpers/chain";
import { startIssuer, type Issuer } from "@/tests/helpers/auth";
import { call, expectError } from "@/tests/helpers/http";
import { freezeDate } from "@/tests/helpers/clock";

const chain = useTestChain();
let issuer: Issuer;

beforeAll(async () => {
  issuer = await startIssuer();
});
afterAll(() => issuer.close());
beforeEach(async () => {
  for (const table of ["tokens", "jobs", "rate_limits", "chain_checkpoints", "token_submissions"] as const)
    await db().deleteFrom(table).execute();
});

/** The address deployDirect(c, label) deploys at, found by simulating it. */
async function predictDirect(c: TestChain, label: string, over: Partial<DeploymentConfig["tokenConfig"]> = {}) {
  const config = defaultDeploymentConfig(c, { salt: keccak256(toHex(label)), name: label });
  config.tokenConfig = { ...config.tokenConfig, ...over };
  const wallet = c.wallet(4);
  const { result: token } = await c.publicClient.simulateContract({
    account: wallet.account,
    address: c.contracts.factory,
    abi: tokenFactoryAbi,
    functionName: "deployToken",
    args: [config],
  });
  return { token, config, wallet };
}

/** A deployment straight at the factory from a user's wallet (not through the service). */
async function deployDirect(c: TestChain, label: string, over: Partial<DeploymentConfig["tokenConfig"]> = {}) {
  const { token, config, wallet } = await predictDirect(c, label, over);
  const hash = await wallet.writeContract({
    address: c.contracts.factory,
    abi: tokenFactoryAbi,
    functionName: "deployToken",
    args: [config],
  });
  const receipt = await c.publicClient.waitForTransactionReceipt({ hash });
  return { token: token as Address, hash, block: Number(receipt.blockNumber), config };
}

/** The `extensions` a token deployed with `config` straight at the factory is indexed with. */
function extensionsOf(config: DeploymentConfig) {
  const { rewardAdmins, rewardRecipients, rewardBps } = config.lockerConfig;
  return {
    fees: {
      hook_address: getAddress(config.poolConfig.hook),
      type: "static",
      tokenFee: 10_000, // defaultDeploymentConfig's 1% and 1%
      pairedFee: 10_000,
      recipients: rewardRecipients.map((recipient, i) => ({
        bps: rewardBps[i],
        admin: getAddress(rewardAdmins[i]!),
        recipient: getAddress(recipient),
      })),
    },
  };
}

const rowOf = (token: string) =>
  db().selectFrom("tokens").selectAll().where("contract_address", "=", token.toLowerCase()).executeTakeFirst();
const tokenCount = async () => (await db().selectFrom("tokens").select("id").execute()).length;
async function runIndexer() {
  await enqueue(followTokenCreatedJob, { chainId: 8453 });
  const outcomes = await runDueJobs(jobs);
  expect(outcomes.map((o) => o.status)).toEqual(["done"]);
}

describe("the TokenCreated indexer", () => {
  it("lists tokens deployed straight at the factory, advances its checkpoint, and a re-run changes nothing", async () => {
    const c = chain();
    const a = await deployDirect(c, "Direct A", {
      context: JSON.stringify({ interface: "cli", platform: "farcaster", messageId: "0xm", id: "77" }),
    });
    const b = await deployDirect(c, "Direct B");
    await runIndexer();
    const rowA = (await rowOf(a.token))!;
    const block = await c.publicClient.getBlock({ blockNumber: BigInt(a.block) });
    expect(rowA).toMatchObject({
      name: "Direct A",
      tx_hash: a.hash,
      block_number: a.block,
      msg_sender: c.accounts[4]!.toLowerCase(),
      admin: c.accounts[2]!.toLowerCase(),
      factory_address: c.contracts.factory.toLowerCase(),
      requestor_fid: 77,
      pair: "WETH",
      extensions: extensionsOf(a.config), // the hook, its fees and the reward split, from the deployToken call
    });
    expect(rowA.deployed_at.getTime()).toBe(Number(block.timestamp) * 1000);
    expect((await rowOf(b.token))?.name).toBe("Direct B");
    const head = Number(await c.publicClient.getBlockNumber());
    expect(await tokenIndexCheckpoint(8453, c.contracts.factory)).toBe(head);

    const ids = (await db().selectFrom("tokens").select("id").orderBy("id").execute()).map((r) => r.id);
    await runIndexer();
    expect((await db().selectFrom("tokens").select("id").orderBy("id").execute()).map((r) => r.id)).toEqual(ids);

    const later = await deployDirect(c, "Direct C");
    await runIndexer();
    expect((await rowOf(later.token))?.block_number).toBe(later.block);
    expect(await tokenCount()).toBe(3);
  });

  it("re-reads the last TOKEN_INDEX_REORG_DEPTH blocks: a block replaced by a reorg is read again", async () => {
    const c = chain();
    const depth = (blocks: number) => {
      process.env.TOKEN_INDEX_REORG_DEPTH = String(blocks);
      resetConfig();
    };
    try {
      depth(0);
      const beforeFork = await c.snapshot();
      const original = await deployDirect(c, "Original");
      await runIndexer();
      expect(await tokenIndexCheckpoint(8453, c.contracts.factory)).toBe(original.block);

      // The chain reorganises: the block at that height now holds another deployment.
      await c.revert(beforeFork);
      const replacement = await deployDirect(c, "Replacement");
      expect(replacement.block).toBe(original.block);
      await runIndexer();
      expect(await rowOf(replacement.token)).toBeUndefined(); // without re-reading, the checkpoint hides it
      depth(5);
      await runIndexer();
      expect(await rowOf(replacement.token)).toMatchObject({ name: "Replacement", block_number: replacement.block });

      // The reorged-out deployment lands again a block later: its row gets the new block and transaction.
      const again = await deployDirect(c, "Original");
      expect(again.token).toBe(original.token);
      await runIndexer();
      expect(await rowOf(again.token)).toMatchObject({ tx_hash: again.hash, block_number: again.block });
    } finally {
      delete process.env.TOKEN_INDEX_REORG_DEPTH;
      resetConfig();
    }
  });

  it("starts at TOKEN_INDEX_START_BLOCK_<chainId> without a checkpoint (else TOKEN_INDEX_START_BLOCK); lookups stop there too", async () => {
    const c = chain();
    const setStart = (perChain: number | undefined, global: number | undefined) => {
      for (const [name, value] of [
        ["TOKEN_INDEX_START_BLOCK_8453", perChain],
        ["TOKEN_INDEX_START_BLOCK", global],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = String(value);
      }
      resetConfig();
    };
    try {
      const before = await deployDirect(c, "Before start");
      const after = await deployDirect(c, "After start");
      setStart(after.block, 0);
      const [run] = await followTokenCreated(8453);
      expect(run).toMatchObject({ fromBlock: after.block, tokens: 1 });
      expect(await rowOf(before.token)).toBeUndefined();
      expect((await rowOf(after.token))?.block_number).toBe(after.block);
      expect(await indexTokenByAddress(8453, before.token)).toEqual({ status: "not_found" }); // below the floor

      // Without the per-chain variable the global one applies; with a checkpoint the start is only a floor.
      await db().deleteFrom("chain_checkpoints").execute();
      setStart(undefined, before.block);
      expect((await followTokenCreated(8453))[0]).toMatchObject({ fromBlock: before.block, tokens: 2 });
      setStart(1, undefined);
      const head = Number(await c.publicClient.getBlockNumber());
      expect((await followTokenCreated(8453))[0]?.fromBlock).toBe(Math.max(1, head + 1 - 12));
    } finally {
      setStart(undefined, undefined);
    }
  });

  it("reads a range's deploying calls all at once, and each block's time and each call once (two in a block)", async () => {
    const c = chain();
    const deployed: Array<{ token: Address; config: DeploymentConfig }> = [];
    for (let i = 0; i < 8; i++) deployed.push(await deployDirect(c, `Batch ${i}`));
    // Two more in one block: its time is read once for both.
    await c.provider.request({ method: "evm_setAutomine", params: [false] } as never);
    try {
      for (const label of ["Batch 8", "Batch 9"]) {
        const { token, config, wallet } = await predictDirect(c, label);
        await wallet.writeContract({
          address: c.contracts.factory,
          abi: tokenFactoryAbi,
          functionName: "deployToken",
          args: [config],
        });
        deployed.push({ token: token as Address, config });
      }
      await c.provider.request({ method: "evm_mine" } as never);
    } finally {
      await c.provider.request({ method: "evm_setAutomine", params: [true] } as never);
    }
    const reads = new Map<string, number>();
    let inFlight = 0;
    let most = 0;
    const timed = new Set(["eth_getBlockByNumber", "eth_getTransactionByBlockHashAndIndex"]);
    setChainTransport(
      8453,
      custom(
        {
          async request(args: { method: string; params?: unknown[] }) {
            if (!timed.has(args.method)) return c.provider.request(args as never);
            const key = `${args.method} ${JSON.stringify(args.params?.slice(0, 2))}`;
            reads.set(key, (reads.get(key) ?? 0) + 1);
            const call = args.method === "eth_getTransactionByBlockHashAndIndex";
            if (call) most = Math.max(most, ++inFlight);
            try {
              await new Promise((resolve) => setTimeout(resolve, 20)); // a remote node's round trip
              return await c.provider.request(args as never);
            } finally {
              if (call) inFlight -= 1;
            }
          },
        },
        { retryCount: 0 },
      ),
    );
    resetChainClients();
    try {
      const [run] = await followTokenCreated(8453);
      expect(run?.tokens).toBe(10);
    } finally {
      setChainTransport(8453, custom(c.provider, { retryCount: 0 }));
      resetChainClients();
    }
    for (const d of deployed) expect((await rowOf(d.token))?.extensions).toEqual(extensionsOf(d.config));
    const calls = [...reads].filter(([key]) => key.startsWith("eth_getTransactionByBlockHashAndIndex"));
    expect(calls).toHaveLength(10);
    expect([...reads].filter(([key]) => key.startsWith("eth_getBlockByNumber"))).toHaveLength(9);
    expect([...reads.values()].every((n) => n === 1)).toBe(true);
    expect(most).toBe(10);
  });
});

const indexCall = (address: string, ip = "10.0.0.1") =>
  call(indexByAddress, "/api/tokens/index-by-address", { body: { address }, headers: { "x-forwarded-for": ip } });

describe("reading the deployments of tokens indexed without them (npm run tokens -- read-deployments)", () => {
  it("indexes each again from its TokenCreated block, in id order, a limit at a time, and says where to go on", async () => {
    const c = chain();
    const a = await deployDirect(c, "Read A");
    const b = await deployDirect(c, "Read B");
    const other = await deployDirect(c, "Read C");
    await runIndexer();
    // As indexed before the deploying call was read: the hook alone, or nothing.
    const hookOnly = { fees: { hook_address: getAddress(a.config.poolConfig.hook) } };
    await db()
      .updateTable("tokens")
      .set({ extensions: JSON.stringify(hookOnly) })
      .execute();
    await db()
      .updateTable("tokens")
      .set({ extensions: null })
      .where("contract_address", "=", b.token.toLowerCase())
      .execute();
    // A factory this service does not index: nothing is read for it.
    await db()
      .updateTable("tokens")
      .set({ factory_address: `0x${"f".repeat(40)}` })
      .where("contract_address", "=", other.token.toLowerCase())
      .execute();
    const ids = await Promise.all([a, b, other].map(async (d) => (await rowOf(d.token))!.id));

    const reads: DeploymentRead[] = [];
    const first = await readUnreadDeployments({ limit: 1, onRead: (r) => reads.push(r) });
    expect(first).toEqual({ read: 1, next: ids[1] });
    const rest = await readUnreadDeployments({ fromId: first.next!, limit: 10, onRead: (r) => reads.push(r) });
    expect(rest).toEqual({ read: 2, next: null });
    expect(reads).toEqual([
      { id: ids[0], chainId: 8453, address: a.token.toLowerCase(), found: "split" },
      { id: ids[1], chainId: 8453, address: b.token.toLowerCase(), found: "split" },
      { id: ids[2], chainId: 8453, address: other.token.toLowerCase(), found: "not_found" },
    ]);
    expect((await rowOf(a.token))?.extensions).toEqual(extensionsOf(a.config));
    expect((await rowOf(b.token))?.extensions).toEqual(extensionsOf(b.config));
    // Read: the next run finds only the token it cannot read; another chain's tokens are not this run's, and without
    // --chain only reachable chains' are read (no RPC for 84532 here).
    expect(await readUnreadDeployments({ limit: 10 })).toEqual({ read: 1, next: null });
    expect(await readUnreadDeployments({ chainId: 84532, limit: 10 })).toEqual({ read: 0, next: null });
    await db()
      .updateTable("tokens")
      .set({ chain_id: 84532 })
      .where("contract_address", "=", other.token.toLowerCase())
      .execute();
    expect(await readUnreadDeployments({ limit: 10 })).toEqual({ read: 0, next: null });
  });

  it("stops at the first token of a batch whose chain read fails, and says so", async () => {
    const c = chain();
    const a = await deployDirect(c, "Fail A");
    await runIndexer();
    await db().updateTable("tokens").set({ extensions: null }).execute();
    const failing = custom(
      {
        async request(args: { method: string; params?: unknown[] }) {
          if (args.method === "eth_getLogs") throw new Error("node unavailable");
          return c.provider.request(args as never);
        },
      },
      { retryCount: 0 },
    );
    setChainTransport(8453, failing);
    resetChainClients();
    try {
      const stopped = await readUnreadDeployments({ limit: 10 }).catch((error) => error);
      expect(stopped).toBeInstanceOf(DeploymentReadStopped);
      expect(stopped.resumeFrom).toBe((await rowOf(a.token))!.id);
    } finally {
      setChainTransport(8453, custom(c.provider, { retryCount: 0 }));
      resetChainClients();
    }
    expect((await rowOf(a.token))?.extensions).toBeNull();
  });
});

describe("POST /api/tokens/index-by-address", () => {
  it("finds the TokenCreated log by the token's topic, upserts the token, and answers { success, address, message }", async () => {
    const c = chain();
    const { token, hash, config } = await deployDirect(c, "By Address");
    const res = await indexCall(token.toLowerCase());
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      success: true,
      address: getAddress(token),
      message: "Token indexed successfully",
      url: expect.stringMatching(/\/tokens\/0x/),
    });
    expect(await rowOf(token)).toMatchObject({ name: "By Address", tx_hash: hash, extensions: extensionsOf(config) });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("1 search per hour per address and IP, 5 per minute per IP; no TokenCreated is 404; bad input is 400", async () => {
    freezeDate();
    const unknown = (i: number) => `0x${String(i).padStart(40, "0")}`;
    expectError(await indexCall(unknown(1), "10.0.0.4"), 404, "not_found");
    expectError(await indexCall(unknown(1), "10.0.0.4"), 429, "rate_limited");
    expectError(await indexCall(unknown(1), "10.0.0.5"), 404, "not_found"); // another client's search
    for (let i = 2; i <= 4; i++) expect((await indexCall(unknown(i), "10.0.0.4")).status).toBe(404);
    expectError(await indexCall(unknown(6), "10.0.0.4"), 429, "rate_limited");
    expectError(await indexCall("0x123", "10.0.0.6"), 400, "invalid_request");
  });

  it("a token with a known transaction is indexed again without counting a search", async () => {
    const c = chain();
    const { token } = await deployDirect(c, "Known");
    expect((await indexCall(token, "10.0.0.2")).status).toBe(200); // a search
    for (let i = 0; i < 3; i++) expect((await indexCall(token, "10.0.0.2")).status).toBe(200); // its receipt
    expect((await indexCall(token, "10.0.0.3")).status).toBe(200);
  });

  it("asking for a token's address before it is deployed does not stop its creator indexing it", async () => {
    const c = chain();
    const { token } = await predictDirect(c, "Front-run");
    expectError(await indexCall(token, "10.0.0.7"), 404, "not_found"); // the attacker, before the deployment
    await deployDirect(c, "Front-run");
    expect((await indexCall(token, "10.0.0.8")).status).toBe(200);
    expect(await rowOf(token)).toMatchObject({ name: "Front-run" });
  });
});

const fromUiCall = (body: unknown, headers: Record<string, string> = {}) =>
  call(fromUi, "/api/tokens/save-deployed-token/from-ui", {
    body,
    headers: { "x-forwarded-for": "10.1.0.1", ...headers },
  });

describe("POST /api/tokens/save-deployed-token/from-ui", () => {
  it("without a user token: only enqueues indexing (nothing saved), the job indexes the token", async () => {
    const c = chain();
    const { token, hash } = await deployDirect(c, "Anonymous UI");
    const res = await fromUiCall({ address: token, tx_hash: hash, chain_id: 8453 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      success: true,
      tokenAddress: getAddress(token),
      url: `http://localhost:3000/tokens/${getAddress(token)}`,
    });
    expect(await db().selectFrom("token_submissions").select("id").execute()).toHaveLength(0);
    expect(await rowOf(token)).toBeUndefined();
    expect(await runDueJobs(jobs)).toMatchObject([{ status: "done" }]);
    expect(await rowOf(token)).toMatchObject({ name: "Anonymous UI", tx_hash: hash, requestor_fid: null });
  });

  it("with a user token: saves the submission attributed to the user; the token carries the fid of a user holding its deployer", async () => {
    const c = chain();
    await db().deleteFrom("users").where("fid", "in", [42, 43]).execute();
    // fid 42 holds the deploying wallet (account 4); fid 43 holds nothing of this token.
    await db()
      .insertInto("users")
      .values([
        { fid: 42, verified_addresses: [c.accounts[4]!.toLowerCase()], profile: "{}" },
        { fid: 43, verified_addresses: [], profile: "{}" },
      ])
      .execute();
    const { token, hash } = await deployDirect(c, "Signed UI");
    const res = await fromUiCall(
      { address: token, tx_hash: hash, chain_id: "8453" },
      { authorization: `Bearer ${await issuer.token(42)}` },
    );
    expect(res.status, res.text).toBe(200);
    expect(await db().selectFrom("token_submissions").selectAll().execute()).toMatchObject([
      { address: token.toLowerCase(), tx_hash: hash, user_id: "fid:42", fid: 42, chain_id: 8453 },
    ]);
    await runDueJobs(jobs);
    expect((await rowOf(token))?.requestor_fid).toBe(42);

    const other = await deployDirect(c, "Claimed By A Stranger");
    expect(
      (
        await fromUiCall(
          { address: other.token, tx_hash: other.hash, chain_id: 8453 },
          { authorization: `Bearer ${await issuer.token(43)}` },
        )
      ).status,
    ).toBe(200);
    await runDueJobs(jobs);
    expect(await rowOf(other.token)).toMatchObject({ name: "Claimed By A Stranger", requestor_fid: null });
    expect(
      await db()
        .selectFrom("token_submissions")
        .select("user_id")
        .where("address", "=", other.token.toLowerCase())
        .execute(),
    ).toEqual([{ user_id: "fid:43" }]);
  });

  it("an invalid user token counts as none; bad hashes and chains not indexed here are 400", async () => {
    const c = chain();
    const { token, hash } = await deployDirect(c, "Bad Token UI");
    expect(
      (await fromUiCall({ address: token, tx_hash: hash, chain_id: 8453 }, { authorization: "Bearer not.a.jwt" }))
        .status,
    ).toBe(200);
    expect(await db().selectFrom("token_submissions").select("id").execute()).toHaveLength(0);
    expectError(await fromUiCall({ address: token, tx_hash: "0x12", chain_id: 8453 }), 400, "invalid_request");
    expectError(await fromUiCall({ address: token, tx_hash: hash, chain_id: 1 }), 400, "invalid_request");
    expectError(await fromUiCall({ address: token, tx_hash: hash }), 400, "invalid_request");
  });

  it("a transaction without that token's TokenCreated falls back to the address, a wrong hash does not index another token", async () => {
    const c = chain();
    const first = await deployDirect(c, "First");
    const second = await deployDirect(c, "Second");
    await fromUiCall({ address: second.token, tx_hash: first.hash as Hash, chain_id: 8453 });
    await runDueJobs(jobs);
    expect(await rowOf(first.token)).toBeUndefined();
    expect(await rowOf(second.token)).toMatchObject({ name: "Second", tx_hash: second.hash });
  });

  it("its searches of the logs count per asker: past 5 a minute its jobs do not search, another asker's do", async () => {
    freezeDate();
    const c = chain();
    const mined = await deployDirect(c, "Mined");
    const unknown = (i: number) => `0x${String(i).padStart(40, "7")}`;
    const ask = (address: string, ip: string, tx_hash: Hash = mined.hash) =>
      fromUiCall({ address, tx_hash, chain_id: 8453 }, { "x-forwarded-for": ip });
    for (let i = 1; i <= 5; i++) expect((await ask(unknown(i), "10.1.0.9")).status).toBe(200);
    await runDueJobs(jobs); // five searches that find nothing
    const later = await deployDirect(c, "Later");
    await ask(later.token, "10.1.0.9"); // its transaction is the other token's: a search would find it
    await runDueJobs(jobs);
    expect(await rowOf(later.token)).toBeUndefined();
    await ask(later.token, "10.1.0.10", (await deployDirect(c, "Other")).hash); // another job (not the same request)
    await runDueJobs(jobs);
    expect(await rowOf(later.token)).toMatchObject({ name: "Later", tx_hash: later.hash });
  });
});
