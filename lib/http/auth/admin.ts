// Admins: a user token of a FID in ADMIN_FIDS, or the admin secret, exchanged for a signed admin_session cookie.
import { jwtVerify, SignJWT } from "jose";
import { timingSafeEqual, createHash } from "node:crypto";
import { config } from "@/lib/core/config";
import { forbidden, providerUnavailable, unauthorized } from "@/lib/core/errors";
import { sessionSecret } from "./secrets";
import { verifyUserToken } from "./user-tokens";
import type { UserIdentity } from "@/lib/core/principal";

export const ADMIN_COOKIE = "admin_session";
export const ADMIN_SESSION_SECONDS = 12 * 3600;
const AUDIENCE = "admin_session";

const isAdminFid = (fid: number) => (config().ADMIN_FIDS ?? []).includes(fid);

export function isAdminIdentity(identity: UserIdentity | null): boolean {
  return !!identity?.fid && isAdminFid(identity.fid);
}

/** Constant-time comparison (of digests, so the lengths never leak either). */
export function isAdminSecret(candidate: string): boolean {
  const secret = config().ADMIN_SECRET;
  if (!secret) return false;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(candidate), digest(secret));
}

/** A signed session token for `subject` ("fid:1" or "secret"); null when no session key is configured. */
export async function signAdminSession(subject: string, now = Date.now()): Promise<string | null> {
  const key = sessionSecret();
  if (!key) return null;
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setAudience(AUDIENCE)
    .setSubject(subject)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(now / 1000) + ADMIN_SESSION_SECONDS)
    .sign(key);
}

/**
 * Whether a session cookie is valid and its subject still an admin: a FID taken out of ADMIN_FIDS, or the secret
 * once ADMIN_SECRET is unset, loses its sessions at once rather than when they expire.
 */
export async function verifyAdminSession(cookie: string): Promise<boolean> {
  const key = sessionSecret();
  if (!key) return false;
  let subject: string | undefined;
  try {
    const { payload } = await jwtVerify(cookie, key, {
      audience: AUDIENCE,
      algorithms: ["HS256"],
      requiredClaims: ["exp", "sub"],
    });
    subject = payload.sub;
  } catch {
    return false;
  }
  if (subject === "secret") return Boolean(config().ADMIN_SECRET);
  const fid = /^fid:(\d+)$/.exec(subject ?? "")?.[1];
  return fid !== undefined && isAdminFid(Number(fid));
}

/** The Set-Cookie value: HttpOnly, SameSite=Lax, and Secure when the public origin is HTTPS (servedOverHttps). */
export function adminCookieHeader(token: string, secure: boolean, maxAgeSeconds = ADMIN_SESSION_SECONDS): string {
  return [
    `${ADMIN_COOKIE}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** The Set-Cookie value that removes the session from the browser. */
export function clearAdminCookieHeader(secure: boolean): string {
  return adminCookieHeader("", secure, 0);
}

export type AdminCredentials = { token?: string; secret?: string; bearer?: string | null };

/**
 * Checks the credentials of POST /api/admin/verify and signs a session. The secret wins when given; else
 * the body's token, else the Authorization bearer. Unknown credentials: 401; a verified non-admin: 403.
 */
export async function startAdminSession(credentials: AdminCredentials): Promise<{ session: string; expiresAt: Date }> {
  let subject: string;
  if (credentials.secret !== undefined) {
    if (!isAdminSecret(credentials.secret)) throw unauthorized("wrong admin secret");
    subject = "secret";
  } else {
    const token = credentials.token ?? credentials.bearer;
    if (!token) throw unauthorized("send { token } or { secret }, or an Authorization: Bearer token");
    const identity = await verifyUserToken(token);
    if (!identity) throw unauthorized("invalid or expired token");
    if (!isAdminIdentity(identity)) throw forbidden("this user is not an admin");
    subject = identity.userId;
  }
  const now = Date.now();
  const session = await signAdminSession(subject, now);
  if (!session) throw providerUnavailable("admin sessions are not configured (SESSION_SECRET)", 60);
  return { session, expiresAt: new Date(Math.floor(now / 1000) * 1000 + ADMIN_SESSION_SECONDS * 1000) };
}
