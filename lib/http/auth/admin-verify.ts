// POST/DELETE /api/admin/verify as a service: read the optional body, start or end the admin session cookie.
import { z } from "zod";
import { bearer } from "./principal";
import type { RateLimitRule } from "@/lib/platform/kv/rate-limit";
import { clearAdminCookieHeader, adminCookieHeader, startAdminSession } from "./admin";
import { servedOverHttps } from "../public-origin";

/** Per client IP: guessing the secret or replaying tokens is slow by construction. */
export const ADMIN_VERIFY_RATE_LIMIT: RateLimitRule = { name: "admin-verify", limit: 10, windowSeconds: 300 };

export const ADMIN_VERIFY_MAX_BODY_BYTES = 16 * 1024;

export const adminVerifyBody = z
  .object({
    token: z.string().min(1).max(8192).optional(),
    secret: z.string().min(1).max(1024).optional(),
  })
  .strict();

type SetHeader = (name: string, value: string) => void;

export const adminSessionStarted = z.object({
  success: z.literal(true),
  expiresAt: z.string().describe("ISO 8601; the admin_session cookie's expiry"),
});
export const adminSessionEnded = z.object({ success: z.literal(true) });

/** The body is optional: a caller may prove itself with the Authorization header alone. */
export async function verifyAdmin(
  body: z.infer<typeof adminVerifyBody>,
  request: Request,
  setHeader: SetHeader,
): Promise<z.infer<typeof adminSessionStarted>> {
  const { session, expiresAt } = await startAdminSession({ ...body, bearer: bearer(request) });
  setHeader("Set-Cookie", adminCookieHeader(session, servedOverHttps(request)));
  return { success: true, expiresAt: expiresAt.toISOString() };
}

export function endAdminSession(request: Request, setHeader: SetHeader): z.infer<typeof adminSessionEnded> {
  setHeader("Set-Cookie", clearAdminCookieHeader(servedOverHttps(request)));
  return { success: true };
}
