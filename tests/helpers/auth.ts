// Credentials for tests: partner keys, user tokens from a local Farcaster-style issuer, admin sessions,
// and the shared auth matrix (docs/auth.md "Callers").
import { expect, it } from "vitest";
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from "jose";
import { createApiKey, revokeApiKey } from "@/lib/domains/partners/apikeys";
import { resetConfig } from "@/lib/core/config";
import { resetUserTokenVerifiers } from "@/lib/http/auth/user-tokens";
import { startFakeServer, type FakeServer } from "./fake-server";
import type { CallResult } from "./http";

export const AUDIENCE = "localhost:3000";
export const ISSUER = "https://auth.farcaster.xyz";

export async function partnerKey(name = "partner"): Promise<string> {
  return (await createApiKey(name)).key;
}

export async function revokedPartnerKey(): Promise<string> {
  const created = await createApiKey("revoked");
  await revokeApiKey(created.prefix);
  return created.key;
}

export type Issuer = {
  jwks: FakeServer;
  /**
   * A Quick Auth-shaped token for `fid` (issued now, valid 1 h, as auth.farcaster.xyz issues them); `claims`
   * overrides issuer, audience, issue and expiry times for negative cases, null leaving the claim out.
   */
  token(
    fid: number,
    claims?: { iss?: string; aud?: string; exp?: number | null; iat?: number | null },
  ): Promise<string>;
  close(): Promise<void>;
};

/** A local stand-in for auth.farcaster.xyz: an ES256 key served as a JWKS; the service verifies against it. */
export async function startIssuer(adminFids: number[] = [1]): Promise<Issuer> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test", alg: "ES256", use: "sig" };
  const jwks = await startFakeServer(() => ({ json: { keys: [jwk] } }));
  process.env.FARCASTER_JWKS_URL = `${jwks.url}/.well-known/jwks.json`;
  process.env.FARCASTER_AUTH_DOMAIN = AUDIENCE;
  process.env.ADMIN_FIDS = adminFids.join(",");
  process.env.ADMIN_SECRET = "test-admin-secret-0123456789";
  process.env.SESSION_SECRET = "test-session-secret-0123456789-0123456789";
  resetConfig();
  resetUserTokenVerifiers();
  return {
    jwks,
    token: (fid, claims = {}) => {
      const jwt = new SignJWT({})
        .setProtectedHeader({ alg: "ES256", kid: "test" })
        .setIssuer(claims.iss ?? ISSUER)
        .setAudience(claims.aud ?? AUDIENCE)
        .setSubject(String(fid));
      if (claims.iat !== null) jwt.setIssuedAt(claims.iat);
      if (claims.exp !== null) jwt.setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 3600);
      return jwt.sign(privateKey);
    },
    close: () => jwks.close(),
  };
}

export const PRIVY_APP_ID = "privy-app-id";

export type PrivyIssuer = {
  /**
   * A Privy identity token for the DID `did` (ES256, issuer privy.io, audience the app, valid 1 h): linked
   * accounts hold a Farcaster account when `fid` is given. `claims` overrides for negative cases.
   */
  identityToken(did: string, fid?: number, claims?: { aud?: string; exp?: number }): Promise<string>;
  /** A Privy access token for `did`: the same key, issuer and audience, a session id, no linked accounts. */
  accessToken(did: string, claims?: { aud?: string; exp?: number }): Promise<string>;
  /** Puts the environment back as it was (no Privy app). */
  close(): void;
};

/** A local stand-in for Privy: an ES256 key pair whose public half is the app's PRIVY_VERIFICATION_KEY. */
export async function startPrivyIssuer(): Promise<PrivyIssuer> {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  process.env.PRIVY_APP_ID = PRIVY_APP_ID;
  // As a one-line environment value, with literal \n (the form .env files and dashboards hold).
  process.env.PRIVY_VERIFICATION_KEY = (await exportSPKI(publicKey)).trim().replace(/\n/g, "\\n");
  resetConfig();
  resetUserTokenVerifiers();
  const sign = (claims: Record<string, unknown>, did: string, options: { aud?: string; exp?: number }) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", typ: "JWT" })
      .setIssuer("privy.io")
      .setAudience(options.aud ?? PRIVY_APP_ID)
      .setSubject(did)
      .setIssuedAt()
      .setExpirationTime(options.exp ?? "1h")
      .sign(privateKey);
  return {
    identityToken: (did, fid, claims = {}) =>
      sign({ linked_accounts: JSON.stringify(fid === undefined ? [] : [{ type: "farcaster", fid }]) }, did, claims),
    accessToken: (did, claims = {}) => sign({ sid: `session-${did}` }, did, claims),
    close: () => {
      delete process.env.PRIVY_APP_ID;
      delete process.env.PRIVY_VERIFICATION_KEY;
      resetConfig();
      resetUserTokenVerifiers();
    },
  };
}

/** An unsigned token (`alg: none`): must never be accepted. */
export function unsignedToken(fid: number): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  return `${enc({ alg: "none", typ: "JWT" })}.${enc({ iss: ISSUER, aud: AUDIENCE, sub: String(fid), iat: now, exp: now + 3600 })}.`;
}

type Send = (headers: Record<string, string>) => Promise<CallResult>;

let matrixAddresses = 0;

/**
 * The auth matrix: no credentials 401, bad credentials 401, wrong principal 403, someone else's object 404.
 * `getIssuer` is called lazily because the issuer starts in the file's beforeAll.
 */
export function authMatrix(
  mode: "partner" | "user" | "admin",
  send: Send,
  getIssuer: () => Issuer,
  othersObject?: Send,
) {
  const expectStatus = async (headers: Record<string, string>, status: number) => {
    // Each case from an address of its own: wrong keys are counted per client address (docs/auth.md), and a file
    // that runs the matrix on many routes would otherwise fill one address's count.
    const res = await send({ "x-forwarded-for": `2001:db8:a7:${(++matrixAddresses).toString(16)}::1`, ...headers });
    expect(res.status, res.text).toBe(status);
    expect(res.body?.code).toBe(status === 401 ? "unauthorized" : status === 403 ? "forbidden" : "not_found");
  };
  it("answers 401 without credentials", () => expectStatus({}, 401));
  if (mode === "partner") {
    it("answers 401 for an unknown API key", () => expectStatus({ "x-api-key": `tlk_${"x".repeat(32)}` }, 401));
    it("answers 401 for a malformed API key", () => expectStatus({ "x-api-key": "nope" }, 401));
    it("answers 401 for a revoked API key", async () => expectStatus({ "x-api-key": await revokedPartnerKey() }, 401));
    it("answers 403 for a user token instead of a key", async () =>
      expectStatus({ authorization: `Bearer ${await getIssuer().token(7)}` }, 403));
  } else {
    it("answers 401 for a garbage token", () => expectStatus({ authorization: "Bearer not.a.jwt" }, 401));
    it("answers 401 for alg none", () => expectStatus({ authorization: `Bearer ${unsignedToken(1)}` }, 401));
    it("answers 401 for an expired token", async () =>
      expectStatus(
        { authorization: `Bearer ${await getIssuer().token(1, { exp: Math.floor(Date.now() / 1000) - 60 })}` },
        401,
      ));
    it("answers 401 for a wrong audience", async () =>
      expectStatus({ authorization: `Bearer ${await getIssuer().token(1, { aud: "evil.example" })}` }, 401));
    it("answers 401 for a wrong issuer", async () =>
      expectStatus({ authorization: `Bearer ${await getIssuer().token(1, { iss: "https://evil.example" })}` }, 401));
    if (mode === "user") {
      it("answers 403 for an API key instead of a user token", async () =>
        expectStatus({ "x-api-key": await partnerKey() }, 403));
    } else {
      it("answers 403 for a user who is not an admin", async () =>
        expectStatus({ authorization: `Bearer ${await getIssuer().token(999)}` }, 403));
    }
  }
  if (othersObject) {
    it("answers 404 for someone else's object", async () => {
      const res = await othersObject({});
      expect(res.status, res.text).toBe(404);
      expect(res.body?.code).toBe("not_found");
    });
  }
}
