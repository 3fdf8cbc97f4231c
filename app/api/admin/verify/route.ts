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
  summary:
    "Trade an admin's user token (body `token` or Authorization) or the admin secret (`secret`) for the admin_session cookie",
  response: adminSessionStarted,
  handler: ({ body, request, setHeader }) => verifyAdmin(body, request, setHeader),
});

export const DELETE = route({
  auth: "public",
  summary: "Clear the admin_session cookie",
  response: adminSessionEnded,
  handler: ({ request, setHeader }) => endAdminSession(request, setHeader),
});
