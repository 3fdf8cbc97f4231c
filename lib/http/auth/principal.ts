// Turns a request's credentials into a typed principal, as the route's auth mode asks.
import { ADMIN_COOKIE, isAdminIdentity, verifyAdminSession } from "./admin";
import { hasIdTokenHeader, hasUserCredentials, userCredentials } from "./user-credentials";
import { forbidden, unauthorized } from "@/lib/core/errors";
import type {
  AdminPrincipal,
  CronPrincipal,
  PartnerPrincipal,
  PublicPrincipal,
  QstashPrincipal,
  UserPrincipal,
} from "@/lib/core/principal";
import { verifyCronRequest } from "./cron";
import { authorizePartner, findPartnerForRequest } from "./partner-keys";
import { verifiedDeliveryBody } from "./qstash";

/**
 * public: no credentials; optional*: credentials used when valid, else public; others: required. cron and
 * qstash are the two schedulers' own credentials (the CRON_SECRET bearer, the Upstash-Signature).
 */
export type AuthMode = "public" | "partner" | "user" | "optionalUser" | "admin" | "optionalAdmin" | "cron" | "qstash";

export type PrincipalFor<A extends AuthMode> = A extends "partner"
  ? PartnerPrincipal
  : A extends "user"
    ? UserPrincipal
    : A extends "admin"
      ? AdminPrincipal
      : A extends "optionalUser"
        ? UserPrincipal | PublicPrincipal
        : A extends "optionalAdmin"
          ? AdminPrincipal | PublicPrincipal
          : A extends "cron"
            ? CronPrincipal
            : A extends "qstash"
              ? QstashPrincipal
              : PublicPrincipal;

const PUBLIC: PublicPrincipal = { kind: "public" };

export { bearer } from "./user-credentials";

export function cookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return null;
}

async function partner(request: Request): Promise<PartnerPrincipal> {
  const key = request.headers.get("x-api-key");
  if (!key) {
    // A valid user token is a known caller of the wrong kind: forbidden, not unknown. The probe only picks
    // between 401 and 403, so an unreachable key server must not turn it into a 503.
    const wrongKind = await user(request).catch(() => null);
    if (wrongKind) throw forbidden("this route takes a partner API key (x-api-key)");
    throw unauthorized("missing x-api-key header");
  }
  const found = await authorizePartner(request, key.trim());
  if (!found) throw unauthorized("unknown, revoked or expired API key");
  return { kind: "partner", partnerId: found.id, name: found.name };
}

/** The verified user, or null when no credentials were given or they were refused (see userCredentials). */
async function user(request: Request): Promise<UserPrincipal | null> {
  const found = await userCredentials(request);
  return found.kind === "verified" ? { kind: "user", ...found.identity } : null;
}

/**
 * An admin principal, or the verified non-admin user behind the credentials (for 403 vs 401), or null with
 * the reason user credentials were refused, if any were.
 */
async function admin(request: Request): Promise<{ found: AdminPrincipal | UserPrincipal | null; refusal?: string }> {
  const session = cookie(request, ADMIN_COOKIE);
  if (session && (await verifyAdminSession(session))) return { found: { kind: "admin", via: "cookie" } };
  const credentials = await userCredentials(request);
  // A bad Bearer alone keeps today's message; a refused id-token header says what was wrong with it.
  if (credentials.kind !== "verified")
    return {
      found: null,
      refusal: credentials.kind === "refused" && hasIdTokenHeader(request) ? credentials.reason : undefined,
    };
  const found: UserPrincipal = { kind: "user", ...credentials.identity };
  return { found: isAdminIdentity(found) ? { kind: "admin", via: "header" } : found };
}

export async function authenticate<A extends AuthMode>(mode: A, request: Request): Promise<PrincipalFor<A>> {
  type P = PrincipalFor<A>;
  switch (mode) {
    case "public":
      return PUBLIC as P;
    case "partner":
      return (await partner(request)) as P;
    case "optionalUser":
      return ((await user(request)) ?? PUBLIC) as P;
    case "optionalAdmin": {
      const { found } = await admin(request);
      return (found?.kind === "admin" ? found : PUBLIC) as P;
    }
    case "user": {
      const found = await userCredentials(request);
      if (found.kind === "none") {
        const key = request.headers.get("x-api-key");
        if (key && (await findPartnerForRequest(request, key.trim())))
          throw forbidden("this route takes a user token, not an API key");
        throw unauthorized("missing Authorization: Bearer token (or fc-id-token / privy-id-token)");
      }
      if (found.kind === "refused") throw unauthorized(found.reason);
      return { kind: "user", ...found.identity } as P;
    }
    case "cron":
      verifyCronRequest(request);
      return { kind: "cron" } as P;
    case "qstash":
      return { kind: "qstash", signedBody: await verifiedDeliveryBody(request) } as P;
    case "admin": {
      const { found, refusal } = await admin(request);
      if (found?.kind === "admin") return found as P;
      // A verified user who is not an admin, or a partner, is a known caller of the wrong kind: forbidden.
      if (found) throw forbidden("admin only");
      const key = request.headers.get("x-api-key");
      if (key && (await findPartnerForRequest(request, key.trim())))
        throw forbidden("admin only; an API key is not admin credentials");
      if (refusal) throw unauthorized(refusal);
      throw unauthorized(
        hasUserCredentials(request) || cookie(request, ADMIN_COOKIE)
          ? "invalid or expired admin credentials"
          : undefined,
      );
    }
  }
  throw new Error(`unknown auth mode ${mode satisfies never}`);
}
