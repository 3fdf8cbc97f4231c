// Usage per API key: requests by route and status, and accepted deployments, per UTC day. Counted in the KV store
// (a Redis hash per key and day on Upstash; buffered, then batched into kv_counters on Postgres) and read straight
// from it: no database write per request, and no job. Days older than the retention are gone.
import { z } from "zod";
import { kv } from "@/lib/platform/kv";
import { log } from "@/lib/core/log";
import { zInt } from "@/lib/core/input";

/** How long a day's counters are kept; the longest window a reader may ask for is shorter by the current day. */
export const USAGE_RETENTION_DAYS = 32;
export const MAX_USAGE_DAYS = 31;

const DAY_MS = 86_400_000;
/** The field of accepted deployments in a day's hash; request fields are `<METHOD> <route> <status>`. */
const DEPLOYS = "deploys";

const usageKey = (keyId: number, day: string) => `usage:key:${keyId}:${day}`;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function count(keyId: number, field: string): Promise<void> {
  try {
    await (await kv()).incrementCounters(
      usageKey(keyId, dayOf(Date.now())),
      { [field]: 1 },
      USAGE_RETENTION_DAYS * 86_400,
    );
  } catch (error) {
    log.warn("usage count dropped", { keyId, error });
  }
}

/** One request by the key: `route` is the route's method and path template (GET /api/tokens/deploy/[requestKey]). */
export function countPartnerRequest(keyId: number, route: string, status: number): Promise<void> {
  return count(keyId, `${route} ${status}`);
}

/** One deployment the key's partner got accepted (its daily quota counted it). */
export function countPartnerDeploy(keyId: number): Promise<void> {
  return count(keyId, DEPLOYS);
}

export const usageQuery = z.object({
  days: zInt(1, MAX_USAGE_DAYS, 7)
    .optional()
    .describe(`how many UTC days back, today included (1 to ${MAX_USAGE_DAYS}; default 7)`),
});

const routeUsage = z.object({
  route: z.string().describe("method and path template, e.g. `POST /api/tokens/deploy`"),
  status: z.number().int().describe("the HTTP status answered"),
  count: z.number().int(),
});

export const usageDay = z.object({
  day: z.string().describe("UTC day, YYYY-MM-DD"),
  requests: z.number().int().describe("every request the key made that day"),
  deploys: z.number().int().describe("deployments accepted that day (what the daily deploy limit counts)"),
  byRoute: z.array(routeUsage).describe("requests by route and status, most first"),
});

export type UsageDay = z.infer<typeof usageDay>;

/** The key's usage for the last `days` UTC days, today first; a day without requests is listed with zeros. */
export async function readKeyUsage(keyId: number, days = 7): Promise<UsageDay[]> {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const dayList = Array.from({ length: days }, (_, i) => dayOf(today - i * DAY_MS));
  const hashes = await (await kv()).readCounters(dayList.map((day) => usageKey(keyId, day)));
  return dayList.map((day, i) => {
    const byRoute = Object.entries(hashes[i] ?? {})
      .filter(([field]) => field !== DEPLOYS)
      .map(([field, n]) => {
        const cut = field.lastIndexOf(" ");
        return { route: field.slice(0, cut), status: Number(field.slice(cut + 1)), count: n };
      })
      .sort((a, b) => b.count - a.count || a.route.localeCompare(b.route) || a.status - b.status);
    return {
      day,
      requests: byRoute.reduce((sum, r) => sum + r.count, 0),
      deploys: hashes[i]?.[DEPLOYS] ?? 0,
      byRoute,
    };
  });
}
