// Partner API keys as auth checks them: failed checks count per client address, and an address past the bound is
// refused before its key is looked up.
import { rateLimited } from "@/lib/core/errors";
import { findPartnerByKey, isApiKeyForm } from "@/lib/domains/partners/apikeys";
import { kv } from "@/lib/platform/kv";
import { ipSubject, type RateLimitRule, tryRateLimit } from "@/lib/platform/kv/rate-limit";
import { clientIp } from "../client-ip";

/** Failed checks of keys of the issued form, per client address (its ipSubject). */
export const API_KEY_FAILURE_LIMIT: RateLimitRule = { name: "api-key-failures", limit: 20, windowSeconds: 60 };

const REFUSAL = "too many wrong API keys from this address; try again after Retry-After";

/** Where a refused address is remembered until its window ends: a read, so a good key costs no write. */
const refusalKey = (subject: string) => `auth:${API_KEY_FAILURE_LIMIT.name}:refused:${subject}`;

/**
 * The partner the request's key belongs to, or null when it is unknown or revoked. An address refused earlier in
 * the window gets 429 whatever its key. A failed check of a well-formed key is counted; the one past the bound is
 * a 429 too and refuses the address until the window ends. A malformed key is never looked up, so never counted.
 */
export async function findPartnerForRequest(
  request: Request,
  key: string,
): Promise<{ id: number; name: string } | null> {
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
