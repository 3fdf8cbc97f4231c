// The client's address, as far as the deployment's proxies vouch for it (per-IP rate limits count its ipSubject).
import { config, type TrustedProxy } from "@/lib/core/config";

/**
 * The caller's address for per-IP limits, read only from what TRUSTED_PROXY vouches for; any client can send
 * forwarding headers. vercel: its edge overwrites x-vercel-forwarded-for and x-real-ip. none: x-forwarded-for
 * as `next start` sets it from the socket (the server hook in lib/http/refusals.ts overwrites a client-sent one first; Next keeps one it finds).
 * N: the hop the outermost of N appending proxies wrote, Nth from the right.
 */
export function clientIp(request: Request, trusted: TrustedProxy = config().TRUSTED_PROXY): string {
  const headers = request.headers;
  if (trusted === "vercel")
    return firstHop(headers.get("x-vercel-forwarded-for")) || headers.get("x-real-ip")?.trim() || "local";
  return proxiedHop(headers.get("x-forwarded-for"), trusted === "none" ? 1 : trusted) || "local";
}

/**
 * The hop of a forwarding header (x-forwarded-for, x-forwarded-proto) that the outermost of `proxies` appending
 * proxies wrote: Nth from the right. Fewer hops than proxies: the request skipped some of them, and the leftmost
 * is the best there is.
 */
export function proxiedHop(value: string | null, proxies: number): string {
  const hops = (value ?? "").split(",").map((hop) => hop.trim());
  return hops[Math.max(0, hops.length - proxies)] ?? "";
}

export const firstHop = (value: string | null) => value?.split(",")[0]?.trim();
