// The origin links in answers point at, and whether browsers reach the service over HTTPS.
import { config } from "@/lib/core/config";
import { firstHop, proxiedHop } from "./client-ip";

/** PUBLIC_BASE_URL when set (or Vercel's own URL), else the request's. */
export function publicOrigin(request: Request): string {
  return (config().PUBLIC_BASE_URL ?? new URL(request.url).origin).replace(/\/+$/, "");
}

/**
 * Whether the public origin is HTTPS (the admin cookie is then Secure). PUBLIC_BASE_URL's scheme when set; else
 * X-Forwarded-Proto as TRUSTED_PROXY vouches for it (never with `none`: Next keeps a client-sent one); else the
 * request's own scheme. Behind a TLS proxy, `next start` sees `http://localhost:PORT` whatever the browser used.
 */
export function servedOverHttps(request: Request): boolean {
  const { PUBLIC_BASE_URL, TRUSTED_PROXY } = config();
  if (PUBLIC_BASE_URL) return new URL(PUBLIC_BASE_URL).protocol === "https:";
  const proto = request.headers.get("x-forwarded-proto");
  const forwarded =
    TRUSTED_PROXY === "none" ? "" : TRUSTED_PROXY === "vercel" ? firstHop(proto) : proxiedHop(proto, TRUSTED_PROXY);
  if (forwarded) return forwarded.toLowerCase() === "https";
  return new URL(request.url).protocol === "https:";
}
