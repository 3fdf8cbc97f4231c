// A local stand-in for Neynar's v2 API answering with the documented shapes (users, 404 ErrorRes,
// following pages with a cursor). Tests add users, follows and failure modes.
import { startFakeServer, type FakeReply, type FakeRequest, type FakeServer } from "@/tests/helpers/fake-server";
import { resetConfig } from "@/lib/core/config";

export const NEYNAR_KEY = "test-neynar-key";

export type FakeUserInput = {
  fid: number;
  username: string;
  displayName?: string;
  custody?: string;
  verified?: string[];
  x?: string;
  followers?: number;
  score?: number;
};

/** The documented user object (GET /v2/farcaster/user/bulk and friends). */
export function neynarUserObject(u: FakeUserInput) {
  const custody = u.custody ?? `0x${u.fid.toString(16).padStart(40, "c")}`;
  const verified = u.verified ?? [];
  return {
    object: "user",
    fid: u.fid,
    username: u.username,
    display_name: u.displayName ?? u.username.toUpperCase(),
    pfp_url: `https://img.example/${u.fid}.png`,
    custody_address: custody,
    registered_at: "2023-11-07T05:31:56Z",
    profile: { bio: { text: `bio of ${u.username}`, mentioned_profiles: [] } },
    follower_count: u.followers ?? 10,
    following_count: 5,
    verifications: verified,
    auth_addresses: [],
    verified_addresses: {
      eth_addresses: verified,
      sol_addresses: [],
      primary: { eth_address: verified[0] ?? null, sol_address: null },
    },
    verified_accounts: u.x ? [{ platform: "x", username: u.x }] : [],
    power_badge: false,
    score: u.score ?? 0.5,
    experimental: { neynar_user_score: u.score ?? 0.5, deprecation_notice: "" },
  };
}

export type Failure = { status?: number; retryAfter?: string; hang?: boolean; times?: number; json?: unknown };

export type FakeNeynar = {
  server: FakeServer;
  users: Map<number, ReturnType<typeof neynarUserObject>>;
  following: Map<number, number[]>;
  add(...users: FakeUserInput[]): void;
  /** The next `times` requests (default: all) fail this way. */
  fail(failure: Failure | null): void;
  calls(path?: string): FakeRequest[];
  close(): Promise<void>;
};

const notFoundBody = { code: "NotFound", message: "User not found", property: "fid", status: 404 };

function answer(fake: FakeNeynar, req: FakeRequest): FakeReply {
  const path = req.path.replace(/\/$/, "");
  const users = [...fake.users.values()];
  if (path === "/v2/farcaster/user/bulk") {
    const fids = (req.query.get("fids") ?? "").split(",").map(Number);
    return { json: { users: fids.flatMap((f) => (fake.users.has(f) ? [fake.users.get(f)!] : [])) } };
  }
  if (path === "/v2/farcaster/user/bulk-by-address") {
    const out: Record<string, unknown[]> = {};
    for (const a of (req.query.get("addresses") ?? "").toLowerCase().split(",")) {
      const holders = users.filter(
        (u) =>
          u.custody_address.toLowerCase() === a ||
          u.verified_addresses.eth_addresses.some((e) => e.toLowerCase() === a),
      );
      if (holders.length) out[a] = holders;
    }
    return Object.keys(out).length ? { json: out } : { status: 404, json: { ...notFoundBody, property: "addresses" } };
  }
  if (path === "/v2/farcaster/user/by_username") {
    const user = users.find((u) => u.username === req.query.get("username"));
    return user ? { json: { user } } : { status: 404, json: { ...notFoundBody, property: "username" } };
  }
  if (path === "/v2/farcaster/following") {
    const fid = Number(req.query.get("fid"));
    const limit = Number(req.query.get("limit") ?? 25);
    const start = Number(req.query.get("cursor") ?? 0);
    const all = fake.following.get(fid) ?? [];
    const page = all
      .slice(start, start + limit)
      .flatMap((f) => (fake.users.has(f) ? [{ object: "follow", user: fake.users.get(f)! }] : []));
    const next = start + limit < all.length ? String(start + limit) : null;
    return { json: { users: page, next: { cursor: next } } };
  }
  return { status: 404, json: { message: "no such route" } };
}

export async function startFakeNeynar(): Promise<FakeNeynar> {
  let failure: Failure | null = null;
  const fake = {} as FakeNeynar;
  fake.users = new Map();
  fake.following = new Map();
  fake.server = await startFakeServer((req) => {
    if (req.headers["x-api-key"] !== NEYNAR_KEY) return { status: 401, json: { message: "bad key" } };
    if (failure && (failure.times === undefined || failure.times-- > 0)) {
      if (failure.hang) return { hang: true };
      return {
        status: failure.status ?? 500,
        json: failure.json ?? { message: "boom" },
        headers: failure.retryAfter ? { "retry-after": failure.retryAfter } : {},
      };
    }
    return answer(fake, req);
  });
  fake.add = (...list) => {
    for (const u of list) fake.users.set(u.fid, neynarUserObject(u));
  };
  fake.fail = (f) => void (failure = f);
  fake.calls = (path) => fake.server.requests.filter((r) => !path || r.path.replace(/\/$/, "") === path);
  fake.close = () => fake.server.close();
  return fake;
}

/** Points the service at the fake (short timeout, fast retries) or, with null, removes the key. */
export function useNeynar(fake: FakeNeynar | null, overrides: Record<string, string> = {}): void {
  if (fake) {
    process.env.NEYNAR_API_KEY = NEYNAR_KEY;
    process.env.NEYNAR_BASE_URL = fake.server.url;
  } else {
    delete process.env.NEYNAR_API_KEY;
  }
  // Generous for a loaded CI machine; tests of a hanging provider pass a short one.
  process.env.PROVIDER_TIMEOUT_MS = "3000";
  process.env.NEYNAR_MAX_RETRIES = "2";
  process.env.NEYNAR_MAX_RETRY_WAIT_MS = "200";
  Object.assign(process.env, overrides);
  resetConfig();
}
