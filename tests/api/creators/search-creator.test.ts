import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { sql } from "kysely";
import { GET, OPTIONS } from "@/app/api/search-creator/route";
import { GET as byFid } from "@/app/api/get-user-by-fid/route";
import { db } from "@/db";
import { addTrustedDeployer, addTrustedToken } from "@/lib/domains/users/trust";
import { call, expectError } from "@/tests/helpers/http";
import { startFakeNeynar, useNeynar, type FakeNeynar } from "@/tests/api/users/neynar-fake";
import { addr, insertToken, insertUser } from "./fixtures";

const A1 = addr(0xa1);
const A2 = addr(0xa2);
const B1 = addr(0xb1);
const BOT = addr(0xb07);
const STRANGER = addr(0x5);
const tokens: Record<string, Awaited<ReturnType<typeof insertToken>>> = {};

const search = (qs: string) => call(GET, `/api/search-creator?${qs}`);
const names = (res: { body: any }) => res.body.tokens.map((t: any) => t.name);

beforeAll(async () => {
  useNeynar(null);
  await insertUser({
    fid: 10,
    username: "alice",
    displayName: "Alice Wonder",
    x: "alice_x",
    verified: [A1],
    followers: 10,
  });
  await insertUser({ fid: 11, username: "alicelover", displayName: "Alice Lover", verified: [A2], followers: 500 });
  await insertUser({ fid: 12, username: "bob", displayName: "Bob", x: "bobby", verified: [B1] });
  tokens.aliceBot1 = await insertToken({ name: "alice-bot-1", msgSender: BOT, requestorFid: 10 });
  tokens.aliceOwn = await insertToken({ name: "alice-own", msgSender: A1, requestorFid: 10 });
  tokens.aliceWallet = await insertToken({ name: "alice-wallet", msgSender: A1, requestorFid: null });
  tokens.aliceX = await insertToken({ name: "alice-x", msgSender: BOT, requestorFid: 10, platform: "X" });
  tokens.alicia = await insertToken({ name: "alicia-1", msgSender: BOT, requestorFid: 11 });
  tokens.bob = await insertToken({ name: "bob-1", msgSender: B1, requestorFid: 12, platform: "twitter" });
  tokens.stranger = await insertToken({ name: "stranger-1", msgSender: STRANGER });
  await addTrustedToken(tokens.aliceBot1.contract_address, 8453, "listed");
  await addTrustedDeployer(B1);
});

describe("GET /api/search-creator", () => {
  it("matches usernames by prefix, exact name first, with tokens of every match newest first", async () => {
    const res = await search("q=alice");
    expect(res.status, res.text).toBe(200);
    expect(res.body.users.map((u: any) => u.fid)).toEqual([10, 11]);
    expect(names(res)).toEqual(["alicia-1", "alice-x", "alice-wallet", "alice-own", "alice-bot-1"]);
    expect(res.body).toMatchObject({ total: 5, hasMore: false });
    expect(res.body.tokens[0].contract_address).toBe(getAddress(tokens.alicia.contract_address));
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers each matched user as get-user-by-fid does, plus the platform's row members", async () => {
    for (const q of ["alice", A1]) {
      const res = await search(`q=${q}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.users.length, q).toBeGreaterThan(0);
      for (const user of res.body.users) {
        const one = (await call(byFid, `/api/get-user-by-fid?fid=${user.fid}`)).body;
        const { platform, displayName, pfpUrl, verifiedAddresses, ...provider } = user;
        expect(provider, `${q}: fid ${user.fid}`).toEqual(one);
        expect({ platform, displayName, pfpUrl, verifiedAddresses }).toEqual({
          platform: "farcaster",
          displayName: one.display_name,
          pfpUrl: one.pfp_url,
          verifiedAddresses: one.verified_addresses!.eth_addresses,
        });
      }
    }
    // A bot keeps the rows whose platform is farcaster and that have a fid, typed as the platform's rows.
    const rows = (await search("q=alice")).body.users.filter((u: any) => u.platform === "farcaster" && u.fid);
    expect(rows.map((u: any) => [u.fid, u.username])).toEqual([
      [10, "alice"],
      [11, expect.any(String)],
    ]);
    expect((await search("q=alice")).body.users[0]).toMatchObject({
      username: "alice",
      verified_addresses: { eth_addresses: [getAddress(A1)] },
      verified_accounts: [{ platform: "x", username: "alice_x" }],
    });
  });

  it("computes trustStatus: listed token, listed deployer, requester's verified address", async () => {
    const res = await search("q=alice");
    const status = (name: string) => res.body.tokens.find((t: any) => t.name === name)!.trustStatus;
    expect(status("alice-bot-1")).toEqual({
      isTrustedDeployer: false,
      isTrustedClanker: true,
      fidMatchesDeployer: false,
      verifiedAddresses: [getAddress(A1)],
    });
    expect(status("alice-own")).toEqual({
      isTrustedDeployer: false,
      isTrustedClanker: false,
      fidMatchesDeployer: true,
      verifiedAddresses: [getAddress(A1)],
    });
    expect(status("alice-wallet")).toEqual({
      isTrustedDeployer: false,
      isTrustedClanker: false,
      fidMatchesDeployer: false,
      verifiedAddresses: [],
    });
    const bob = await search("q=bob");
    expect(bob.body.tokens[0].trustStatus).toMatchObject({ isTrustedDeployer: true, fidMatchesDeployer: true });
  });

  it("matches prefixes of usernames, handles and display names, case-insensitively, with a leading @", async () => {
    expect((await search("q=%40ALICE")).body.users.map((u: any) => u.fid)).toEqual([10, 11]);
    expect((await search("q=bobby")).body.users.map((u: any) => u.fid)).toEqual([12]);
    expect((await search("q=alice%20w")).body.users.map((u: any) => u.fid)).toEqual([10]);
    expect((await search("q=wonder")).body.users).toEqual([]);
    expect((await search("q=alice_x")).body.users.map((u: any) => u.fid)).toEqual([10]);
  });

  it("folds names as token search does: full width, decomposed accents, any script's capitals", async () => {
    await insertUser({ fid: 40, username: "zed40", displayName: "ＺＯＥＹ Ｆｕｌｌ" });
    await insertUser({ fid: 41, username: "rn41", displayName: "Rene\u0301e" });
    await insertUser({ fid: 42, username: "yannis", displayName: "ΟΔΥΣΣΕΑΣ" });
    const fids = async (q: string) => (await search(`q=${encodeURIComponent(q)}`)).body.users.map((u: any) => u.fid);
    expect(await fids("zoey f")).toEqual([40]);
    expect(await fids("Renée")).toEqual([41]);
    expect(await fids("RENE\u0301E")).toEqual([41]);
    expect(await fids("ΟΔΥΣΣΕΑΣ")).toEqual([42]);
    expect(await fids("＠ＹＡＮＮＩＳ")).toEqual([42]);
  });

  it("matches an address as a verified wallet (any case) or as a deployer", async () => {
    const res = await search(`q=${getAddress(A1)}`);
    expect(res.body.users.map((u: any) => u.fid)).toEqual([10]);
    expect(names(res)).toEqual(["alice-x", "alice-wallet", "alice-own", "alice-bot-1"]);
    const deployer = await search(`q=${STRANGER}`);
    expect(deployer.body).toMatchObject({ users: [], total: 1, hasMore: false });
    expect(names(deployer)).toEqual(["stranger-1"]);
  });

  it("filters trustedOnly and platform (twitter includes X)", async () => {
    expect(names(await search("q=alice&trustedOnly=true"))).toEqual(["alice-own", "alice-bot-1"]);
    expect(names(await search("q=alice&platform=twitter"))).toEqual(["alice-x"]);
    expect(names(await search("q=alice&platform=farcaster"))).toEqual([
      "alicia-1",
      "alice-wallet",
      "alice-own",
      "alice-bot-1",
    ]);
    expect(names(await search("q=bob&platform=twitter&trustedOnly=1"))).toEqual(["bob-1"]);
    // Words in any case, as booleans: what other clients send.
    expect(names(await search("q=alice&platform=Twitter&sort=ASC"))).toEqual(
      names(await search("q=alice&platform=twitter&sort=asc")),
    );
  });

  it("sorts ascending and pages with limit and offset", async () => {
    expect(names(await search("q=alice&sort=asc"))).toEqual([
      "alice-bot-1",
      "alice-own",
      "alice-wallet",
      "alice-x",
      "alicia-1",
    ]);
    const page = await search("q=alice&limit=2&offset=1");
    expect(names(page)).toEqual(["alice-x", "alice-wallet"]);
    expect(page.body).toMatchObject({ total: 5, hasMore: true });
    const last = await search("q=alice&limit=2&offset=4");
    expect(last.body).toMatchObject({ total: 5, hasMore: false });
    expect(names(last)).toEqual(["alice-bot-1"]);
    expect((await search("q=alice&limit=50&offset=10000")).body).toMatchObject({
      tokens: [],
      total: 5,
      hasMore: false,
    });
  });

  it("pages a creator with more than 1,000 tokens: hasMore exact, total the planner's estimate", async () => {
    const big = addr(0xb16b16);
    await sql`
      INSERT INTO tokens (deployed_at, contract_address, chain_id, name, symbol, msg_sender, admin)
      SELECT timestamptz '2020-01-01' + make_interval(hours => g), '0x' || lpad(to_hex(g + 33554432), 40, '0'), 8453, 'big ' || g, 'BIG', ${big}, ${big}
      FROM generate_series(1, 1500) AS g
    `.execute(db());
    await sql`ANALYZE tokens`.execute(db());
    const first = await search(`q=${big}&limit=50`);
    expect(first.body.tokens).toHaveLength(50);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.total).toBeGreaterThan(1200);
    expect(first.body.total).toBeLessThan(1800);
    const last = await search(`q=${big}&limit=50&offset=1450`);
    expect(last.body).toMatchObject({ hasMore: false, total: 1500 });
    expect(names(last).at(-1)).toBe("big 1");
  });

  it("answers an empty result when nobody matches; LIKE wildcards are literal", async () => {
    for (const q of ["nobody", "%25", "_", "@"]) {
      expect((await search(`q=${q}`)).body, q).toEqual({ tokens: [], users: [], total: 0, hasMore: false });
    }
  });

  it.each([
    "",
    "q=",
    "q=%20%20",
    `q=${"a".repeat(101)}`,
    "q=a&q=b",
    "q=a&limit=0",
    "q=a&limit=-1",
    "q=a&limit=ten",
    "q=a&offset=-1",
    "q=a&offset=10001",
    "q=a&sort=up",
    "q=a&platform=lens",
    "q=a&trustedOnly=yes",
    "q=a%00b", // Postgres text cannot hold NUL (the fuzzer's find: it was a 500)
  ])("rejects %s", async (qs) => {
    expectError(await search(qs), 400, "invalid_request");
  });

  it("accepts a 100-character q and answers a preflight", async () => {
    expect((await search(`q=${"a".repeat(100)}`)).status).toBe(200);
    expect(OPTIONS().status).toBe(204);
  });

  describe("with a profile provider", () => {
    let neynar: FakeNeynar;
    beforeAll(async () => {
      neynar = await startFakeNeynar();
      neynar.add({ fid: 20, username: "dora", verified: [STRANGER] });
      useNeynar(neynar);
    });
    afterAll(async () => {
      useNeynar(null);
      await neynar.close();
    });

    it("looks an unknown address up at the provider", async () => {
      const res = await search(`q=${STRANGER}`);
      expect(res.body.users.map((u: any) => u.fid)).toEqual([20]);
      expect(names(res)).toEqual(["stranger-1"]);
    });

    it("still finds the deployer's tokens when the provider fails", async () => {
      neynar.fail({ status: 500 });
      const res = await search(`q=${addr(0xdead)}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ users: [], tokens: [], total: 0 });
    });
  });
});
