// GET /api/droid/leaderboard: ranks, cursor walk, interval change, and `score` for admins only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { getAddress } from "viem";
import { GET, OPTIONS } from "@/app/api/droid/leaderboard/route";
import { signAdminSession } from "@/lib/http/auth/admin";
import { computeLeaderboard } from "@/lib/domains/leaderboard/compute";
import { encodeCursor } from "@/lib/core/cursor";
import { ingestFile } from "@/dev/cli/agents-file";
import { INTERVALS } from "@/lib/domains/leaderboard/scoring";
import { call, expectError } from "@/tests/helpers/http";
import { startIssuer, type Issuer } from "@/tests/helpers/auth";
import { activity, agent, tokenAddress, writeJsonLines } from "@/tests/unit/leaderboard/fixtures";

const ACTIVE_TODAY = 23; // agents 1..23 active in the last hours; 24 and 25 three days ago
let issuer: Issuer;
let adminCookie: string;

beforeAll(async () => {
  issuer = await startIssuer();
  adminCookie = `admin_session=${await signAdminSession("fid:1")}`; // startIssuer makes FID 1 an admin
  const records: object[] = [];
  for (let i = 1; i <= 25; i++) records.push(agent(i), ...activity(i, i <= ACTIVE_TODAY ? 2 : 72));
  // A washer: many interactions, all from two accounts of its own creator's circle.
  records.push(agent(99, { creatorNeynarScore: 1 }));
  for (let r = 0; r < 40; r++)
    records.push({
      type: "run",
      agentId: "droid-099",
      id: `r${r}`,
      at: new Date(Date.now() - 3_600_000).toISOString(),
      outcome: "failed",
    });
  for (let k = 0; k < 200; k++) {
    records.push({
      type: "interaction",
      agentId: "droid-099",
      id: `i${k}`,
      at: new Date(Date.now() - 3_600_000).toISOString(),
      counterpartFid: k % 2 ? 20_099 : 77,
      kind: "like",
    });
  }
  const report = await ingestFile(writeJsonLines(records));
  expect(report.invalid).toEqual([]);
  for (const interval of INTERVALS) await computeLeaderboard(interval);
});
afterAll(() => issuer.close());

const get = (query = "", headers: Record<string, string> = {}) =>
  call(GET, `/api/droid/leaderboard${query}`, { headers });
const admin = (query = "") => get(query, { cookie: adminCookie });

describe("rows and ranks", () => {
  it("answers rows exactly as the interface lists, ranked 1..N by composite", async () => {
    const res = await admin("?interval=24h&limit=100");
    expect(res.status, res.text).toBe(200);
    const rows = res.body.data;
    expect(rows).toHaveLength(ACTIVE_TODAY + 1);
    expect(rows.map((r: any) => r.rank)).toEqual(rows.map((_: unknown, i: number) => i + 1));
    const composites = rows.map((r: any) => r.score.composite);
    expect([...composites].sort((a, b) => b - a)).toEqual(composites);
    expect(rows[0].agentId).toBe("droid-023");
    const top = rows[0];
    expect(Object.keys(top).sort()).toEqual(
      [
        "rank",
        "agentId",
        "agentName",
        "fid",
        "token",
        "runs",
        "actions",
        "castMetrics",
        "creator",
        "lastActiveAt",
        "computedAt",
        "score",
      ].sort(),
    );
    expect(top).toMatchObject({
      agentName: "Droid 23",
      fid: 10_023,
      token: { chainId: 8453, address: getAddress(tokenAddress(23)), name: "Droid Token 23", symbol: "DRD23" },
      runs: { total: 23, succeeded: 23, failed: 0 },
      actions: { posts: 23, replies: 0, quotes: 0 },
      castMetrics: { casts: 23, interactions: 69 },
      creator: { fid: 20_023, neynarScore: 0.5 },
    });
    expect(top.lastActiveAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(top.computedAt).toMatch(/Z$/);
    expect(Object.keys(top.score!).sort()).toEqual(["components", "composite", "washConfidence", "washFlags"]);
    expect(Object.keys(top.score!.components).sort()).toEqual([
      "activity",
      "creator",
      "engagement",
      "output",
      "reliability",
    ]);
  });

  it("catches the washer and ranks it below agents it would otherwise beat", async () => {
    const rows = (await admin("?interval=24h&limit=100")).body.data;
    const washer = rows.find((r: any) => r.agentId === "droid-099");
    expect(washer!.score!.washFlags).toEqual(
      expect.arrayContaining(["CONCENTRATED_INTERACTIONS", "SELF_INTERACTIONS", "FEW_COUNTERPARTS", "ALL_RUNS_FAILED"]),
    );
    expect(washer!.score!.washConfidence).toBeGreaterThan(0.9);
    expect(washer!.runs).toEqual({ total: 40, succeeded: 0, failed: 40 });
    expect(washer!.rank).toBeGreaterThan(ACTIVE_TODAY / 2);
  });

  it("ranks the agents active three days ago in 7d and 30d, not in 24h, and 24h is the default (as on the platform)", async () => {
    const day = (await get("?interval=24h&limit=100")).body.data.map((r: any) => r.agentId);
    const week = (await get("?interval=7d&limit=100")).body.data.map((r: any) => r.agentId);
    const month = (await get("?interval=30d&limit=100")).body.data.map((r: any) => r.agentId);
    expect(day).not.toContain("droid-025");
    expect(week).toContain("droid-025");
    expect(month).toHaveLength(week.length);
    expect((await get("?limit=100")).body.data.map((r: any) => r.agentId)).toEqual(day);
    expect((await get("?interval=7D&limit=100")).body.data.map((r: any) => r.agentId)).toEqual(week); // any case
  });
});

describe("cursor", () => {
  it("walks every row once, in rank order, and ends with a null cursor", async () => {
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`?interval=7d&limit=7${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(7);
      seen.push(...res.body.data);
      cursor = res.body.cursor;
      if (cursor) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      pages++;
    } while (cursor && pages < 20);
    expect(seen.map((r) => r.rank)).toEqual(seen.map((_, i) => i + 1));
    expect(new Set(seen.map((r) => r.agentId)).size).toBe(26);
    expect(pages).toBe(4);
  });

  it("keeps the cursor's interval when none is given, and ignores the cursor when the interval changes", async () => {
    const first = await get("?interval=24h&limit=5");
    const cursor = first.body.cursor;
    expect(JSON.parse(Buffer.from(cursor!, "base64url").toString())).toEqual({
      offset: 5,
      interval: "24h",
      at: Date.parse(first.body.data[0].computedAt),
    });
    const next = await get(`?limit=5&cursor=${cursor}`);
    expect(next.body.data[0].rank).toBe(6);
    const changed = await get(`?interval=30d&limit=5&cursor=${cursor}`);
    expect(changed.body.data[0].rank).toBe(1);
    expect(JSON.parse(Buffer.from(changed.body.cursor!, "base64url").toString())).toMatchObject({
      offset: 5,
      interval: "30d",
    });
  });

  it("answers an empty page past the end", async () => {
    const res = await get(`?interval=7d&cursor=${encodeCursor({ offset: 500, interval: "7d" })}`);
    expect(res.body).toEqual({ data: [], cursor: null });
  });

  it("refuses a cursor of a snapshot a scoring run has since replaced, naming it, also past the end", async () => {
    const first = await get("?interval=7d&limit=5");
    const { at } = JSON.parse(Buffer.from(first.body.cursor!, "base64url").toString());
    expect((await get(`?cursor=${encodeCursor({ offset: 500, interval: "7d", at })}`)).body).toEqual({
      data: [],
      cursor: null,
    });
    const rescored = await computeLeaderboard("7d", new Date(at + 1000));
    for (const cursor of [first.body.cursor, encodeCursor({ offset: 500, interval: "7d", at })]) {
      const error = expectError(await get(`?cursor=${cursor}`), 409, "conflict");
      expect(error.error).toContain(`cursor: the leaderboard was re-scored at ${rescored.computedAt}`);
    }
    // Page one of the new snapshot walks on; a cursor made before snapshots were named is still read.
    const again = await get("?interval=7d&limit=5");
    expect((await get(`?cursor=${again.body.cursor}`)).body.data[0].rank).toBe(6);
    expect((await get(`?cursor=${encodeCursor({ offset: 5, interval: "7d" })}`)).body.data[0].rank).toBe(6);
  });

  it.each([
    ["not base64url!", "cursor"],
    [Buffer.from("not json").toString("base64url"), "cursor"],
    [Buffer.from(JSON.stringify({ offset: -1, interval: "7d" })).toString("base64url"), "cursor"],
    [Buffer.from(JSON.stringify({ offset: 1.5, interval: "7d" })).toString("base64url"), "cursor"],
    [Buffer.from(JSON.stringify({ offset: 10, interval: "1y" })).toString("base64url"), "cursor"],
    [Buffer.from(JSON.stringify({ offset: 10_000_000, interval: "7d" })).toString("base64url"), "cursor"],
    ["x".repeat(500), "cursor"],
  ])("answers 400 for the malformed cursor %s", async (cursor, mentions) => {
    expect(expectError(await get(`?cursor=${encodeURIComponent(cursor)}`), 400, "invalid_request").error).toContain(
      mentions,
    );
  });

  it.each(["?limit=0", "?limit=-1", "?limit=ten", "?interval=1y", "?interval=24h&interval=7d"])(
    "answers 400 for %s",
    async (query) => {
      expectError(await get(query), 400, "invalid_request");
    },
  );
});

describe("score visibility and caching", () => {
  const publicCacheControl = "public, s-maxage=30, stale-while-revalidate=60";

  async function expectPublic(headers: Record<string, string>) {
    for (const interval of INTERVALS) {
      const res = await get(`?interval=${interval}&limit=100`, headers);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      expect(res.text).not.toContain('"score"');
      expect(res.text).not.toContain("washConfidence");
      expect(res.body.data.every((r: any) => !("score" in r))).toBe(true);
      expect(res.headers.get("cache-control")).toBe(publicCacheControl);
      expect(res.headers.get("vary")).toBe("Cookie");
    }
  }

  it("never shows score to the public", () => expectPublic({}));
  it("never shows score for a forged cookie", () =>
    expectPublic({ cookie: "admin_session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.forged" }));
  it("never shows score for a cookie signed with another secret", async () => {
    const other = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setAudience("admin_session")
      .setSubject("admin")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-of-at-least-32-characters!"));
    await expectPublic({ cookie: `admin_session=${other}` });
  });
  it("never shows score for an expired admin cookie", async () => {
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setAudience("admin_session")
      .setSubject("admin")
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(process.env.SESSION_SECRET!));
    await expectPublic({ cookie: `admin_session=${expired}` });
  });
  it("never shows score to a user who is not an admin, or for a bad token", async () => {
    await expectPublic({ authorization: `Bearer ${await issuer.token(999)}` });
    await expectPublic({ authorization: "Bearer not.a.jwt" });
  });

  it("shows score to an admin cookie and an admin bearer, privately", async () => {
    const variants: Record<string, string>[] = [
      { cookie: adminCookie },
      { authorization: `Bearer ${await issuer.token(1)}` },
    ];
    for (const headers of variants) {
      const res = await get("?interval=24h", headers);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.every((r: any) => typeof r.score.composite === "number")).toBe(true);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
    }
  });

  it("answers a CORS preflight", () => {
    expect(OPTIONS().status).toBe(204);
  });
});
