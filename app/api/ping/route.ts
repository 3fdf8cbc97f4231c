// GET /api/ping: constant JSON without touching the database: a liveness probe and the framework floor of `npm run bench`.
import { z } from "zod";
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";

export const GET = route({
  auth: "public",
  summary: "Check liveness",
  description: "A constant answer that touches nothing (no database, no cache): a liveness probe.",
  response: z.object({ ok: z.literal(true) }),
  cache: cachePolicy.none,
  handler: () => ({ ok: true }),
});
export const OPTIONS = preflight;
