// Partner endpoints: /api/tokens/authenticated, get-token-by-address, get-tokens-by-fid, fetch-by-admin,
// is-blocked (and the block/unblock functions behind `npm run tokens`). Each runs the auth matrix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as authenticated } from "@/app/api/tokens/authenticated/route";
import { GET as byAddress } from "@/app/api/get-token-by-address/route";
import { GET as byFid } from "@/app/api/get-tokens-by-fid/route";
import { GET as byAdmin } from "@/app/api/tokens/fetch-by-admin/route";
import { GET as isBlocked } from "@/app/api/tokens/is-blocked/route";
import { blockToken, unblockToken } from "@/lib/domains/tokens/service";
import { authMatrix, partnerKey, startIssuer, type Issuer } from "@/tests/helpers/auth";
import { call, expectError } from "@/tests/helpers/http";
import { address, insertMarket, insertTokens, insertUser } from "./fixtures";

const MINT = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
let issuer: Issuer;
let key: string;
const partner = () => ({ "x-api-key": key });

beforeAll(async () => {
  issuer = await startIssuer();
  key = await partnerKey();
  const rows = await insertTokens([
    ...Array.from({ length: 12 }, (_, i) => ({ requestor_fid: 42, admin: address("a", 1), name: `Fid Token ${i}` })),
    {
      requestor_fid: 43,
      admin: address("a", 2),
      name: "Social",
      contract_address: address("c", 5000),
      chain_id: 8453,
      metadata: {
        description: "d",
        socialMediaUrls: [
          { platform: "X", url: "https://x.com/social" },
          { platform: "web" },
          { platform: "website", url: "https://social.example" },
          { platform: "twitter", url: "https://x.com/second" },
        ],
        auditUrls: [],
      },
    },
    {
      requestor_fid: 43,
      admin: address("a", 2),
      name: "Social on Arbitrum",
      contract_address: address("c", 5000),
      chain_id: 42161,
    },
    {
      requestor_fid: null,
      admin: address("a", 2),
      name: "Solana Mint",
      contract_address: MINT,
      pool_address: null,
      chain_id: 900,
    },
  ]);
  await insertMarket([{ token_id: rows[0].id, market_cap_usd: 1234 }]);
  await insertUser(43, "carol", [address("f", 43)]);
});

afterAll(() => issuer.close());

describe("GET /api/tokens/authenticated", () => {
  authMatrix(
    "partner",
    (headers) => call(authenticated, "/api/tokens/authenticated", { headers }),
    () => issuer,
  );

  it("is GET /api/tokens for partners, with limit up to 200 and no shared cache", async () => {
    const res = await call(authenticated, "/api/tokens/authenticated?limit=200&fids=42&includeMarket=true", {
      headers: partner(),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ total: 12, tokensDeployed: 12, cursor: null });
    expect(res.body.data).toHaveLength(12);
    expect(res.body.data[11].related!.market!.marketCap).toBe(1234);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("rejects fid and the other bad values by name", async () => {
    for (const [qs, param] of [
      ["fid=42", "fid"],
      ["limit=-1", "limit"],
      ["sortBy=x", "sortBy"],
      ["offset=1001", "offset"],
    ]) {
      const error = expectError(
        await call(authenticated, `/api/tokens/authenticated?${qs}`, { headers: partner() }),
        400,
        "invalid_request",
      );
      expect(error.error.startsWith(`${param}: `), error.error).toBe(true);
    }
  });
});

describe("GET /api/get-token-by-address", () => {
  authMatrix(
    "partner",
    (headers) => call(byAddress, `/api/get-token-by-address?address=${address("c", 5000)}`, { headers }),
    () => issuer,
  );

  it("answers the token (default chain first) with its creator, social URLs and verified address under the platform's names; cached 2 minutes", async () => {
    const res = await call(
      byAddress,
      `/api/get-token-by-address?address=${address("c", 5000).toUpperCase().replace("0X", "0x")}`,
      { headers: partner() },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      name: "Social",
      chain_id: 8453,
      twitterUrl: "https://x.com/social",
      websiteUrl: "https://social.example",
      telegramUrl: null,
      discordUrl: null,
      farcasterUrl: null,
      related: { user: { fid: 43, username: "carol" } },
    });
    expect(res.body.data).not.toHaveProperty("social_urls");
    expect(res.body.data.farcasterVerifiedEthAddress!.toLowerCase()).toBe(address("f", 43));
    expect(res.headers.get("cache-control")).toBe("private, max-age=120");
  });

  it("finds a Solana mint by its exact (case-sensitive) base58 address", async () => {
    const res = await call(byAddress, `/api/get-token-by-address?address=${MINT}`, { headers: partner() });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      name: "Solana Mint",
      contract_address: MINT,
      related: { user: null },
      twitterUrl: null,
      websiteUrl: null,
      farcasterVerifiedEthAddress: null,
    });
    expectError(
      await call(byAddress, `/api/get-token-by-address?address=${MINT.toLowerCase()}`, { headers: partner() }),
      404,
      "not_found",
    );
  });

  it("answers 404 in the envelope for an unknown address, 400 for a malformed one", async () => {
    expectError(
      await call(byAddress, `/api/get-token-by-address?address=${address("c", 999)}`, { headers: partner() }),
      404,
      "not_found",
    );
    for (const bad of ["0x123", "not-an-address", `0OIl${"1".repeat(36)}`, ""]) {
      const error = expectError(
        await call(byAddress, `/api/get-token-by-address?address=${bad}`, { headers: partner() }),
        400,
        "invalid_request",
      );
      expect(error.error).toMatch(/^address: /);
    }
    expect(
      expectError(await call(byAddress, "/api/get-token-by-address", { headers: partner() }), 400, "invalid_request")
        .error,
    ).toMatch(/^address: /);
  });
});

describe("GET /api/get-tokens-by-fid", () => {
  authMatrix(
    "partner",
    (headers) => call(byFid, "/api/get-tokens-by-fid?fid=42", { headers }),
    () => issuer,
  );

  it("pages by 10 with pagination totals; cached 5 seconds", async () => {
    const first = await call(byFid, "/api/get-tokens-by-fid?fid=42", { headers: partner() });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toHaveLength(10);
    expect(first.body.pagination).toMatchObject({ total: 12, totalPages: 2 });
    expect(first.headers.get("cache-control")).toBe("private, max-age=5");
    const second = await call(byFid, `/api/get-tokens-by-fid?fid=42&cursor=${first.body.pagination.cursor}`, {
      headers: partner(),
    });
    expect(second.body.data.map((t: { name: string }) => t.name)).toEqual(["Fid Token 1", "Fid Token 0"]);
    expect(second.body.pagination.cursor).toBeNull();
  });

  it("requires a positive fid", async () => {
    for (const qs of ["", "fid=0", "fid=-3", "fid=x", "fid=1.5"]) {
      expect(
        expectError(await call(byFid, `/api/get-tokens-by-fid?${qs}`, { headers: partner() }), 400, "invalid_request")
          .error,
      ).toMatch(/^fid: /);
    }
  });
});

describe("GET /api/tokens/fetch-by-admin", () => {
  authMatrix(
    "partner",
    (headers) => call(byAdmin, `/api/tokens/fetch-by-admin?admin=${address("a", 1)}`, { headers }),
    () => issuer,
  );

  it("lists the admin's tokens with limit, cursor, chainId, includeUser and includeMarket", async () => {
    const page = await call(byAdmin, `/api/tokens/fetch-by-admin?admin=${address("a", 2)}&limit=1&includeUser=true`, {
      headers: partner(),
    });
    expect(page.status, page.text).toBe(200);
    expect(page.body).toMatchObject({ total: 3 });
    expect(page.body.data[0].name).toBe("Solana Mint");
    expect(page.body.data[0].related).toEqual({ user: null });
    expect(page.headers.get("cache-control")).toBe("no-store");
    const next = await call(
      byAdmin,
      `/api/tokens/fetch-by-admin?admin=${address("a", 2)}&limit=1&includeUser=true&cursor=${page.body.cursor}`,
      { headers: partner() },
    );
    expect(next.body.data[0]).toMatchObject({ name: "Social on Arbitrum" });
    const arbitrum = await call(
      byAdmin,
      `/api/tokens/fetch-by-admin?admin=${address("a", 2)}&chainId=8453&includeMarket=true`,
      { headers: partner() },
    );
    expect(arbitrum.body.data.map((t: { name: string }) => t.name)).toEqual(["Social"]);
    expect(arbitrum.body.data[0].related).toEqual({ market: null });
  });

  it("rejects a missing admin, a limit below 1 and other bad values by name", async () => {
    const base = `/api/tokens/fetch-by-admin?admin=${address("a", 1)}`;
    for (const [path, param] of [
      ["/api/tokens/fetch-by-admin", "admin"],
      ["/api/tokens/fetch-by-admin?admin=0xzz", "admin"],
      [`${base}&limit=0`, "limit"],
      [`${base}&limit=ten`, "limit"],
      [`${base}&chainId=-1`, "chainId"],
      [`${base}&includeUser=y`, "includeUser"],
      [`${base}&includeMarket=n`, "includeMarket"],
      [`${base}&cursor=%7B%7D`, "cursor"],
    ]) {
      expect(
        expectError(await call(byAdmin, path, { headers: partner() }), 400, "invalid_request").error.startsWith(
          `${param}: `,
        ),
      ).toBe(true);
    }
  });
});

describe("GET /api/tokens/is-blocked", () => {
  const token = address("c", 7777);
  authMatrix(
    "partner",
    (headers) => call(isBlocked, `/api/tokens/is-blocked?address=${token}`, { headers }),
    () => issuer,
  );

  const ask = async (qs: string) => {
    const res = await call(isBlocked, `/api/tokens/is-blocked?${qs}`, { headers: partner() });
    expect(res.status, res.text).toBe(200);
    return res;
  };

  it("answers per chain or globally, after block and unblock", async () => {
    const first = await ask(`address=${token}`);
    expect(first.body).toEqual({ address: first.body.address, chainId: null, blocked: false });
    expect(first.body.address.toLowerCase()).toBe(token);
    expect(first.headers.get("cache-control")).toBe("private, max-age=60");

    await blockToken(token, 8453, "scam");
    await blockToken(token, 8453, "scam, again"); // idempotent
    expect((await ask(`address=${token}&chainId=8453`)).body).toMatchObject({ chainId: 8453, blocked: true });
    expect((await ask(`address=${token}&chainId=10`)).body).toMatchObject({ chainId: 10, blocked: false });
    expect((await ask(`address=${token}`)).body.blocked).toBe(true); // the global check sees any block

    await blockToken(token, null, "everywhere");
    expect((await ask(`address=${token}&chainId=10`)).body.blocked).toBe(true);
    expect(await unblockToken(token, null)).toBe(true);
    expect(await unblockToken(token, null)).toBe(false);
    expect((await ask(`address=${token}&chainId=10`)).body.blocked).toBe(false);
    expect(await unblockToken(token, 8453)).toBe(true);
    expect((await ask(`address=${token}`)).body.blocked).toBe(false);
  });

  it("rejects a bad address or chainId by name", async () => {
    for (const [qs, param] of [
      ["", "address"],
      ["address=0x1", "address"],
      [`address=${token}&chainId=abc`, "chainId"],
    ]) {
      expect(
        expectError(
          await call(isBlocked, `/api/tokens/is-blocked?${qs}`, { headers: partner() }),
          400,
          "invalid_request",
        ).error.startsWith(`${param}: `),
      ).toBe(true);
    }
  });
});
