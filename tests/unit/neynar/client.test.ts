// The Neynar client on its own: Retry-After parsing, retry bounds, validation, paging.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  fetchFollowing,
  fetchUserByUsername,
  fetchUsersByAddresses,
  fetchUsersByFids,
  ProviderError,
  retryAfterMs,
} from "@/lib/platform/neynar/client";
import { startFakeNeynar, useNeynar, type FakeNeynar } from "@/tests/api/users/neynar-fake";

describe("retryAfterMs", () => {
  it("reads seconds and HTTP dates, and ignores what it cannot read", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs("soon", now)).toBeNull();
  });
});

describe("Neynar client", () => {
  let neynar: FakeNeynar;
  beforeAll(async () => {
    neynar = await startFakeNeynar();
    neynar.add(
      { fid: 1, username: "one", verified: ["0x00000000000000000000000000000000000000Aa"] },
      { fid: 2, username: "two" },
    );
  });
  afterAll(() => neynar.close());
  beforeEach(() => {
    neynar.fail(null);
    useNeynar(neynar);
  });

  it("sends the key in x-api-key and FIDs comma-separated", async () => {
    const users = await fetchUsersByFids([1, 2, 3]);
    expect(users.map((u) => u.fid)).toEqual([1, 2]);
    const req = neynar.calls("/v2/farcaster/user/bulk").at(-1)!;
    expect(req.headers["x-api-key"]).toBe("test-neynar-key");
    expect(req.query.get("fids")).toBe("1,2,3");
  });

  it("refuses more than 100 FIDs in one call and sends nothing for none", async () => {
    const before = neynar.calls().length;
    expect(await fetchUsersByFids([])).toEqual([]);
    await expect(fetchUsersByFids(Array.from({ length: 101 }, (_, i) => i + 1))).rejects.toThrow(/at most 100/);
    expect(neynar.calls().length).toBe(before);
  });

  it("keys users by lowercase address and reads a 404 as nobody", async () => {
    const map = await fetchUsersByAddresses(["0x00000000000000000000000000000000000000aa"]);
    expect([...map.keys()]).toEqual(["0x00000000000000000000000000000000000000aa"]);
    expect((await fetchUsersByAddresses(["0x00000000000000000000000000000000000000bb"])).size).toBe(0);
    expect(await fetchUserByUsername("nobody")).toBeNull();
    expect((await fetchUserByUsername("two"))?.fid).toBe(2);
  });

  it("retries 5xx at most NEYNAR_MAX_RETRIES times", async () => {
    useNeynar(neynar, { NEYNAR_MAX_RETRIES: "2", NEYNAR_MAX_RETRY_WAIT_MS: "1000" });
    neynar.fail({ status: 502 });
    const before = neynar.calls().length;
    await expect(fetchUsersByFids([1])).rejects.toBeInstanceOf(ProviderError);
    expect(neynar.calls().length - before).toBe(3);
    useNeynar(neynar, { NEYNAR_MAX_RETRIES: "0" });
    const again = neynar.calls().length;
    await expect(fetchUsersByFids([1])).rejects.toBeInstanceOf(ProviderError);
    expect(neynar.calls().length - again).toBe(1);
  });

  it("waits Retry-After on a 429 and carries it on the error when it will not wait", async () => {
    neynar.fail({ status: 429, retryAfter: "0", times: 2 });
    expect((await fetchUsersByFids([1])).length).toBe(1);
    neynar.fail({ status: 429, retryAfter: "7" });
    const error = await fetchUsersByFids([1]).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.retryAfterSeconds).toBe(7);
  });

  it("does not retry other 4xx answers (a bad key is a provider failure)", async () => {
    useNeynar(neynar, { NEYNAR_API_KEY: "wrong" });
    const before = neynar.calls().length;
    await expect(fetchUsersByFids([1])).rejects.toBeInstanceOf(ProviderError);
    expect(neynar.calls().length - before).toBe(1);
  });

  it("rejects answers that are not JSON or not the documented shape", async () => {
    neynar.fail({ status: 200, json: { users: "nope" } });
    await expect(fetchUsersByFids([1])).rejects.toThrow(/unexpected answer/);
    neynar.fail({ status: 200, json: { user: { fid: 1, custody_address: "not-an-address" } } });
    await expect(fetchUserByUsername("one")).rejects.toBeInstanceOf(ProviderError);
  });

  it("times out a hanging provider", async () => {
    useNeynar(neynar, { PROVIDER_TIMEOUT_MS: "200" });
    neynar.fail({ hang: true });
    await expect(fetchUsersByFids([1])).rejects.toThrow(/timed out/);
  });

  it("fails without a key, without a call", async () => {
    useNeynar(null);
    await expect(fetchUsersByFids([1])).rejects.toThrow(/no profile provider/);
  });

  it("pages the following list with the cursor and stops at the bound", async () => {
    const fids = Array.from({ length: 230 }, (_, i) => 100 + i);
    neynar.add(...fids.map((fid) => ({ fid, username: `f${fid}` })));
    neynar.following.set(1, fids);
    const before = neynar.calls("/v2/farcaster/following").length;
    expect((await fetchFollowing(1, 1000))!.map((u) => u.fid)).toEqual(fids);
    const pages = neynar.calls("/v2/farcaster/following").slice(before);
    expect(pages.map((p) => [p.query.get("limit"), p.query.get("cursor")])).toEqual([
      ["100", null],
      ["100", "100"],
      ["100", "200"],
    ]);
    expect((await fetchFollowing(1, 150))!.length).toBe(150);
    expect(await fetchFollowing(2, 10)).toEqual([]);
  });
});
