// POST /api/admin/verify: trades an admin's user token (body or Authorization) or the admin secret for the admin_session cookie; DELETE clears it.
import { route } from "@/lib/http/route";
import {
  ADMIN_VERIFY_MAX_BODY_BYTES,
  ADMIN_VERIFY_RATE_LIMIT,
  adminSessionEnded,
  adminSessionStarted,
  adminVerifyBody,
  endAdminSession,
  verifyAdmin,
} from "@/lib/http/auth/admin-verify";

export const POST = route({
  auth: "public",
  body: adminVerifyBody,
  optionalBody: true,
  maxBodyBytes: ADMIN_VERIFY_MAX_BODY_BYTES,
  rateLimit: ADMIN_VERIFY_RATE_LIMIT,
  summary: "Start an admin session",
  description:
    "Trades an admin's user token (the body's `token`, or the Authorization bearer) or the admin secret (`secret`) for the `admin_session` cookie (HttpOnly, SameSite=Lax), valid for a fixed time (`expiresAt`). The body may be left out when the token is in Authorization. 401 for a wrong secret or an invalid token, 403 for a user who is not an admin (ADMIN_FIDS); 10 requests per 5 minutes per client IP.",
  parameterDescriptions: {
    token: "an admin's user token (Farcaster Quick Auth or Privy), at most 8192 characters; or send it as the Bearer",
    secret: "the admin secret (ADMIN_SECRET), at most 1024 characters",
  },
  response: adminSessionStarted,
  handler: ({ body, request, setHeader }) => verifyAdmin(body, request, setHeader),
});

export const DELETE = route({
  auth: "public",
  summary: "End the admin session",
  description: "Clears the `admin_session` cookie. Needs no credentials and always succeeds.",
  response: adminSessionEnded,
  handler: ({ request, setHeader }) => endAdminSession(request, setHeader),
});
