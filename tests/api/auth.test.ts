// Auth through route(): the shared matrix on partner, user and admin routes built here, then each credential
// kind's own cases (JWT validation, Privy ES256, the dev issuer, API keys, admin cookies, key-server outages).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportSPKI, generateKeyPair, SignJWT } from "jose";
import { z } from "zod";
import { route } from "@/lib/http/route";
import { notFound } from "@/lib/core/errors";
import { resetConfig } from "@/lib/core/config";
import { createApiKey, revokeApiKey } from "@/lib/domains/partners/apikeys";
import { DEV_ISSUER, issueDevToken, resetUserTokenVerifiers } from "@/lib/http/auth/user-tokens";
import { devIssuerSecret } from "@/lib/http/auth/secrets";
import { ADMIN_COOKIE, signAdminSession } from "@/lib/http/auth/admin";
import {
  AUDIENCE,
  ISSUER,
  authMatrix,
  partnerKey,
  startIssuer,
  unsignedToken,
  type Issuer,
} from "@/tests/helpers/auth";
import { call, expectError } from "@/tests/helpers/http";
import { startFakeServer } from "@/tests/helpers/fake-server";

let issuer: Issuer;
beforeAll(async () => {
  issuer = await startIssuer([1]);
  await partnerKey("warm-up"); // opens the database before any test changes DATABASE_URL
});
afterAll(() => issuer?.close());

const partnerRoute = route({ auth: "partner", handler: ({ principal }) => ({ partner: principal.name }) });
const userRoute = route({
  auth: "user",
  handler: ({ principal }) => ({ userId: principal.userId, fid: principal.fid, issuer: principal.issuer }),
});
const adminRoute = route({ auth: "admin", handler: ({ principal }) => ({ via: principal.via }) });
const optionalAdminRoute = route({ auth: "optionalAdmin", handler: ({ principal }) => ({ kind: principal.kind }) });
const optionalUserRoute = route({ auth: "optionalUser", handler: ({ principal }) => ({ kind: principal.kind }) });
/** An object owned by a user: someone else's answers 404, not 403 (existence is not disclosed). */
const ownedObjectRoute = route({
  auth: "user",
  params: z.object({ owner: z.string() }),
  handler: ({ principal, params }) => {
    if (params.owner !== principal.userId) throw notFound("no such object");
    return { owner: params.owner };
  },
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("auth matrix: partner route", () => {
  authMatrix(
    "partner",
    (headers) => call(partnerRoute, "/api/t", { headers }),
    () => issuer,
  );
  it("accepts a live key", async () => {
    const res = await call(partnerRoute, "/api/t", { headers: { "x-api-key": await partnerKey("acme") } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ partner: "acme" });
  });
});

describe("auth matrix: user route", () => {
  authMatrix(
    "user",
    (headers) => call(ownedObjectRoute, "/api/t/fid:7", { headers, params: { owner: "fid:7" } }),
    () => issuer,
    async () =>
      call(ownedObjectRoute, "/api/t/fid:8", { headers: bearer(await issuer.token(7)), params: { owner: "fid:8" } }),
  );
  it("accepts a Quick Auth token and gives the FID", async () => {
    const res = await call(userRoute, "/api/t", { headers: bearer(await issuer.token(7)) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ userId: "fid:7", fid: 7, issuer: "farcaster" });
  });
});

describe("auth matrix: admin route", () => {
  authMatrix(
    "admin",
    (headers) => call(adminRoute, "/api/t", { headers }),
    () => issuer,
  );
  it("answers 403 for a partner's API key", async () => {
    expectError(await call(adminRoute, "/api/t", { headers: { "x-api-key": await partnerKey() } }), 403, "forbidden");
  });
  it("accepts an admin FID's token in the Authorization header", async () => {
    const res = await call(adminRoute, "/api/t", { headers: bearer(await issuer.token(1)) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ via: "header" });
  });
});

describe("user tokens", () => {
  it("rejects a token signed by another key under the same kid", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: "test" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject("1")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
    expectError(await call(userRoute, "/api/t", { headers: bearer(forged) }), 401, "unauthorized");
    expectError(await call(adminRoute, "/api/t", { headers: bearer(forged) }), 401, "unauthorized");
  });

  it("rejects alg none even for an admin FID, and an HS256 token claiming the Farcaster issuer", async () => {
    expectError(await call(adminRoute, "/api/t", { headers: bearer(unsignedToken(1)) }), 401, "unauthorized");
    const hs = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject("1")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("x".repeat(32)));
    expectError(await call(userRoute, "/api/t", { headers: bearer(hs) }), 401, "unauthorized");
  });

  it("requires an expiry on a Quick Auth token and a lifetime within USER_TOKEN_MAX_LIFETIME_SECONDS", async () => {
    const now = Math.floor(Date.now() / 1000);
    const send = async (claims: Parameters<Issuer["token"]>[1]) =>
      call(userRoute, "/api/t", { headers: bearer(await issuer.token(1, claims)) });
    expectError(await send({ exp: null }), 401, "unauthorized");
    expectError(await send({ exp: null, iat: null }), 401, "unauthorized");
    expectError(
      await call(adminRoute, "/api/t", { headers: bearer(await issuer.token(1, { exp: null })) }),
      401,
      "unauthorized",
    );
    expectError(await send({ exp: now + 2 * 86_400 }), 401, "unauthorized");
    expectError(await send({ iat: null, exp: now + 2 * 86_400 }), 401, "unauthorized"); // no iat: counted from now
    expectError(await send({ iat: now + 30 * 86_400, exp: now + 30 * 86_400 + 3600 }), 401, "unauthorized"); // iat in the future
    expect((await send({})).status).toBe(200); // as Quick Auth issues them: iat now, exp 1 h later
    expect((await send({ iat: null })).status).toBe(200);
    expect((await send({ iat: now - 3000, exp: now + 600 })).status).toBe(200);
  });

  it("takes the longest lifetime from USER_TOKEN_MAX_LIFETIME_SECONDS", async () => {
    process.env.USER_TOKEN_MAX_LIFETIME_SECONDS = "600";
    resetConfig();
    try {
      expectError(await call(userRoute, "/api/t", { headers: bearer(await issuer.token(7)) }), 401, "unauthorized");
      const short = await issuer.token(7, { exp: Math.floor(Date.now() / 1000) + 600 });
      expect((await call(userRoute, "/api/t", { headers: bearer(short) })).status).toBe(200);
    } finally {
      delete process.env.USER_TOKEN_MAX_LIFETIME_SECONDS;
      resetConfig();
    }
  });

  it("rejects a subject that is not a FID", async () => {
    const res = await call(userRoute, "/api/t", { headers: bearer(await issuer.token("abc" as unknown as number)) });
    expectError(res, 401, "unauthorized");
  });

  it("treats optional auth as public when the token is bad, and as the user when it is good", async () => {
    expect((await call(optionalUserRoute, "/api/t", { headers: bearer("not.a.jwt") })).body).toEqual({
      kind: "public",
    });
    expect((await call(optionalUserRoute, "/api/t", { headers: bearer(await issuer.token(9)) })).body).toEqual({
      kind: "user",
    });
    expect((await call(optionalAdminRoute, "/api/t", { headers: bearer(await issuer.token(9)) })).body).toEqual({
      kind: "public",
    });
    expect((await call(optionalAdminRoute, "/api/t", { headers: bearer(await issuer.token(1)) })).body).toEqual({
      kind: "admin",
    });
  });
});

describe("the issuer's key server is down", () => {
  /**
   * Points the verifier at another key server for one test, then back at the issuer's. `timeoutMs`: short only where
   * the server hangs; a key set that does come must not miss it on a loaded machine.
   */
  async function withKeyServer(
    reply: Parameters<typeof startFakeServer>[0],
    run: () => Promise<unknown>,
    timeoutMs = 5000,
  ) {
    const server = await startFakeServer(reply);
    process.env.FARCASTER_JWKS_URL = `${server.url}/.well-known/jwks.json`;
    process.env.PROVIDER_TIMEOUT_MS = String(timeoutMs);
    resetConfig();
    resetUserTokenVerifiers(); // forget the cached key set
    try {
      await run();
    } finally {
      process.env.FARCASTER_JWKS_URL = `${issuer.jwks.url}/.well-known/jwks.json`;
      delete process.env.PROVIDER_TIMEOUT_MS;
      resetConfig();
      resetUserTokenVerifiers();
      await server.close();
    }
  }

  it("answers 503 provider_unavailable with Retry-After, not 401, when it fails", () =>
    withKeyServer(
      () => ({ status: 502, text: "bad gateway" }),
      async () => {
        const token = await issuer.token(7);
        for (const handler of [userRoute, adminRoute, optionalUserRoute]) {
          const res = await call(handler, "/api/t", { headers: bearer(token) });
          expectError(res, 503, "provider_unavailable");
          expect(res.headers.get("retry-after")).toBe("5");
        }
        // On a partner route the token only picks 401 vs 403: the outage must not surface there.
        expectError(await call(partnerRoute, "/api/t", { headers: bearer(token) }), 401, "unauthorized");
      },
    ));

  it("answers 503 when it does not answer in time, or answers something that is not a key set", async () => {
    await withKeyServer(
      () => ({ hang: true }),
      async () =>
        expectError(
          await call(userRoute, "/api/t", { headers: bearer(await issuer.token(7)) }),
          503,
          "provider_unavailable",
        ),
      300,
    );
    await withKeyServer(
      () => ({ text: "<html>maintenance</html>" }),
      async () =>
        expectError(
          await call(userRoute, "/api/t", { headers: bearer(await issuer.token(7)) }),
          503,
          "provider_unavailable",
        ),
    );
  });

  it("still answers 401 when the key set simply has no key for the token", () =>
    withKeyServer(
      () => ({ json: { keys: [] } }),
      async () =>
        expectError(await call(userRoute, "/api/t", { headers: bearer(await issuer.token(7)) }), 401, "unauthorized"),
    ));
});

describe("Privy identity tokens (ES256, key from the environment)", () => {
  let sign: (
    claims: Record<string, unknown>,
    options?: { aud?: string; iss?: string; exp?: number | null },
  ) => Promise<string>;
  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    process.env.PRIVY_APP_ID = "privy-app-id";
    // As a one-line environment value, with literal \n (the form .env files and dashboards hold).
    process.env.PRIVY_VERIFICATION_KEY = (await exportSPKI(publicKey)).trim().replace(/\n/g, "\\n");
    resetConfig();
    resetUserTokenVerifiers();
    sign = (claims, options = {}) => {
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", typ: "JWT" })
        .setIssuer(options.iss ?? "privy.io")
        .setAudience(options.aud ?? "privy-app-id")
        .setSubject("did:privy:cm0abc")
        .setIssuedAt();
      if (options.exp !== null) jwt.setExpirationTime(options.exp ?? "1h"); // Privy's default lifetime
      return jwt.sign(privateKey);
    };
  });
  afterAll(() => {
    delete process.env.PRIVY_APP_ID;
    delete process.env.PRIVY_VERIFICATION_KEY;
    resetConfig();
    resetUserTokenVerifiers();
  });

  it("gives the FID of a linked Farcaster account", async () => {
    const token = await sign({
      linked_accounts: JSON.stringify([
        { type: "wallet", address: "0x1" },
        { type: "farcaster", fid: 42 },
      ]),
    });
    const res = await call(userRoute, "/api/t", { headers: bearer(token) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ userId: "fid:42", fid: 42, issuer: "privy" });
  });

  it("identifies a user without Farcaster by the Privy DID", async () => {
    const res = await call(userRoute, "/api/t", { headers: bearer(await sign({})) });
    expect(res.body).toEqual({ userId: "privy:did:privy:cm0abc", fid: null, issuer: "privy" });
  });

  it("makes an admin FID's Privy token an admin", async () => {
    const token = await sign({ linked_accounts: [{ type: "farcaster", fid: 1 }] });
    expect((await call(adminRoute, "/api/t", { headers: bearer(token) })).body).toEqual({ via: "header" });
  });

  it("requires an expiry and a lifetime within USER_TOKEN_MAX_LIFETIME_SECONDS", async () => {
    expectError(
      await call(userRoute, "/api/t", { headers: bearer(await sign({}, { exp: null })) }),
      401,
      "unauthorized",
    );
    const longLived = await sign({}, { exp: Math.floor(Date.now() / 1000) + 30 * 86_400 });
    expectError(await call(userRoute, "/api/t", { headers: bearer(longLived) }), 401, "unauthorized");
    expect((await call(userRoute, "/api/t", { headers: bearer(await sign({})) })).status).toBe(200);
  });

  it("rejects another app's audience and a key that is not the configured one", async () => {
    expectError(
      await call(userRoute, "/api/t", { headers: bearer(await sign({}, { aud: "other-app" })) }),
      401,
      "unauthorized",
    );
    const { privateKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256" })
      .setIssuer("privy.io")
      .setAudience("privy-app-id")
      .setSubject("did:privy:x")
      .setExpirationTime("1h")
      .sign(privateKey);
    expectError(await call(userRoute, "/api/t", { headers: bearer(forged) }), 401, "unauthorized");
  });
});

describe("the development issuer", () => {
  const original = { DATABASE_URL: process.env.DATABASE_URL, DEV_AUTH: process.env.DEV_AUTH };
  const withEnv = async (env: Record<string, string | undefined>, run: () => Promise<void>) => {
    for (const [k, v] of Object.entries(env)) v === undefined ? delete process.env[k] : (process.env[k] = v);
    resetConfig();
    try {
      await run();
    } finally {
      for (const [k, v] of Object.entries(original)) v === undefined ? delete process.env[k] : (process.env[k] = v);
      resetConfig();
    }
  };

  it("works on the embedded default", () =>
    withEnv({ DATABASE_URL: undefined }, async () => {
      const res = await call(userRoute, "/api/t", { headers: bearer(await issueDevToken(123)) });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ userId: "fid:123", fid: 123, issuer: "dev" });
    }));

  it("requires an expiry and a lifetime within USER_TOKEN_MAX_LIFETIME_SECONDS", () =>
    withEnv({ DATABASE_URL: undefined }, async () => {
      const noExpiry = await new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer(DEV_ISSUER)
        .setAudience("dev")
        .setSubject("5")
        .setIssuedAt()
        .sign(devIssuerSecret()!);
      expectError(await call(userRoute, "/api/t", { headers: bearer(noExpiry) }), 401, "unauthorized");
      expectError(
        await call(userRoute, "/api/t", { headers: bearer(await issueDevToken(5, 30 * 86_400)) }),
        401,
        "unauthorized",
      );
      expect((await call(userRoute, "/api/t", { headers: bearer(await issueDevToken(5)) })).status).toBe(200);
    }));

  it("is refused, issuing and verifying, once a DATABASE_URL is set", async () => {
    let token = "";
    await withEnv({ DATABASE_URL: undefined }, async () => void (token = await issueDevToken(1)));
    await withEnv({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" }, async () => {
      await expect(issueDevToken(1)).rejects.toThrow(/embedded default/);
      expectError(await call(userRoute, "/api/t", { headers: bearer(token) }), 401, "unauthorized");
      expectError(await call(adminRoute, "/api/t", { headers: bearer(token) }), 401, "unauthorized");
    });
  });

  it("is refused with DEV_AUTH=false", async () => {
    let token = "";
    await withEnv({ DATABASE_URL: undefined }, async () => void (token = await issueDevToken(1)));
    await withEnv({ DATABASE_URL: undefined, DEV_AUTH: "false" }, async () => {
      expectError(await call(userRoute, "/api/t", { headers: bearer(token) }), 401, "unauthorized");
    });
  });
});

describe("partner API keys", () => {
  it("stops working once revoked, and a revoked prefix cannot be revoked twice", async () => {
    const { key, prefix } = await createApiKey("to-revoke");
    expect((await call(partnerRoute, "/api/t", { headers: { "x-api-key": key } })).status).toBe(200);
    expect(await revokeApiKey(prefix)).toBe(true);
    expect(await revokeApiKey(prefix)).toBe(false);
    expectError(await call(partnerRoute, "/api/t", { headers: { "x-api-key": key } }), 401, "unauthorized");
  });

  it("rejects an unknown key of the right shape and a key with one character changed", async () => {
    const { key } = await createApiKey("shape");
    const changed = key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");
    expectError(await call(partnerRoute, "/api/t", { headers: { "x-api-key": changed } }), 401, "unauthorized");
  });

  it("answers 403 on a user route for a valid key", async () => {
    expectError(await call(userRoute, "/api/t", { headers: { "x-api-key": await partnerKey() } }), 403, "forbidden");
  });
});

describe("admin session cookie", () => {
  const cookie = (value: string) => ({ cookie: `theme=dark; ${ADMIN_COOKIE}=${value}` });
  const secret = () => new TextEncoder().encode(process.env.SESSION_SECRET!);

  it("is accepted on admin and optionalAdmin routes", async () => {
    const session = (await signAdminSession("fid:1"))!;
    expect((await call(adminRoute, "/api/t", { headers: cookie(session) })).body).toEqual({ via: "cookie" });
    expect((await call(optionalAdminRoute, "/api/t", { headers: cookie(session) })).body).toEqual({ kind: "admin" });
  });

  it("rejects a cookie signed with another key, an expired one, a tampered one, and a user token in its place", async () => {
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setAudience("admin_session")
      .setSubject("fid:1")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-of-at-least-32-chars!"));
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setAudience("admin_session")
      .setSubject("fid:1")
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret());
    const noExpiry = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setAudience("admin_session")
      .setSubject("fid:1")
      .sign(secret());
    const good = (await signAdminSession("fid:1"))!;
    const [h, , s] = good.split(".");
    const tampered = `${h}.${Buffer.from(JSON.stringify({ aud: "admin_session", sub: "fid:2", exp: 9_999_999_999 })).toString("base64url")}.${s}`;
    for (const value of [forged, expired, noExpiry, tampered, await issuer.token(1), "garbage"]) {
      expectError(await call(adminRoute, "/api/t", { headers: cookie(value) }), 401, "unauthorized");
      expect((await call(optionalAdminRoute, "/api/t", { headers: cookie(value) })).body).toEqual({ kind: "public" });
    }
  });
});
