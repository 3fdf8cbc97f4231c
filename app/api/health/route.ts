// GET /api/health: version, database reachability and the active backend of each part.
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { healthReport } from "@/lib/system/health";

export const GET = route({ auth: "public", cache: cachePolicy.none, handler: () => healthReport() });
export const OPTIONS = preflight;
