import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { getAddress } from "viem";
import { GET as byFid, OPTIONS } from "@/app/api/get-user-by-fid/route";
import { GET as byAddress } from "@/app/api/get-user-by-address/route";
import { GET as byName } from "@/app/api/get-user-by-name/route";
import { GET as multiple } from "@/app/api/get-multiple-users-by-fid/route";
import { db } from "@/db";
import { call, expectError } from "@/tests/helpers/http";
import { startFakeNeynar, useNeynar, type FakeNeynar } from "./neynar-fake";

const ALICE_WALLET = "0x00000000000000000000000000000000000a11ce";
const BOB_WALLET = "0x0000000000000000000000000000000000000b0b";
let neynar: FakeNeynar;

async function age(fid: number, seconds: number) {
  await db()
    .updateTable("users")
    .set({ fetched_at: sql`now() - make_interval(secs => ${seconds})` })
    .where("fid", "=", fid)
    .execute();
}

beforeAll(async () => {
  neynar = await startFakeNeynar();
  neynar.add(
    {
      fid: 2,
      username: "alice",
      verified: ["0x00000000000000000000000000000000000A11CE"],
      x: "alice_x",
      followers: 100,
    },
    { fid: 3, username: "bob", verified: [BOB_WALLET], followers: 5 },
    { fid: 4, username: "bob-alt", verified: [BOB_WALLET], followers: 50 },
  );
});
afterAll(() => neynar.close());
beforeEach(() => {
  neynar.fail(null);
  useNeynar(neynar);
});

describe("GET /api/get-user-by-fid", () => {
  it("fetches, stores and serves the provider's user object with a 5-minute cache", async () => {
    const res = await call(byFid, "/api/get-user-by-fid?fid=2");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      object: "user",
      fid: 2,
      username: "alice",
      verified_addresses: { eth_addresses: ["0x00000000000000000000000000000000000A11CE"] },
    });
    expect(res.headers.get("cache-control")).toContain("s-maxage=300");
    const row = await db().selectFrom("users").selectAll().where("fid", "=", 2).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      username: "alice",
      twitter_username: "alice_x",
      verified_addresses: [ALICE_WALLET],
      follower_count: 100,
    });
    const addresses = await db().selectFrom("user_addresses").select("address").where("fid", "=", 2).execute();
    expect(addresses.map((a) => a.address)).toContain(ALICE_WALLET);
  });

  it("serves a fresh stored profile without calling the provider, and refetches a stale one", async () => {
    await call(byFid, "/api/get-user-by-fid?fid=3");
    const before = neynar.calls("/v2/farcaster/user/bulk").length;
    expect((await call(byFid, "/api/get-user-by-fid?fid=3")).status).toBe(200);
    expect(neynar.calls("/v2/farcaster/user/bulk").length).toBe(before);
    await age(3, 301);
    expect((await call(byFid, "/api/get-user-by-fid?fid=3")).status).toBe(200);
    expect(neynar.calls("/v2/farcaster/user/bulk").length).toBe(before + 1);
  });

  it("answers 404 for a FID the provider does not know", async () => {
    expectError(await call(byFid, "/api/get-user-by-fid?fid=999999"), 404, "not_found");
  });

  it("serves the stored profile when the provider fails, else 503 provider_unavailable", async () => {
    await call(byFid, "/api/get-user-by-fid?fid=2");
    await age(2, 600);
    neynar.fail({ status: 500 });
    const stale = await call(byFid, "/api/get-user-by-fid?fid=2");
    expect(stale.status).toBe(200);
    expect(stale.body.username).toBe("alice");
    const missing = await call(byFid, "/api/get-user-by-fid?fid=77");
    expectError(missing, 503, "provider_unavailable");
    expect(missing.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("retries a 429 after Retry-After and a 5xx, then succeeds", async () => {
    neynar.fail({ status: 429, retryAfter: "0", times: 1 });
    expect((await call(byFid, "/api/get-user-by-fid?fid=4")).status).toBe(200);
    await age(4, 600);
    neynar.fail({ status: 503, times: 2 });
    expect((await call(byFid, "/api/get-user-by-fid?fid=4")).status).toBe(200);
  });

  it("gives up at once when Retry-After is longer than the wait it allows", async () => {
    neynar.fail({ status: 429, retryAfter: "30" });
    const before = neynar.calls().length;
    const res = await call(byFid, "/api/get-user-by-fid?fid=88");
    expectError(res, 503, "provider_unavailable");
    expect(res.headers.get("retry-after")).toBe("30");
    expect(neynar.calls().length).toBe(before + 1);
  });

  it("answers 503 on a provider timeout or an answer of the wrong shape", async () => {
    useNeynar(neynar, { PROVIDER_TIMEOUT_MS: "300" });
    neynar.fail({ hang: true });
    expectError(await call(byFid, "/api/get-user-by-fid?fid=89"), 503, "provider_unavailable");
    neynar.fail({ status: 200, json: { users: [{ fid: "not a number" }] } });
    expectError(await call(byFid, "/api/get-user-by-fid?fid=89"), 503, "provider_unavailable");
  });

  it("without a provider key serves stored profiles, and answers 503 (not 404) for what only the provider could know", async () => {
    await call(byFid, "/api/get-user-by-fid?fid=2");
    await age(2, 10_000);
    useNeynar(null);
    const before = neynar.calls().length;
    expect((await call(byFid, "/api/get-user-by-fid?fid=2")).body.username).toBe("alice");
    for (const [route, path] of [
      [byFid, "/api/get-user-by-fid?fid=4242"],
      [byAddress, "/api/get-user-by-address?address=0x00000000000000000000000000000000000a4242"],
      [byName, "/api/get-user-by-name?name=nobody-stored"],
      [multiple, "/api/get-multiple-users-by-fid?fids=4242,4243"],
    ] as const) {
      const error = expectError(await call(route, path), 503, "provider_unavailable");
      expect(error.error, path).toMatch(/no profile provider is configured/);
    }
    expect((await call(multiple, "/api/get-multiple-users-by-fid?fids=2,4242")).body.users).toHaveLength(1);
    expect(neynar.calls().length).toBe(before);
  });

  it("gives a profile known only from stored columns (seeded, indexed) the provider's shape", async () => {
    useNeynar(null);
    const custody = "0x00000000000000000000000000000000c0ffee01";
    await db()
      .insertInto("users")
      .values({
        fid: 610,
        username: "columns",
        display_name: null,
        pfp_url: null,
        custody_address: custody,
        verified_addresses: [ALICE_WALLET],
        twitter_username: "col_x",
        neynar_score: null,
        follower_count: 7,
        following_count: 1,
        profile: "{}",
      })
      .execute();
    const res = await call(byFid, "/api/get-user-by-fid?fid=610");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      object: "user",
      fid: 610,
      username: "columns",
      display_name: null,
      pfp_url: null,
      custody_address: getAddress(custody),
      profile: { bio: { text: "" } },
      follower_count: 7,
      following_count: 1,
      verifications: [getAddress(ALICE_WALLET)],
      verified_addresses: { eth_addresses: [getAddress(ALICE_WALLET)], sol_addresses: [] },
      verified_accounts: [{ platform: "x", username: "col_x" }],
      score: null,
      experimental: { neynar_user_score: null },
    });
  });

  it("writes each user of get-multiple-users-by-fid as get-user-by-fid does, member for member and in order", async () => {
    // The list's JSON text is written by PostgreSQL (userJson), the single lookup's by toUserObject.
    await call(byFid, "/api/get-user-by-fid?fid=2"); // a stored provider object
    useNeynar(null);
    const columns = {
      username: null,
      display_name: null,
      pfp_url: null,
      custody_address: null,
      verified_addresses: [],
      twitter_username: null,
      neynar_score: null,
      follower_count: 0,
      following_count: 0,
      profile: "{}",
    };
    await db()
      .insertInto("users")
      .values([
        { ...columns, fid: 620 },
        {
          ...columns,
          fid: 621,
          username: "edge",
          display_name: 'Quote " back\\slash \n newline \u0001 é 🚀',
          pfp_url: "https://example.com/p.png",
          custody_address: "0x00000000000000000000000000000000c0ffee02",
          verified_addresses: [ALICE_WALLET, BOB_WALLET],
          twitter_username: "edge_x",
          neynar_score: 1e-7,
          follower_count: 2_000_000_000,
          following_count: 3,
        },
        { ...columns, fid: 622, twitter_username: "", neynar_score: 0.97, profile: JSON.stringify({ fid: "622" }) },
        {
          ...columns,
          fid: 623,
          profile: JSON.stringify({ fid: 623, object: "user", username: "kept", extra: [1, 2.5] }),
        },
      ])
      .execute();
    const fids = [623, 2, 620, 621, 622];
    const res = await call(multiple, `/api/get-multiple-users-by-fid?fids=${fids.join(",")}`);
    expect(res.status, res.text).toBe(200);
    for (const [i, fid] of fids.entries()) {
      const one = await call(byFid, `/api/get-user-by-fid?fid=${fid}`);
      expect(one.status, one.text).toBe(200);
      expect(res.body.users[i], `fid ${fid}`).toEqual(one.body);
      expect(Object.keys(res.body.users[i]), `fid ${fid}`).toEqual(Object.keys(one.body));
    }
    expect(res.body.users[0]).toEqual({ fid: 623, object: "user", username: "kept", extra: [1, 2.5] });
    expect(res.body.users[3].verifications).toEqual([getAddress(ALICE_WALLET), getAddress(BOB_WALLET)]);
  });

  it.each(["", "0", "-1", "abc", "1.5", "99999999999999999"])("rejects fid=%s", async (fid) => {
    expectError(await call(byFid, `/api/get-user-by-fid?fid=${fid}`), 400, "invalid_request");
  });

  it("rejects a missing or repeated fid and answers a preflight", async () => {
    expectError(await call(byFid, "/api/get-user-by-fid"), 400, "invalid_request");
    expectError(await call(byFid, "/api/get-user-by-fid?fid=1&fid=2"), 400, "invalid_request");
    expect(OPTIONS().status).toBe(204);
  });
});

describe("GET /api/get-user-by-address", () => {
  it("finds the holder of a verified address (any case) with a 24-hour cache", async () => {
    const res = await call(byAddress, "/api/get-user-by-address?address=0x00000000000000000000000000000000000A11CE");
    expect(res.status, res.text).toBe(200);
    expect(res.body.fid).toBe(2);
    expect(res.headers.get("cache-control")).toContain("s-maxage=86400");
  });

  it("picks the most followed of several verified holders and stays within 24 hours", async () => {
    const res = await call(byAddress, `/api/get-user-by-address?address=${BOB_WALLET}`);
    expect(res.body.fid).toBe(4);
    await age(4, 3600);
    await age(3, 3600);
    const before = neynar.calls("/v2/farcaster/user/bulk-by-address").length;
    expect((await call(byAddress, `/api/get-user-by-address?address=${BOB_WALLET}`)).body.fid).toBe(4);
    expect(neynar.calls("/v2/farcaster/user/bulk-by-address").length).toBe(before);
  });

  it("answers 404 when nobody holds the address, and remembers that for a while", async () => {
    const nobody = "0x1111111111111111111111111111111111111111";
    expectError(await call(byAddress, `/api/get-user-by-address?address=${nobody}`), 404, "not_found");
    const before = neynar.calls("/v2/farcaster/user/bulk-by-address").length;
    expectError(await call(byAddress, `/api/get-user-by-address?address=${nobody}`), 404, "not_found");
    expect(neynar.calls("/v2/farcaster/user/bulk-by-address").length).toBe(before);
  });

  it("serves a stale stored holder when the provider fails; 503 without one", async () => {
    await call(byAddress, `/api/get-user-by-address?address=${ALICE_WALLET}`);
    await age(2, 90_000);
    neynar.fail({ status: 502 });
    expect((await call(byAddress, `/api/get-user-by-address?address=${ALICE_WALLET}`)).body.fid).toBe(2);
    expectError(
      await call(byAddress, "/api/get-user-by-address?address=0x2222222222222222222222222222222222222222"),
      503,
      "provider_unavailable",
    );
  });

  it.each(["", "0x123", "0xZZ00000000000000000000000000000000000000", "alice"])("rejects address=%s", async (a) => {
    expectError(await call(byAddress, `/api/get-user-by-address?address=${a}`), 400, "invalid_request");
  });
});

describe("GET /api/get-user-by-name", () => {
  it("finds a user by username, case-insensitively and with a leading @", async () => {
    const res = await call(byName, "/api/get-user-by-name?name=%40Alice");
    expect(res.status, res.text).toBe(200);
    expect(res.body.fid).toBe(2);
    expect(neynar.calls("/v2/farcaster/user/by_username").at(-1)?.query.get("username")).toBe("alice");
  });

  it("answers 404 when nobody has the name", async () => {
    expectError(await call(byName, "/api/get-user-by-name?name=nobody"), 404, "not_found");
  });

  it("moves a username to its new owner instead of failing on the unique name", async () => {
    await call(byName, "/api/get-user-by-name?name=bob");
    neynar.add({ fid: 3, username: "robert", verified: [BOB_WALLET] }, { fid: 5, username: "bob" });
    // fid 3 is still stored as "bob" when fid 5 arrives with that name
    expect((await call(byFid, "/api/get-user-by-fid?fid=5")).status).toBe(200);
    const res = await call(byName, "/api/get-user-by-name?name=bob");
    expect(res.status, res.text).toBe(200);
    expect(res.body.fid).toBe(5);
    const old = await db().selectFrom("users").select("username").where("fid", "=", 3).executeTakeFirstOrThrow();
    expect(old.username).toBeNull();
  });

  it("serves the stored user when the provider fails, 503 when none is stored", async () => {
    await call(byName, "/api/get-user-by-name?name=alice");
    await age(2, 600);
    neynar.fail({ status: 500 });
    expect((await call(byName, "/api/get-user-by-name?name=alice")).body.fid).toBe(2);
    expectError(await call(byName, "/api/get-user-by-name?name=carol"), 503, "provider_unavailable");
  });

  it.each(["", "%40", "a b", "x".repeat(65), "<script>"])("rejects name=%s", async (n) => {
    expectError(await call(byName, `/api/get-user-by-name?name=${encodeURIComponent(n)}`), 400, "invalid_request");
  });
});

describe("GET /api/get-multiple-users-by-fid", () => {
  it("answers { users } in the order asked, unknown FIDs left out, in one bulk call", async () => {
    const before = neynar.calls("/v2/farcaster/user/bulk").length;
    await db().deleteFrom("users").execute();
    const res = await call(multiple, "/api/get-multiple-users-by-fid?fids=4,999,2,3,2");
    expect(res.status, res.text).toBe(200);
    expect(res.body.users.map((u: any) => u.fid)).toEqual([4, 2, 3]);
    expect(neynar.calls("/v2/farcaster/user/bulk").length).toBe(before + 1);
  });

  it("fetches only the stale or missing ones", async () => {
    await call(multiple, "/api/get-multiple-users-by-fid?fids=2,3");
    await age(3, 600);
    await call(multiple, "/api/get-multiple-users-by-fid?fids=2,3,4");
    const last = neynar.calls("/v2/farcaster/user/bulk").at(-1)!;
    expect(last.query.get("fids")!.split(",").sort()).toEqual(expect.arrayContaining(["3"]));
    expect(last.query.get("fids")!.split(",")).not.toContain("2");
  });

  it("answers an empty list without fids, and accepts 100 FIDs but not 101", async () => {
    expect((await call(multiple, "/api/get-multiple-users-by-fid")).body).toEqual({ users: [] });
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1).join(",");
    expect((await call(multiple, `/api/get-multiple-users-by-fid?fids=${hundred}`)).status).toBe(200);
    expectError(await call(multiple, `/api/get-multiple-users-by-fid?fids=${hundred},101`), 400, "invalid_request");
  });

  it("serves what is stored when the provider fails; 503 when nothing is", async () => {
    await call(multiple, "/api/get-multiple-users-by-fid?fids=2");
    await age(2, 600);
    neynar.fail({ status: 500 });
    expect(
      (await call(multiple, "/api/get-multiple-users-by-fid?fids=2,4242")).body.users.map((u: any) => u.fid),
    ).toEqual([2]);
    expectError(await call(multiple, "/api/get-multiple-users-by-fid?fids=4242"), 503, "provider_unavailable");
  });

  it.each(["1,,2", ",1", ",", "a,b", "0", "1;2"])("rejects fids=%s", async (f) => {
    expectError(await call(multiple, `/api/get-multiple-users-by-fid?fids=${f}`), 400, "invalid_request");
  });

  it("takes spaces around each FID of the list (fids=1,%202), as around a single number", async () => {
    const spaced = await call(multiple, "/api/get-multiple-users-by-fid?fids=2,%204242%20,%202");
    const plain = await call(multiple, "/api/get-multiple-users-by-fid?fids=2,4242");
    expect(spaced.status).toBe(200);
    expect(spaced.body).toEqual(plain.body);
  });

  it("takes a comma after the last FID (fids=2,4242,), as a loop that appends one after each writes it", async () => {
    const trailing = await call(multiple, "/api/get-multiple-users-by-fid?fids=2,4242,");
    const plain = await call(multiple, "/api/get-multiple-users-by-fid?fids=2,4242");
    expect(trailing.status, trailing.text).toBe(200);
    expect(trailing.body).toEqual(plain.body);
  });

  it("takes the key given more than once (fids=2&fids=4242) as one list of all its values", async () => {
    const repeated = await call(multiple, "/api/get-multiple-users-by-fid?fids=2&fids=4242,2");
    const plain = await call(multiple, "/api/get-multiple-users-by-fid?fids=2,4242");
    expect(repeated.status, repeated.text).toBe(200);
    expect(repeated.body).toEqual(plain.body);
  });

  it("answers fids= (empty) as if fids were absent: no users", async () => {
    const res = await call(multiple, "/api/get-multiple-users-by-fid?fids=");
    expect([res.status, res.body]).toEqual([200, { users: [] }]);
  });
});
