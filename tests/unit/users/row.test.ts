// How a provider user object becomes a users row, and back into the user object.
import { describe, expect, it } from "vitest";
import { neynarUser } from "@/lib/platform/neynar/schemas";
import { toUserObject } from "@/lib/domains/users/serialize";
import { rowFromProvider } from "@/lib/domains/users/serialize";
import { neynarUserObject } from "@/tests/api/users/neynar-fake";

const at = new Date("2026-01-01T00:00:00Z");

describe("rowFromProvider", () => {
  it("lowercases addresses, dedupes verifications and reads the X handle", () => {
    const user = neynarUser.parse({
      ...neynarUserObject({
        fid: 7,
        username: "seven",
        verified: ["0x00000000000000000000000000000000000000AB"],
        x: "seven_x",
        followers: 42,
        score: 0.8,
      }),
      verifications: ["0x00000000000000000000000000000000000000ab", "not-an-address"],
    });
    const row = rowFromProvider(user, at);
    expect(row).toMatchObject({
      fid: 7,
      username: "seven",
      verified_addresses: ["0x00000000000000000000000000000000000000ab"],
      twitter_username: "seven_x",
      follower_count: 42,
      neynar_score: 0.8,
      fetched_at: at,
    });
    expect(row.custody_address).toBe(row.custody_address?.toLowerCase());
  });

  it("copes with the optional members missing", () => {
    const row = rowFromProvider(neynarUser.parse({ fid: 9 }), at);
    expect(row).toMatchObject({
      fid: 9,
      username: null,
      verified_addresses: [],
      twitter_username: null,
      neynar_score: null,
      follower_count: 0,
    });
  });

  it("keeps every member the provider sent, and serves it back as the user object", () => {
    const original = { ...neynarUserObject({ fid: 8, username: "eight" }), pro: { status: "subscribed" } };
    const row = { ...rowFromProvider(neynarUser.parse(original), at), following_fetched_at: null };
    expect(toUserObject(row)).toEqual(original);
  });

  it("takes the experimental score when the top-level one is absent", () => {
    const u = neynarUserObject({ fid: 10, username: "ten" }) as Record<string, unknown>;
    delete u.score;
    u.experimental = { neynar_user_score: 0.33 };
    expect(rowFromProvider(neynarUser.parse(u), at).neynar_score).toBe(0.33);
  });
});
