// User tokens: Farcaster Quick Auth JWTs, Privy identity tokens, and (embedded default only) a dev issuer.
import { createRemoteJWKSet, decodeJwt, errors, importSPKI, jwtVerify, SignJWT, type JWTPayload } from "jose";
import { config } from "@/lib/core/config";
import type { UserIdentity } from "@/lib/core/principal";
import { HttpError, providerUnavailable } from "@/lib/core/errors";
import { devIssuerSecret } from "./secrets";
import { remember } from "@/lib/core/remember";

export const DEV_ISSUER = "urn:token-launch:dev";
const PRIVY_ISSUER = "privy.io";

const holder = remember(
  "auth.user-token-keys",
  (): { farcasterJwks?: ReturnType<typeof createRemoteJWKSet>; privyKey?: Promise<CryptoKey> } => ({}),
);

function farcasterJwks() {
  holder.farcasterJwks ??= createRemoteJWKSet(new URL(config().FARCASTER_JWKS_URL), {
    timeoutDuration: config().PROVIDER_TIMEOUT_MS,
    cooldownDuration: 30_000,
  });
  return holder.farcasterJwks;
}

/**
 * The issuer's key set, where failing to fetch it (down, timeout, not 200, not a key set) is the
 * provider's outage (503), not the caller's bad token (401). A key set that has no key for the token is
 * the token's fault and stays a 401.
 */
const farcasterKey: Parameters<typeof jwtVerify>[1] = async (header, token) => {
  try {
    return await farcasterJwks()(header, token);
  } catch (error) {
    if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
    if (error instanceof errors.JOSENotSupported) throw error;
    throw providerUnavailable("the Farcaster auth key server is unavailable", 5);
  }
};

/**
 * A signed token without an expiry, or with one far off, stays a credential for as long as it leaks: each
 * verifier requires exp (jose's requiredClaims) and this bound. A future iat must not shorten the count.
 */
function assertBoundedLifetime(payload: JWTPayload): void {
  const now = Math.floor(Date.now() / 1000);
  const lifetime = payload.exp! - Math.min(payload.iat ?? now, now);
  if (lifetime > config().USER_TOKEN_MAX_LIFETIME_SECONDS)
    throw new Error("token lifetime exceeds USER_TOKEN_MAX_LIFETIME_SECONDS");
}

function fidFrom(value: unknown): number | null {
  const n = typeof value === "string" && /^\d{1,16}$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : null;
}

async function verifyFarcaster(token: string): Promise<UserIdentity> {
  const cfg = config();
  if (!cfg.FARCASTER_AUTH_DOMAIN) throw new Error("FARCASTER_AUTH_DOMAIN is not configured");
  const { payload } = await jwtVerify(token, farcasterKey, {
    issuer: cfg.FARCASTER_AUTH_ISSUER,
    audience: cfg.FARCASTER_AUTH_DOMAIN,
    algorithms: ["EdDSA", "ES256", "RS256"],
    requiredClaims: ["exp"],
  });
  assertBoundedLifetime(payload);
  const fid = fidFrom(payload.sub);
  if (!fid) throw new Error("subject is not a FID");
  return { userId: `fid:${fid}`, fid, issuer: "farcaster" };
}

/** Privy identity tokens carry the linked accounts; a linked Farcaster account gives the FID. */
function privyFid(payload: JWTPayload): number | null {
  const raw = payload.linked_accounts;
  try {
    const accounts = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ type?: string; fid?: unknown }>;
    const farcaster = Array.isArray(accounts) ? accounts.find((a) => a?.type === "farcaster") : undefined;
    return fidFrom(farcaster?.fid);
  } catch {
    return null;
  }
}

async function verifyPrivy(token: string): Promise<UserIdentity & { sub: string }> {
  const cfg = config();
  if (!cfg.PRIVY_APP_ID || !cfg.PRIVY_VERIFICATION_KEY) throw new Error("Privy is not configured");
  holder.privyKey ??= importSPKI(cfg.PRIVY_VERIFICATION_KEY.replace(/\\n/g, "\n"), "ES256");
  const { payload } = await jwtVerify(token, await holder.privyKey, {
    issuer: PRIVY_ISSUER,
    audience: cfg.PRIVY_APP_ID,
    algorithms: ["ES256"],
    requiredClaims: ["exp"],
  });
  assertBoundedLifetime(payload);
  if (!payload.sub) throw new Error("missing subject");
  const fid = privyFid(payload);
  return { userId: fid ? `fid:${fid}` : `privy:${payload.sub}`, fid, issuer: "privy", sub: payload.sub };
}

async function verifyDev(token: string, secret: Uint8Array): Promise<UserIdentity> {
  const { payload } = await jwtVerify(token, secret, {
    issuer: DEV_ISSUER,
    audience: "dev",
    algorithms: ["HS256"],
    requiredClaims: ["exp"],
  });
  assertBoundedLifetime(payload);
  const fid = fidFrom(payload.sub);
  if (!fid) throw new Error("subject is not a FID");
  return { userId: `fid:${fid}`, fid, issuer: "dev" };
}

/**
 * The identity a bearer token proves, or null when it proves nothing (bad signature, issuer, audience,
 * expiry). Throws a 503 HttpError when the issuer's key server cannot be reached: the token may be fine.
 */
export async function verifyUserToken(token: string): Promise<UserIdentity | null> {
  const issuer = issuerOf(token); // only to choose the verifier; the verifier checks everything
  if (issuer === config().FARCASTER_AUTH_ISSUER) return orNull(verifyFarcaster(token));
  if (issuer === PRIVY_ISSUER)
    return orNull(verifyPrivy(token).then(({ userId, fid }) => ({ userId, fid, issuer: "privy" as const })));
  const devSecret = issuer === DEV_ISSUER ? devIssuerSecret() : null;
  if (devSecret) return orNull(verifyDev(token, devSecret));
  return null;
}

/** A verifier's identity, or null when the token proves nothing; the key server's outage (503) passes through. */
async function orNull<T>(verifying: Promise<T>): Promise<T | null> {
  try {
    return await verifying;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    return null;
  }
}

function issuerOf(token: string): string | undefined {
  try {
    return decodeJwt(token).iss;
  } catch {
    return undefined;
  }
}

/** Only a Farcaster Quick Auth token (the `fc-id-token` header): the same checks as a Quick Auth bearer. */
export async function verifyQuickAuthToken(token: string): Promise<UserIdentity | null> {
  return issuerOf(token) === config().FARCASTER_AUTH_ISSUER ? orNull(verifyFarcaster(token)) : null;
}

/**
 * Only a Privy token (the `privy-id-token` header, or the access token beside it): the same checks as a Privy
 * bearer (ES256 with PRIVY_VERIFICATION_KEY, issuer privy.io, audience PRIVY_APP_ID, exp and its bound), and
 * the Privy user's DID (`sub`), which identity and access tokens of one user share.
 */
export async function verifyPrivyToken(token: string): Promise<(UserIdentity & { sub: string }) | null> {
  return issuerOf(token) === PRIVY_ISSUER ? orNull(verifyPrivy(token)) : null;
}

/** Tests point the verifiers at another issuer between files. */
export function resetUserTokenVerifiers(): void {
  holder.farcasterJwks = undefined;
  holder.privyKey = undefined;
}

/** A development token for `npm run dev:token`; refuses outside the embedded default. */
export async function issueDevToken(
  fid: number,
  ttlSeconds = config().USER_TOKEN_MAX_LIFETIME_SECONDS,
): Promise<string> {
  const secret = devIssuerSecret();
  if (!secret)
    throw new Error("development tokens exist only on the embedded default (no DATABASE_URL, DEV_AUTH not false)");
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(DEV_ISSUER)
    .setAudience("dev")
    .setSubject(String(fid))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(secret);
}
