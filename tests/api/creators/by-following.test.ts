import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { GET, OPTIONS } from "@/app/api/get-tokens-deployed/by-following/route";
import { db } from "@/db";
import { call, expectError } from "@/tests/helpers/http";
import { startFakeNeynar, useNeynar, type FakeNeynar } from "@/tests/api/users/neynar-fake";
import { addr, insertToken } from "./fixtures";

const BOT = addr(0xb07);
const E1 = addr(0xe1);
let neynar: FakeNeynar;
const byFollowing = (qs: string) => call(GET, `/api/get-tokens-deployed/by-following?${qs}`);
const names = (res: { body: any }) => res.body.tokens.map((t: any) => t.name);

beforeAll(async () => {
  neynar = await startFakeNeynar();
  neynar.add(
    { fid: 100, username: "viewer" },
    { fid: 50, username: "erin", verified: [E1] },
    { fid: 51, username: "frank" },
    { fid: 52, username: "gina" },
  );
  neynar.following.set(100, [50, 51, 52]);
  await insertToken({ name: "erin-wallet", msgSender: E1, deployedAt: new Date("2025-01-03T00:00:00Z") });
  await insertToken({
    name: "frank-bot",
    msgSender: BOT,
    requestorFid: 51,
    deployedAt: new Date("2025-01-02T00:00:00Z"),
  });
  await insertToken({
    name: "erin-bot",
    msgSender: BOT,
    requestorFid: 50,
    deployedAt: new Date("2025-01-01T00:00:00Z"),
  });
  await insertToken({
    name: "stranger",
    msgSender: BOT,
    requestorFid: 99,
    deployedAt: new Date("2025-01-04T00:00:00Z"),
  });
});
afterAll(() => neynar.close());
beforeEach(() => {
  neynar.fail(null);
  useNeynar(neynar);
});

describe("GET /api/get-tokens-deployed/by-following", () => {
  it("answers the followed accounts' tokens newest first, and who launched them", async () => {
    const res = await byFollowing("fid=100");
    expect(res.status, res.text).toBe(200);
    expect(names(res)).toEqual(["erin-wallet", "frank-bot", "erin-bot"]);
    expect(res.body.followers.map((u: any) => u.fid)).toEqual([50, 51]);
    expect(res.body.followingCount).toBe(3);
    expect(res.body.tokens[0].related).toBeUndefined();
    const follows = await db()
      .selectFrom("follows")
      .select("followed_fid")
      .where("follower_fid", "=", 100)
      .orderBy("followed_fid")
      .execute();
    expect(follows.map((f) => f.followed_fid)).toEqual([50, 51, 52]);
    const viewer = await db()
      .selectFrom("users")
      .select("following_fetched_at")
      .where("fid", "=", 100)
      .executeTakeFirstOrThrow();
    expect(viewer.following_fetched_at).toBeInstanceOf(Date);
  });

  it("serves the stored list while fresh and refetches when stale", async () => {
    await byFollowing("fid=100");
    const before = neynar.calls("/v2/farcaster/following").length;
    await byFollowing("fid=100");
    expect(neynar.calls("/v2/farcaster/following").length).toBe(before);
    await db()
      .updateTable("users")
      .set({ following_fetched_at: sql`now() - interval '2 hours'` })
      .where("fid", "=", 100)
      .execute();
    neynar.following.set(100, [51]);
    expect(names(await byFollowing("fid=100"))).toEqual(["frank-bot"]);
    expect(neynar.calls("/v2/farcaster/following").length).toBe(before + 1);
    neynar.following.set(100, [50, 51, 52]);
    await db()
      .updateTable("users")
      .set({ following_fetched_at: sql`now() - interval '2 hours'` })
      .where("fid", "=", 100)
      .execute();
  });

  it("adds the creator's profile with includeUser and bounds the answer with limit", async () => {
    const res = await byFollowing("fid=100&includeUser=true&limit=2");
    expect(names(res)).toEqual(["erin-wallet", "frank-bot"]);
    expect(res.body.tokens.map((t: any) => t.related.user.fid)).toEqual([50, 51]);
  });

  it("reads the following list in pages of at most 100, up to FOLLOWING_MAX_ACCOUNTS", async () => {
    const many = Array.from({ length: 150 }, (_, i) => 1000 + i);
    neynar.add(...many.map((fid) => ({ fid, username: `u${fid}` })), { fid: 200, username: "popular" });
    neynar.following.set(200, many);
    useNeynar(neynar, { FOLLOWING_MAX_ACCOUNTS: "120" });
    const before = neynar.calls("/v2/farcaster/following").length;
    const res = await byFollowing("fid=200");
    expect(res.body.followingCount).toBe(120);
    const pages = neynar.calls("/v2/farcaster/following").slice(before);
    expect(pages.map((p) => p.query.get("limit"))).toEqual(["100", "20"]);
    expect(pages[1].query.get("cursor")).toBe("100");
  });

  it("answers 404 for a FID the provider does not know", async () => {
    expectError(await byFollowing("fid=424242"), 404, "not_found");
  });

  it("answers 503 when the first read fails, and the stored list once one succeeded", async () => {
    neynar.add({ fid: 300, username: "newbie" });
    neynar.following.set(300, [50]);
    neynar.fail({ status: 500 });
    expectError(await byFollowing("fid=300"), 503, "provider_unavailable");
    neynar.fail(null);
    expect(names(await byFollowing("fid=300"))).toEqual(["erin-wallet", "erin-bot"]);
    await db()
      .updateTable("users")
      .set({ following_fetched_at: sql`now() - interval '2 hours'` })
      .where("fid", "=", 300)
      .execute();
    useNeynar(neynar, { PROVIDER_TIMEOUT_MS: "300" });
    neynar.fail({ hang: true });
    expect(names(await byFollowing("fid=300"))).toEqual(["erin-wallet", "erin-bot"]);
  });

  it("serves stored follows without a provider key", async () => {
    useNeynar(null);
    await db().insertInto("follows").values({ follower_fid: 400, followed_fid: 51 }).execute();
    expect(names(await byFollowing("fid=400"))).toEqual(["frank-bot"]);
    expect(await byFollowing("fid=401")).toMatchObject({
      status: 200,
      body: { tokens: [], followers: [], followingCount: 0 },
    });
  });

  it.each([
    "",
    "fid=",
    "fid=0",
    "fid=abc",
    "fid=1&fid=2",
    "fid=1&includeUser=maybe",
    "fid=1&limit=0",
    "fid=1&limit=-1",
  ])("rejects %s", async (qs) => {
    expectError(await byFollowing(qs), 400, "invalid_request");
  });

  it("answers a preflight", () => {
    expect(OPTIONS().status).toBe(204);
  });
});
