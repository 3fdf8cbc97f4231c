// Pretokens: create (validated and simulated on the in-process chain), list pending, soft delete; ownership
// and the auth matrix on every route.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { decodeAbiParameters, getAddress, type Hex } from "viem";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { configFromJson } from "@/lib/domains/launch/deploy/stored";
import { POST as createPost } from "@/app/api/pretoken/v4/route";
import { GET as pendingGet } from "@/app/api/pretoken/pending/route";
import { DELETE as deleteRoute } from "@/app/api/pretoken/[id]/route";
import { useTestChain, type TestChain } from "@/tests/helpers/chain";
import { authMatrix, startIssuer, type Issuer } from "@/tests/helpers/auth";
import { call, expectError } from "@/tests/helpers/http";
import { freezeDate } from "@/tests/helpers/clock";
import { interceptChain } from "@/tests/api/deploy/helpers";

const chain = useTestChain();
let issuer: Issuer;
const auth = async (fid: number) => ({ authorization: `Bearer ${await issuer.token(fid)}` });

beforeAll(async () => {
  issuer = await startIssuer();
  // The other tests create more than the per-user limit allows in a minute; the limit has its own test.
  process.env.PRETOKEN_CREATES_PER_MINUTE = "10000";
  resetConfig();
});
afterAll(() => {
  delete process.env.PRETOKEN_CREATES_PER_MINUTE;
  resetConfig();
  issuer.close();
});
beforeEach(async () => {
  await db().deleteFrom("pretokens").execute();
});
let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

function body(c: TestChain, extra: Record<string, unknown> = {}) {
  return {
    keyword: "launch",
    chain_id: 8453,
    token_settings: {
      name: "Pre",
      symbol: "PRE",
      image_url: "https://example.com/pre.png",
      description: "pending",
      admins: [{ admin: c.accounts[2], recipient: c.accounts[2], allocation: 100 }],
      pool_config_type: "standard",
      starting_market_cap: 15,
      fee_config_type: "dynamic",
      metadata: { socialMediaUrls: ["https://x.com/pre"] },
      social_context: { interface: "app", platform: "farcaster", messageId: "0x1", id: 42 },
    },
    vault_settings: { percentage: 20, lockup_duration: 604_800, vesting_duration: 3_600 },
    airdrop: { merkle_root: `0x${"ab".repeat(32)}`, percentage: 10, lockup_duration: 86_400 },
    ...extra,
  };
}

const create = async (payload: unknown, fid = 42) =>
  call(createPost, "/api/pretoken/v4", { body: payload, headers: await auth(fid) });
const pending = async (fid = 42) => call(pendingGet, "/api/pretoken/pending", { headers: await auth(fid) });
const remove = async (id: string, fid = 42) =>
  call(deleteRoute, `/api/pretoken/${id}`, { method: "DELETE", params: { id }, headers: await auth(fid) });

describe("POST /api/pretoken/v4", () => {
  it("refuses a lone surrogate in token_settings with a 400 naming the member, and stores nothing", async () => {
    const c = chain();
    const payload = body(c);
    payload.token_settings.name = "Fr\ud800og";
    const res = await create(payload);
    expect(res.status, res.text).toBe(400);
    expect(expectError(res, 400, "invalid_request").error).toBe(
      "token_settings.name: holds a lone surrogate: text must be well-formed Unicode",
    );
    expect(await db().selectFrom("pretokens").select("id").execute()).toEqual([]);
  });

  it("validates, simulates and stores the settings owned by the caller; the stored call maps every member", async () => {
    const c = chain();
    const res = await create(body(c));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      success: true,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      expectedAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    });
    const row = await db().selectFrom("pretokens").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: "fid:42", fid: 42, keyword: "launch", chain_id: 8453, deleted_at: null });
    const config = configFromJson(row.deployment_config);
    expect(config.tokenConfig).toMatchObject({
      tokenAdmin: c.accounts[2],
      name: "Pre",
      symbol: "PRE",
      image: "https://example.com/pre.png",
    });
    expect(JSON.parse(config.tokenConfig.metadata)).toEqual({
      description: "pending",
      socialMediaUrls: [{ platform: "x", url: "https://x.com/pre" }],
      auditUrls: [],
    });
    expect(JSON.parse(config.tokenConfig.context)).toEqual({
      interface: "app",
      platform: "farcaster",
      messageId: "0x1",
      id: "42",
    });
    expect(config.poolConfig.hook).toBe(c.contracts.dynamicFeeHook);
    expect(config.poolConfig.tickIfToken0IsClanker).toBe(-226_400);
    expect(config.extensionConfigs.map((e) => [e.extension, e.extensionBps])).toEqual([
      [c.contracts.vault, 2_000],
      [c.contracts.airdrop, 1_000],
    ]);
    expect(
      decodeAbiParameters(
        [{ type: "address" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint256" }],
        config.extensionConfigs[1]!.extensionData as Hex,
      ),
    ).toEqual([c.accounts[2], `0x${"ab".repeat(32)}`, 86_400n, 0n]);
  });

  it('takes image_url "" as no image and paired_token "WETH" as the chain\'s WETH, as the SDK spells them', async () => {
    const c = chain();
    const settings = body(c).token_settings;
    const res = await create(body(c, { token_settings: { ...settings, image_url: "", paired_token: "WETH" } }));
    expect(res.status, res.text).toBe(200);
    const row = await db().selectFrom("pretokens").selectAll().executeTakeFirstOrThrow();
    const config = configFromJson(row.deployment_config);
    expect(config.tokenConfig.image).toBe("");
    expect(config.poolConfig.pairedToken).toBe(c.contracts.weth);
    const { starting_market_cap: _, ...project } = { ...settings, pool_config_type: "project", paired_token: "weth" };
    const res2 = await create(body(c, { keyword: "project", token_settings: project }));
    expect(res2.status, res2.text).toBe(200); // a project pool pairs with WETH: naming it is no violation
  });

  it("lists every violation in one 400", async () => {
    const c = chain();
    const bad = body(c, {
      keyword: "",
      chain_id: 1,
      vault_settings: { percentage: 60, lockup_duration: 10 },
      airdrop: { merkle_root: "0x12", percentage: 40, lockup_duration: 86_400 },
    });
    (bad.token_settings as Record<string, unknown>).admins = [
      { admin: c.accounts[2], recipient: c.accounts[2], allocation: 70 },
    ];
    (bad.token_settings as Record<string, unknown>).fee_config_type = "both";
    (bad.token_settings as Record<string, unknown>).metadata = { description: "twice" };
    const error = expectError(await create(bad), 400, "invalid_request");
    expect((error.details as { path: string }[]).map((d) => d.path).sort()).toEqual(
      [
        "keyword",
        "chain_id",
        "vault_settings.lockup_duration",
        "airdrop.merkle_root",
        "airdrop.percentage",
        "token_settings.admins",
        "token_settings.fee_config_type",
        "token_settings.metadata.description",
      ].sort(),
    );
    expect(await db().selectFrom("pretokens").select("id").execute()).toHaveLength(0);
  });

  it("an unknown member is a 400 naming it, nothing stored: a stored configuration keeps all its owner sent", async () => {
    const c = chain();
    const bad = body(c, { vault_settings: { percentage: 10, lockup_duration: 604_800, recipient: c.accounts[3] } });
    (bad.token_settings as Record<string, unknown>).clankerFee = 2;
    const error = expectError(await create(bad), 400, "invalid_request");
    expect(error.error).toMatch(/token_settings: Unrecognized key: "clankerFee"/);
    expect(error.details).toContainEqual(expect.objectContaining({ path: "vault_settings" }));
    expect(JSON.stringify(error.details)).toContain("recipient");
    expect(await db().selectFrom("pretokens").select("id").execute()).toHaveLength(0);
  });

  it("a deployment the factory would reject is 422 with its reason, nothing stored", async () => {
    const c = chain();
    const zero = "0x0000000000000000000000000000000000000000";
    const bad = body(c);
    (bad.token_settings as Record<string, unknown>).admins = [{ admin: zero, recipient: zero, allocation: 100 }];
    const error = expectError(await create(bad), 422, "unprocessable");
    expect(error.error).toMatch(/ZeroTokenAdmin|ZeroRewardAddress/);
    expect(await db().selectFrom("pretokens").select("id").execute()).toHaveLength(0);
  });

  it("at most PRETOKEN_MAX_PENDING pending per user: one more is 409", async () => {
    process.env.PRETOKEN_MAX_PENDING = "2";
    resetConfig();
    try {
      const c = chain();
      expect((await create(body(c))).status).toBe(200);
      expect((await create(body(c))).status).toBe(200);
      expectError(await create(body(c)), 409, "conflict");
      expect((await create(body(c), 43)).status).toBe(200);
    } finally {
      delete process.env.PRETOKEN_MAX_PENDING;
      resetConfig();
    }
  });

  it("the cap holds under concurrent creates: exactly PRETOKEN_MAX_PENDING succeed, the rest are 409", async () => {
    process.env.PRETOKEN_MAX_PENDING = "2";
    resetConfig();
    try {
      const c = chain();
      // Every simulation is held until all six are waiting, so all six then count and insert at once.
      const held: Array<() => void> = [];
      restore = interceptChain(c, async (method, forward) => {
        if (method === "eth_call") {
          await new Promise<void>((release) => {
            held.push(release);
            if (held.length === 6) for (const r of held) r();
          });
        }
        return forward();
      });
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => create(body(c, { keyword: `race-${i}` }))));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 409, 409, 409, 409]);
      expect(await db().selectFrom("pretokens").select("id").execute()).toHaveLength(2);
    } finally {
      delete process.env.PRETOKEN_MAX_PENDING;
      resetConfig();
    }
  });
});

describe("POST /api/pretoken/v4: per-user rate limit", () => {
  afterEach(() => {
    process.env.PRETOKEN_CREATES_PER_MINUTE = "10000";
    resetConfig();
  });

  it("PRETOKEN_CREATES_PER_MINUTE creates per user, then 429 with Retry-After before any simulation; another user is not affected", async () => {
    freezeDate();
    process.env.PRETOKEN_CREATES_PER_MINUTE = "3";
    resetConfig();
    const c = chain();
    let simulations = 0;
    restore = interceptChain(c, async (method, forward) => {
      if (method === "eth_call") simulations++;
      return forward();
    });
    const first = await create(body(c), 901);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("3");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("2");
    expect((await create(body(c, { keyword: "second" }), 901)).status).toBe(200);
    // An invalid body counts too: the limit is checked before the body is validated.
    expectError(await create({ keyword: "" }, 901), 400, "invalid_request");
    const before = simulations;
    expect(before).toBeGreaterThan(0);

    const refused = await create(body(c), 901);
    expectError(refused, 429, "rate_limited");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(simulations).toBe(before);
    expect(await db().selectFrom("pretokens").select("id").where("fid", "=", 901).execute()).toHaveLength(2);

    const other = await create(body(c), 902);
    expect(other.status, other.text).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("2");
  });
});

describe("GET /api/pretoken/pending and DELETE /api/pretoken/{id}", () => {
  it("lists only the caller's pretokens of the last 7 days that are not deleted; deleting is the owner's alone", async () => {
    const c = chain();
    const mine = (await create(body(c))).body.id as string;
    const old = (await create(body(c, { keyword: "old" }))).body.id as string;
    const theirs = (await create(body(c, { keyword: "theirs" }), 77)).body.id as string;
    await db()
      .updateTable("pretokens")
      .set({ created_at: sql`now() - interval '8 days'` })
      .where("id", "=", old)
      .execute();

    const list = await pending();
    expect(list.status, list.text).toBe(200);
    expect(list.body.pendingPretokens.map((p: { id: string }) => p.id)).toEqual([mine]);
    expect(list.body.pendingPretokens[0]).toMatchObject({
      keyword: "launch",
      chain_id: 8453,
      token_settings: { name: "Pre", symbol: "PRE" },
      vault_settings: { percentage: 20 },
      expected_address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    });
    const p = list.body.pendingPretokens[0];
    expect(getAddress(p.expected_address)).toBe(p.expected_address);
    expect(Date.parse(p.expires_at) - Date.parse(p.created_at)).toBe(7 * 86_400_000);
    // Every member of the stored settings, as validated: the published schema lists each key.
    expect(p.token_settings).toEqual({
      ...body(c).token_settings,
      admins: [{ admin: c.accounts[2]!.toLowerCase(), recipient: c.accounts[2]!.toLowerCase(), allocation: 100 }],
    });
    expect(p.airdrop).toEqual({ merkle_root: `0x${"ab".repeat(32)}`, percentage: 10, lockup_duration: 86_400 });

    expectError(await remove(theirs), 404, "not_found");
    expectError(await remove("00000000-0000-4000-8000-000000000000"), 404, "not_found");
    expectError(await remove("not-a-uuid"), 404, "not_found");
    expectError(await remove("x".repeat(65)), 404, "not_found");
    expectError(await remove(`${mine}${"0".repeat(100)}`), 404, "not_found");
    expect((await pending(77)).body.pendingPretokens).toHaveLength(1);

    const removed = await remove(mine);
    expect(removed.body).toEqual({ success: true });
    expect((await pending()).body.pendingPretokens).toEqual([]);
    expectError(await remove(mine), 404, "not_found");
    expect(
      (await db().selectFrom("pretokens").select("deleted_at").where("id", "=", mine).executeTakeFirstOrThrow())
        .deleted_at,
    ).toBeInstanceOf(Date);
  });
});

describe("GET /api/pretoken/pending: a minimal pretoken", () => {
  it("lists only the settings given, vault_settings and airdrop as null, exactly as documented", async () => {
    const c = chain();
    const admin = c.accounts[3]!;
    const minimal = {
      keyword: " min ",
      chain_id: "8453",
      token_settings: { name: "Min", symbol: "MIN", admins: [{ admin, recipient: admin, allocation: 100 }] },
    };
    const created = await create(minimal);
    expect(created.status, created.text).toBe(200);
    const list = await pending();
    expect(list.body.pendingPretokens).toEqual([
      {
        id: created.body.id,
        keyword: "min",
        chain_id: 8453,
        token_settings: {
          name: "Min",
          symbol: "MIN",
          admins: [{ admin: admin.toLowerCase(), recipient: admin.toLowerCase(), allocation: 100 }],
        },
        vault_settings: null,
        airdrop: null,
        expected_address: created.body.expectedAddress,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        expires_at: expect.stringMatching(/Z$/),
      },
    ]);
  });
});

describe("auth", () => {
  describe("POST /api/pretoken/v4", () =>
    authMatrix(
      "user",
      (headers) => call(createPost, "/api/pretoken/v4", { body: {}, headers }),
      () => issuer,
    ));
  describe("GET /api/pretoken/pending", () =>
    authMatrix(
      "user",
      (headers) => call(pendingGet, "/api/pretoken/pending", { headers }),
      () => issuer,
    ));
  describe("DELETE /api/pretoken/{id}", () =>
    authMatrix(
      "user",
      (headers) => call(deleteRoute, "/api/pretoken/x", { method: "DELETE", params: { id: "x" }, headers }),
      () => issuer,
      async () => {
        const id = (await create(body(chain()), 500)).body.id as string;
        return remove(id, 501);
      },
    ));
});
