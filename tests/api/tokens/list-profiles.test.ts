// includeUser on the token lists: stored profiles as they are, creators never stored fetched from the provider in
// one bulk call and stored, FIDs it does not know remembered; a header when some could not be fetched.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/tokens/route";
import { db } from "@/db";
import { call } from "@/tests/helpers/http";
import { startFakeNeynar, useNeynar, type FakeNeynar } from "@/tests/api/users/neynar-fake";
import { insertTokens, insertUser } from "./fixtures";

let neynar: FakeNeynar;
const list = (fids: string) => call(GET, `/api/tokens?includeUser=true&fids=${fids}`);
const usernames = (res: Awaited<ReturnType<typeof list>>) =>
  Object.fromEntries(res.body.data.map((t) => [t.requestor_fid, t.related?.user?.username ?? null]));

beforeAll(async () => {
  neynar = await startFakeNeynar();
  neynar.add({ fid: 501, username: "fetched" }, { fid: 511, username: "later" }, { fid: 521, username: "down" });
  await insertUser(502, "stored");
  await insertTokens(
    [501, 502, 503, 511, 521].map((fid, i) => ({
      name: `By ${fid}`,
      requestor_fid: fid,
      deployed_at: `2025-04-0${i + 1}T00:00:00Z`,
    })),
  );
});
afterAll(() => neynar.close());
beforeEach(() => {
  neynar.fail(null);
  useNeynar(neynar);
});

describe("GET /api/tokens?includeUser=true", () => {
  it("fetches creators never stored in one bulk call, stores them, and remembers FIDs the provider does not know", async () => {
    const before = neynar.calls().length;
    const res = await list("501,502,503");
    expect(res.status, res.text).toBe(200);
    expect(usernames(res)).toEqual({ 501: "fetched", 502: "stored", 503: null });
    expect(res.headers.get("x-profiles-incomplete")).toBeNull();
    expect(neynar.calls().length - before).toBe(1);
    const row = await db().selectFrom("users").select("username").where("fid", "=", 501).executeTakeFirst();
    expect(row?.username).toBe("fetched");

    const again = await list("501,502,503");
    expect(usernames(again)).toEqual({ 501: "fetched", 502: "stored", 503: null });
    expect(neynar.calls().length - before).toBe(1);
  });

  it("says so in X-Profiles-Incomplete when the provider fails or none is configured, and serves what is stored", async () => {
    neynar.fail({ status: 503 });
    const down = await list("521,502");
    expect(down.status, down.text).toBe(200);
    expect(usernames(down)).toEqual({ 521: null, 502: "stored" });
    expect(down.headers.get("x-profiles-incomplete")).toBe("true");

    useNeynar(null);
    const none = await list("511,502");
    expect(usernames(none)).toEqual({ 511: null, 502: "stored" });
    expect(none.headers.get("x-profiles-incomplete")).toBe("true");
  });

  it("spends at most NEYNAR_LIST_FETCHES_PER_MINUTE bulk calls a minute on lists", async () => {
    neynar.fail(null);
    useNeynar(neynar, { NEYNAR_LIST_FETCHES_PER_MINUTE: "0" });
    const before = neynar.calls().length;
    const res = await list("511");
    expect(usernames(res)).toEqual({ 511: null });
    expect(res.headers.get("x-profiles-incomplete")).toBe("true");
    expect(neynar.calls().length).toBe(before);
  });
});
