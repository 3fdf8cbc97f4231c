// The profile provider: Neynar's documented v2 API (users by FID, by address, by username; following).
// Every call has a timeout, bounded retries on 429/5xx that honour Retry-After, and zod validation.
import type { ZodType } from "zod";
import { config } from "@/lib/core/config";
import { ProviderUnavailableError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { traceProviderCall } from "@/lib/core/telemetry";
import { bulkUsersResponse, followingResponse, userResponse, usersByAddressResponse, type NeynarUser } from "./schemas";

/** Documented maximum of FIDs per /user/bulk call. */
export const BULK_FIDS_MAX = 100;
/** Addresses per /user/bulk-by-address call (documented maximum is 350; kept small to bound URLs). */
export const BULK_ADDRESSES_MAX = 100;
/** Documented maximum page size of /following. */
export const FOLLOWING_PAGE_MAX = 100;

/** The provider could not answer (timeout, network, 429/5xx after retries, bad key, invalid shape). */
export class ProviderError extends ProviderUnavailableError {
  override name = "ProviderError";
  constructor(message: string, retryAfterSeconds = 5) {
    super("neynar", message, { retryAfterSeconds, answer: "the profile provider is unavailable; try again" });
  }
}

export function neynarConfigured(): boolean {
  return Boolean(config().NEYNAR_API_KEY);
}

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Answer = { status: number; body: unknown };

async function fetchOnce(url: URL, key: string, timeoutMs: number): Promise<Response> {
  try {
    return await fetch(url, {
      headers: { "x-api-key": key, accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = (error as Error)?.name === "TimeoutError" || (error as Error)?.name === "AbortError";
    throw new ProviderError(timedOut ? "the profile provider timed out" : "the profile provider is unreachable");
  }
}

/**
 * GET a Neynar path. 404 comes back as `{ status: 404 }` for the caller to read as "nobody";
 * 429 and 5xx are retried (waiting Retry-After, or 250 ms doubling) while the wait stays within
 * NEYNAR_MAX_RETRY_WAIT_MS; a timeout is not retried (it already spent the caller's budget).
 */
async function get(path: string, params: Record<string, string>): Promise<Answer> {
  const cfg = config();
  if (!cfg.NEYNAR_API_KEY) throw new ProviderError("no profile provider is configured");
  const key = cfg.NEYNAR_API_KEY;
  const url = new URL(path, cfg.NEYNAR_BASE_URL);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  for (let attempt = 0; ; attempt++) {
    const response = await traceProviderCall("neynar", path, () => fetchOnce(url, key, cfg.PROVIDER_TIMEOUT_MS));
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel().catch(() => {});
      const wait = retryAfterMs(response.headers.get("retry-after")) ?? 250 * 2 ** attempt;
      if (attempt >= cfg.NEYNAR_MAX_RETRIES || wait > cfg.NEYNAR_MAX_RETRY_WAIT_MS) {
        log.warn("neynar call failed", { path, status: response.status, attempt });
        throw new ProviderError(
          `the profile provider answered ${response.status}`,
          Math.max(1, Math.ceil(wait / 1000)),
        );
      }
      await sleep(wait);
      continue;
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => {});
      return { status: 404, body: null };
    }
    if (!response.ok) {
      log.warn("neynar call rejected", { path, status: response.status });
      await response.body?.cancel().catch(() => {});
      throw new ProviderError(`the profile provider answered ${response.status}`);
    }
    try {
      return { status: response.status, body: await response.json() };
    } catch {
      throw new ProviderError("the profile provider sent invalid JSON");
    }
  }
}

function validate<T>(schema: ZodType<T>, body: unknown, path: string): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  log.warn("neynar answer has an unexpected shape", { path, issue: parsed.error.issues[0] });
  throw new ProviderError("the profile provider sent an unexpected answer");
}

/** Users for up to 100 FIDs in one call; unknown FIDs are simply absent. */
export async function fetchUsersByFids(fids: number[]): Promise<NeynarUser[]> {
  if (fids.length === 0) return [];
  if (fids.length > BULK_FIDS_MAX) throw new Error(`at most ${BULK_FIDS_MAX} FIDs per call`);
  const path = "/v2/farcaster/user/bulk";
  const answer = await get(path, { fids: fids.join(",") });
  return answer.status === 404 ? [] : validate(bulkUsersResponse, answer.body, path).users;
}

/** Users holding each address (custody or verified), keyed by lowercase address. */
export async function fetchUsersByAddresses(addresses: string[]): Promise<Map<string, NeynarUser[]>> {
  const out = new Map<string, NeynarUser[]>();
  if (addresses.length === 0) return out;
  if (addresses.length > BULK_ADDRESSES_MAX) throw new Error(`at most ${BULK_ADDRESSES_MAX} addresses per call`);
  const path = "/v2/farcaster/user/bulk-by-address";
  // Neynar answers 404 when none of the addresses belongs to anyone.
  const answer = await get(path, { addresses: addresses.join(",") });
  if (answer.status === 404) return out;
  for (const [address, users] of Object.entries(validate(usersByAddressResponse, answer.body, path))) {
    out.set(address.toLowerCase(), users);
  }
  return out;
}

/** The user with this username, or null when there is none. */
export async function fetchUserByUsername(username: string): Promise<NeynarUser | null> {
  const path = "/v2/farcaster/user/by_username";
  const answer = await get(path, { username });
  return answer.status === 404 ? null : validate(userResponse, answer.body, path).user;
}

/** The accounts `fid` follows, newest first, at most `max` (pages of 100). Null when the FID is unknown. */
export async function fetchFollowing(fid: number, max: number): Promise<NeynarUser[] | null> {
  const path = "/v2/farcaster/following";
  const users: NeynarUser[] = [];
  let cursor: string | null | undefined;
  do {
    const limit = Math.min(FOLLOWING_PAGE_MAX, max - users.length);
    const params: Record<string, string> = { fid: String(fid), limit: String(limit) };
    if (cursor) params.cursor = cursor;
    const answer = await get(path, params);
    if (answer.status === 404) return users.length ? users : null;
    const page = validate(followingResponse, answer.body, path);
    users.push(...page.users.slice(0, limit).map((entry) => entry.user));
    cursor = page.next?.cursor;
    if (page.users.length === 0) break;
  } while (cursor && users.length < max);
  return users;
}
