// POST /api/admin/verify: trades an admin's user token (body or Authorization) or the admin secret for the admin_session cookie; DELETE clears it.
import { route } from "@/lib/http/route";
import { ADMIN_VERIFY_RATE_LIMIT, adminSessionEnded, adminSessionStarted, endAdminSession, verifyAdmin } from "@/lib/http/auth/admin-verify";

export const POST = route({
  auth: "public",
  rawBody: true, // the body is optional, so the service reads it (same cap, parser and errors as route())
  rateLimit: ADMIN_VERIFY_RATE_LIMIT,
  summary: "Trade an admin's user token (body `token` or Authorization) or the admin secret (`secret`) for the admin_session cookie",
  response: adminSessionStarted,
  handler: ({ request, setHeader }) => verifyAdmin(request, setHeader),
});

export const DELETE = route({ auth: "public", summary: "Clear the admin_session cookie", response: adminSessionEnded, handler: ({ request, setHeader }) => endAdminSession(request, setHeader) });
