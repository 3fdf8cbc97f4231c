// A user's credentials as this service's clients and the platform's send them: `Authorization: Bearer <jwt>`
// alone, or with `fc-id-token` (a Farcaster Quick Auth token) or `privy-id-token` (a Privy identity token).
import type { UserIdentity } from "@/lib/core/principal";
import { verifyPrivyToken, verifyQuickAuthToken, verifyUserToken } from "./user-tokens";

export const FC_ID_TOKEN_HEADER = "fc-id-token";
export const PRIVY_ID_TOKEN_HEADER = "privy-id-token";

/** none: no user credentials at all; refused: some given and not accepted (the reason is the 401's message). */
export type UserCredentials =
  | { kind: "none" }
  | { kind: "verified"; identity: UserIdentity }
  | { kind: "refused"; reason: string };

export function bearer(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header && /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match ? match[1] : null;
}

/** An empty header is an absent one, as an empty query value is. */
function headerToken(request: Request, name: string): string | null {
  return request.headers.get(name)?.trim() || null;
}

/** The platform's `fc-id-token` or `privy-id-token` header is given (not empty). */
export function hasIdTokenHeader(request: Request): boolean {
  return !!(headerToken(request, FC_ID_TOKEN_HEADER) || headerToken(request, PRIVY_ID_TOKEN_HEADER));
}

export function hasUserCredentials(request: Request): boolean {
  return !!bearer(request) || hasIdTokenHeader(request);
}

const refused = (reason: string): UserCredentials => ({ kind: "refused", reason });

/**
 * Who the request's user credentials prove, never a guess between two users:
 * - Bearer alone: today's tokens (Quick Auth, Privy identity, development).
 * - `privy-id-token`: verified as a Privy identity token (it gives the user, and the FID of a linked Farcaster
 *   account); a Bearer beside it must verify as a Privy token (the access token) of the same Privy DID (`sub`).
 * - `fc-id-token`: verified as a Quick Auth token (it gives the FID). The Bearer beside it is not needed; when
 *   it verifies as a user token naming a FID, that FID must be the same. A Bearer that names no FID (a Privy
 *   access token carries no linked accounts) or proves nothing is not read.
 * - both headers: each verified, and they must name the same user; a Bearer follows the Privy rule.
 * Throws a 503 HttpError when an issuer's key server cannot be reached.
 */
export async function userCredentials(request: Request): Promise<UserCredentials> {
  const auth = bearer(request);
  const fcToken = headerToken(request, FC_ID_TOKEN_HEADER);
  const privyToken = headerToken(request, PRIVY_ID_TOKEN_HEADER);
  if (!fcToken && !privyToken) {
    if (!auth) return { kind: "none" };
    const identity = await verifyUserToken(auth);
    return identity ? { kind: "verified", identity } : refused("invalid or expired token");
  }
  const fc = fcToken ? await verifyQuickAuthToken(fcToken) : null;
  if (fcToken && !fc) return refused("invalid or expired fc-id-token: it must be a Farcaster Quick Auth token");
  const privy = privyToken ? await verifyPrivyToken(privyToken) : null;
  if (privyToken && !privy) return refused("invalid or expired privy-id-token: it must be a Privy identity token");
  if (fc && privy && fc.userId !== privy.userId) return refused("fc-id-token and privy-id-token name different users");
  if (auth && privy) {
    const access = await verifyPrivyToken(auth);
    if (!access)
      return refused("invalid or expired Authorization bearer: with privy-id-token it must be a Privy access token");
    if (access.sub !== privy.sub)
      return refused("the Authorization bearer and privy-id-token belong to different Privy users");
  } else if (auth && fc) {
    const other = await verifyUserToken(auth);
    if (other?.fid != null && other.fid !== fc.fid)
      return refused("the Authorization bearer and fc-id-token name different users");
  }
  const identity: UserIdentity = fc ?? { userId: privy!.userId, fid: privy!.fid, issuer: "privy" };
  return { kind: "verified", identity };
}
