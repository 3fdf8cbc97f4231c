// GET /api/ping: constant JSON without touching the database: a liveness probe and the framework floor of `npm run bench`.
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";

export const GET = route({ auth: "public", cache: cachePolicy.none, handler: () => ({ ok: true }) });
export const OPTIONS = preflight;
