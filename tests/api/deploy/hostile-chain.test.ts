// The chain is hostile input: tokens planted straight at the factory (and logs from a contract the service indexes)
// with every kind of hostile text, size and encoding. The indexer keeps moving, stores them cleaned or sets them aside
// with their reason, a mined deployment is never reported failed, and no route answers 5xx for any of them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import type { Address } from "viem";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { enqueue } from "@/lib/platform/jobs/define";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { followTokenCreatedJob } from "@/lib/domains/launch/indexer/jobs";
import { tokenIndexCheckpoint } from "@/lib/domains/launch/indexer/follow";
import { retryQuarantinedTokenEvents } from "@/lib/domains/launch/indexer/quarantine";
import { GET as tokenByAddress } from "@/app/api/get-token-by-address/route";
import { GET as tokensList } from "@/app/api/tokens/route";
import { POST as indexByAddress } from "@/app/api/tokens/index-by-address/route";
import { GET as health } from "@/app/api/health/route";
import { GET as quarantined } from "@/app/api/admin/quarantined-events/route";
import { useTestChain, type TestChain } from "@/tests/helpers/chain";
import {
  deployDirect,
  deployLogger,
  emit,
  plantedAddress,
  plantedData,
  plantHostileLogs,
  POISON,
} from "@/tests/helpers/hostile-chain";
import { authMatrix, partnerKey, startIssuer, type Issuer } from "@/tests/helpers/auth";
import { call, expectError } from "@/tests/helpers/http";
import { deploy, drainJobs, key, status, v4Body } from "./helpers";

const chain = useTestChain();
let issuer: Issuer;
let acme: string;

beforeAll(async () => {
  issuer = await startIssuer();
  acme = await partnerKey("hostile-chain");
});
afterAll(() => issuer.close());
beforeEach(async () => {
  const tables = ["tokens", "jobs", "chain_checkpoints", "quarantined_events", "deploy_requests", "deploy_quota"];
  for (const table of tables) await sql`DELETE FROM ${sql.table(table)}`.execute(db());
  delete process.env.TOKEN_INDEX_EXTRA_FACTORIES;
  resetConfig();
});

async function runIndexer() {
  await enqueue(followTokenCreatedJob, { chainId: 8453 });
  const outcomes = await runDueJobs(jobs);
  expect(outcomes.map((o) => [o.status, o.error ?? null])).toEqual([["done", null]]);
}
const rowOf = (token: string) =>
  db().selectFrom("tokens").selectAll().where("contract_address", "=", token.toLowerCase()).executeTakeFirst();
const quarantine = () => db().selectFrom("quarantined_events").selectAll().orderBy("id").execute();
const head = async (c: TestChain) => Number(await c.publicClient.getBlockNumber());

let askers = 0;

/** No route answers 5xx for the token: its lookup, the list, a search by its name, and indexing it by address. */
async function expectServed(token: Address, name: string) {
  const byAddress = await call(tokenByAddress, `/api/get-token-by-address?address=${token}`, {
    headers: { "x-api-key": acme },
  });
  expect(byAddress.status, byAddress.text).toBe(200);
  const q = encodeURIComponent(name.slice(0, 50));
  for (const path of ["/api/tokens", `/api/tokens?q=${q}`]) {
    const list = await call(tokensList, path);
    expect(list.status, list.text).toBe(200);
  }
  const indexed = await call(indexByAddress, "/api/tokens/index-by-address", {
    body: { address: token },
    headers: { "x-forwarded-for": `198.51.100.${++askers}` }, // index-by-address allows a client 5 a minute
  });
  expect(indexed.status, indexed.text).toBe(200);
}

describe("tokens planted straight at the factory", () => {
  it("a lone surrogate, controls and bidi text: stored cleaned, the next tokens indexed in the same run", async () => {
    const c = chain();
    const before = await deployDirect(c, "Before");
    // Plain ASCII on chain: JSON escapes of lone surrogates, high and low, in metadata and context.
    const poison = await deployDirect(c, POISON.name, POISON);
    const internal = await deployDirect(c, "Internal", { image: "http://169.254.169.254/latest/meta-data" });
    const after = await deployDirect(c, "After");
    await runIndexer();

    for (const token of [before, poison, internal, after]) expect(await rowOf(token), token).toBeDefined();
    expect(await tokenIndexCheckpoint(8453, c.contracts.factory)).toBe(await head(c));
    expect(await quarantine()).toEqual([]);
    const row = (await rowOf(poison))!;
    expect(row).toMatchObject({
      name: "Poison\u202eevil\u200d", // controls removed; bidi and zero-width kept (the explorer isolates them)
      symbol: "POIS",
      img_url: null,
      requestor_fid: 12,
      cast_hash: "0x\ufffd",
      metadata: {
        description: "Fr\ufffdog",
        socialMediaUrls: [{ platform: "x\ufffd", url: "https://x.com/p" }],
        auditUrls: ["https://audit.example/\ufffd"],
      },
      social_context: { interface: "bot\ufffd", platform: "farcaster", messageId: "0x\ufffd", id: "12" },
    });
    // Stored as sent: the explorer loads images through the service's proxy, which refuses internal addresses.
    expect((await rowOf(internal))!.img_url).toBe("http://169.254.169.254/latest/meta-data");
    await expectServed(poison, row.name);
  });

  it("a token whose row the database refuses is set aside with its reason, and indexed by a retry after the fix", async () => {
    const c = chain();
    // A refusal the text rules cannot prevent (a constraint added here plays any future one).
    await sql`ALTER TABLE tokens ADD CONSTRAINT hostile_refusal CHECK (name <> 'Refused')`.execute(db());
    try {
      const a = await deployDirect(c, "Kept A");
      const refused = await deployDirect(c, "Refused");
      const b = await deployDirect(c, "Kept B");
      await runIndexer();
      expect(await rowOf(a)).toBeDefined();
      expect(await rowOf(b)).toBeDefined();
      expect(await rowOf(refused)).toBeUndefined();
      expect(await tokenIndexCheckpoint(8453, c.contracts.factory)).toBe(await head(c));
      const [set] = await quarantine();
      expect(set).toMatchObject({
        stream: "token-created",
        chain_id: 8453,
        address: c.contracts.factory.toLowerCase(),
        reason: "unstorable",
        attempts: 1,
        resolved_at: null,
      });
      expect(set!.first_error).toMatch(/hostile_refusal/);
      const checked = await call(health, "/api/health");
      expect(checked.body.quarantinedEvents).toBe(1);

      // A retry before the fix: still refused, counted.
      const results: string[] = [];
      await retryQuarantinedTokenEvents({ limit: 10, onResult: (_, r) => results.push(r) });
      expect(results).toEqual(["refused"]);
      expect((await quarantine())[0]!.attempts).toBe(2);
    } finally {
      await sql`ALTER TABLE tokens DROP CONSTRAINT IF EXISTS hostile_refusal`.execute(db());
    }
    const results: string[] = [];
    await retryQuarantinedTokenEvents({ limit: 10, onResult: (_, r) => results.push(r) });
    expect(results).toEqual(["indexed"]);
    expect((await quarantine())[0]!.resolved_at).not.toBeNull();
    expect((await call(health, "/api/health")).body.quarantinedEvents).toBe(0);
  });
});

describe("hostile logs from a contract the service indexes", () => {
  it("undecodable, invalid UTF-8, megabyte text, deep JSON, huge lists, extreme ticks and a replay", async () => {
    const c = chain();
    const logger = await deployLogger(c);
    process.env.TOKEN_INDEX_EXTRA_FACTORIES = `8453:${logger}`;
    resetConfig();
    const first = await deployDirect(c, "First");
    const planted = await plantHostileLogs(c, logger);
    const last = await deployDirect(c, "Last");
    await runIndexer();

    expect(await rowOf(first)).toBeDefined();
    expect(await rowOf(last)).toBeDefined();
    expect(await tokenIndexCheckpoint(8453, logger)).toBe(await head(c));
    expect(await tokenIndexCheckpoint(8453, c.contracts.factory)).toBe(await head(c));
    const [undecodable, ...others] = await quarantine();
    expect(others).toEqual([]);
    expect(undecodable).toMatchObject({ reason: "undecodable", address: logger.toLowerCase(), resolved_at: null });
    expect(await rowOf(planted.undecodable)).toBeUndefined();

    const utf8 = (await rowOf(planted.utf8))!;
    expect(utf8.name).toBe("AB\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd"); // each invalid byte a replacement character
    expect((await rowOf(planted.bigName))!.name).toHaveLength(256);
    expect((await rowOf(planted.bigMetadata))!.metadata).toEqual({
      description: "",
      socialMediaUrls: [],
      auditUrls: [],
    });
    const deepRow = (await rowOf(planted.deep))!; // its second event: 5,000 links, 50 kept
    expect(deepRow.metadata.socialMediaUrls).toHaveLength(50);
    expect((await rowOf(planted.manyLinks))!.metadata.socialMediaUrls).toEqual([]); // over the JSON bound: not read
    for (const token of [planted.maxTick, planted.minTick]) {
      expect(await rowOf(token)).toMatchObject({ starting_market_cap: null, warnings: ["UNUSUAL_TICK"] });
    }
    const replayed = await db()
      .selectFrom("tokens")
      .select("name")
      .where("contract_address", "=", planted.replay.toLowerCase())
      .execute();
    expect(replayed).toEqual([{ name: "Replayed" }]);
    for (const [label, token] of Object.entries(planted)) {
      if (label === "undecodable") continue;
      await expectServed(token, (await rowOf(token))!.name);
    }

    // Operators see it, and a retry finds it as undecodable as before.
    const admin = { authorization: `Bearer ${await issuer.token(1)}` };
    const listed = await call(quarantined, "/api/admin/quarantined-events", { headers: admin });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.events).toMatchObject([
      { reason: "undecodable", address: logger, blockNumber: Number(undecodable!.block_number), attempts: 1 },
    ]);
    const results: string[] = [];
    await retryQuarantinedTokenEvents({ limit: 10, onResult: (_, r) => results.push(r) });
    expect(results).toEqual(["undecodable"]);
  }, 60_000);

  it("the same topic from a contract that is not an indexed factory is never indexed", async () => {
    const c = chain();
    const logger = await deployLogger(c);
    const stray = plantedAddress(20);
    await emit(c, logger, stray, plantedData(c, { token: stray }));
    await runIndexer();
    expect(await rowOf(stray)).toBeUndefined();
    expect(await quarantine()).toEqual([]);
  });
});

describe("a deployment through the service", () => {
  it("mined but its token row refused: deployed with its transaction, the event set aside, a retry the same", async () => {
    const c = chain();
    await sql`ALTER TABLE tokens ADD CONSTRAINT hostile_refusal CHECK (name <> 'Refused')`.execute(db());
    try {
      const body = v4Body(c, key("refused"));
      body.token.name = "Refused";
      const first = await deploy(acme, body);
      expect(first.status, first.text).toBe(200);
      await drainJobs();
      const answer = await status(acme, key("refused"));
      expect(answer.body).toMatchObject({ status: "deployed", expectedAddress: first.body.expectedAddress });
      expect(answer.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await quarantine()).toMatchObject([{ reason: "unstorable", tx_hash: answer.body.txHash }]);
      const again = await deploy(acme, body);
      expect(again.body.expectedAddress).toBe(first.body.expectedAddress);
      expect((await status(acme, key("refused"))).body.status).toBe("deployed");
    } finally {
      await sql`ALTER TABLE tokens DROP CONSTRAINT IF EXISTS hostile_refusal`.execute(db());
    }
  });

  it("a lone surrogate in a deploy body is a 400 naming the member, and nothing is written", async () => {
    const c = chain();
    const body = v4Body(c, key("surrogate"), {});
    const text = JSON.stringify(body).replace('"name":"Four"', '"name":"Fr\\ud800og"');
    const refused = await deploy(acme, text);
    expect(refused.status, refused.text).toBe(400);
    expect(expectError(refused, 400, "invalid_request").error).toBe(
      "token.name: holds a lone surrogate: text must be well-formed Unicode",
    );
    expect(await db().selectFrom("deploy_requests").select("id").execute()).toEqual([]);
  });
});

describe("GET /api/admin/quarantined-events", () => {
  authMatrix(
    "admin",
    (headers) => call(quarantined, "/api/admin/quarantined-events", { headers }),
    () => issuer,
  );
});
