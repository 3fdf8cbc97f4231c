// POST/DELETE /api/admin/verify as a service: read the optional body, start or end the admin session cookie.
import { z } from "zod";
import { bearer } from "./principal";
import type { RateLimitRule } from "@/lib/http/rate-limit";
import { parseJsonText, parseWith, readCappedText } from "@/lib/http/route";
import { clearAdminCookieHeader, adminCookieHeader, startAdminSession } from "./admin";

/** Per client IP: guessing the secret or replaying tokens is slow by construction. */
export const ADMIN_VERIFY_RATE_LIMIT: RateLimitRule = { name: "admin-verify", limit: 10, windowSeconds: 300 };

const MAX_BODY_BYTES = 16 * 1024;

export const adminVerifyBody = z
  .object({
    token: z.string().min(1).max(8192).optional(),
    secret: z.string().min(1).max(1024).optional(),
  })
  .strict();

/**
 * The body is optional: a caller may prove itself with the Authorization header alone, and a real POST
 * without a body still has an (empty) stream, so emptiness is only known after reading. route()'s own
 * reader insists on a body, so this one uses its pieces and accepts an empty one.
 */
async function optionalBody(request: Request): Promise<z.infer<typeof adminVerifyBody>> {
  const text = await readCappedText(request, MAX_BODY_BYTES);
  if (!text.trim()) return {};
  return parseWith(adminVerifyBody, parseJsonText(text), "body");
}

type SetHeader = (name: string, value: string) => void;

export const adminSessionStarted = z.object({ success: z.literal(true), expiresAt: z.string().describe("ISO 8601; the admin_session cookie's expiry") });
export const adminSessionEnded = z.object({ success: z.literal(true) });

export async function verifyAdmin(request: Request, setHeader: SetHeader): Promise<z.infer<typeof adminSessionStarted>> {
  const body = await optionalBody(request);
  const { session, expiresAt } = await startAdminSession({ ...body, bearer: bearer(request) });
  setHeader("Set-Cookie", adminCookieHeader(session, request.url));
  return { success: true, expiresAt: expiresAt.toISOString() };
}

export function endAdminSession(request: Request, setHeader: SetHeader): z.infer<typeof adminSessionEnded> {
  setHeader("Set-Cookie", clearAdminCookieHeader(request.url));
  return { success: true };
}
