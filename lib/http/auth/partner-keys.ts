// Partner API keys as auth checks them: failed checks count per client address, and an address past the bound is
// refused before its key is looked up. A found key must hold the route's scope and stay within its request limit;
// each request it makes is counted for its usage (lib/domains/partners/usage.ts).
import { config } from "@/lib/core/config";
import { forbidden, rateLimited } from "@/lib/core/errors";
import { type ApiKeyScope, findPartnerByKey, isApiKeyForm, type PartnerKey } from "@/lib/domains/partners/apikeys";
import { countPartnerRequest } from "@/lib/domains/partners/usage";
import { kv } from "@/lib/platform/kv";
import { enforceRateLimit, ipSubject, type RateLimitRule, tryRateLimit } from "@/lib/platform/kv/rate-limit";
import { clientIp } from "../client-ip";

/** Failed checks of keys of the issued form, per client address (its ipSubject). */
export const API_KEY_FAILURE_LIMIT: RateLimitRule = { name: "api-key-failures", limit: 20, windowSeconds: 60 };

const REFUSAL = "too many wrong API keys from this address; try again after Retry-After";

/** Where a refused address is remembered until its window ends: a read, so a good key costs no write. */
const refusalKey = (subject: string) => `auth:${API_KEY_FAILURE_LIMIT.name}:refused:${subject}`;

/**
 * The partner the request's key belongs to, or null when it is unknown, revoked or expired. An address refused
 * earlier in the window gets 429 whatever its key. A failed check of a well-formed key is counted; the one past the
 * bound is a 429 too and refuses the address until the window ends. A malformed key is never looked up, so never
 * counted.
 */
export async function findPartnerForRequest(request: Request, key: string): Promise<PartnerKey | null> {
  const subject = ipSubject(clientIp(request));
  const store = await kv();
  const refused = await store.get<{ until: number }>(refusalKey(subject));
  if (refused && refused.until > Date.now()) throw rateLimited((refused.until - Date.now()) / 1000, REFUSAL);
  const found = await findPartnerByKey(key);
  if (found || !isApiKeyForm(key)) return found;
  if (await tryRateLimit(API_KEY_FAILURE_LIMIT, subject)) return null;
  // The limiter's windows are aligned to the epoch on both backends, so this is the end of the one just filled.
  const windowMs = API_KEY_FAILURE_LIMIT.windowSeconds * 1000;
  const until = (Math.floor(Date.now() / windowMs) + 1) * windowMs;
  const seconds = (until - Date.now()) / 1000;
  await store.set(refusalKey(subject), { until }, Math.max(1, Math.ceil(seconds)));
  throw rateLimited(seconds, REFUSAL);
}

/**
 * The scope each partner route needs, by path: the first match wins, anything else needs `read`. null: any live key
 * may call it (its own usage). Declared here rather than in each route file, so the map is one table to review.
 */
export const ROUTE_SCOPES: readonly [RegExp, ApiKeyScope | null][] = [
  [/^\/api\/tokens\/deploy(\/|$)/, "deploy"],
  [/^\/api\/tokens\/index$/, "index"],
  [/^\/api\/webhooks(\/|$)/, "webhooks"],
  [/^\/api\/partner\/usage$/, null],
];

export function scopeForPath(pathname: string): ApiKeyScope | null {
  const match = ROUTE_SCOPES.find(([pattern]) => pattern.test(pathname));
  return match ? match[1] : "read";
}

/** Keys whose requests are counted once the answer's status is known (countPartnerUsage). */
const callers = new WeakMap<Request, number>();

/**
 * The partner of a partner route's request: a live key (else 401, see findPartnerForRequest) that holds the route's
 * scope (else 403) and is within its requests a minute (its own, else PARTNER_REQUESTS_PER_MINUTE; else 429).
 */
export async function authorizePartner(request: Request, key: string): Promise<PartnerKey | null> {
  const found = await findPartnerForRequest(request, key);
  if (!found) return null;
  callers.set(request, found.id);
  const scope = scopeForPath(new URL(request.url).pathname);
  if (scope && !found.scopes.includes(scope)) throw forbidden(`this API key lacks the ${scope} scope`);
  const limit = found.requestsPerMinute ?? config().PARTNER_REQUESTS_PER_MINUTE;
  if (limit) await enforceRateLimit({ name: "partner-key", limit, windowSeconds: 60 }, `key:${found.id}`);
  return found;
}

/** Counts an answered request of a partner route for its key's usage; nothing for other requests. */
export async function countPartnerUsage(request: Request, route: () => Promise<string>, status: number): Promise<void> {
  const keyId = callers.get(request);
  if (keyId === undefined) return;
  await countPartnerRequest(keyId, `${request.method} ${await route()}`, status);
}
