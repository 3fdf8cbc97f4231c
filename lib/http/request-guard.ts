// Checks made before Next routes a request (proxy.ts, and the server hook in lib/http/refusals.ts). They run on
// every request, so they are plain string tests with no imports.

/** Methods Next serves on a route; any other one reaching a route handler is refused with 405. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** What the API's routes answer between them (PUT and PATCH only reach the unknown-path catch-all). */
export const API_ALLOW = "GET, HEAD, POST, DELETE, OPTIONS";

/**
 * Methods a fetch Request cannot carry (the Fetch standard's forbidden methods). Next builds one for every
 * request before proxy.ts or a handler runs, so these fail inside Next; CONNECT and TRACK never get that far
 * (Node's HTTP parser takes them), TRACE does.
 */
export const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

export const isKnownMethod = (method: string): boolean => KNOWN_METHODS.has(method);

export const isApiPath = (pathname: string): boolean => pathname === "/api" || pathname.startsWith("/api/");

/**
 * True when a still-encoded path holds an escape Next cannot decode (`%` not followed by two hex digits, or
 * bytes that are not UTF-8): Next decodes dynamic segments before any handler runs and answers such a path
 * with a bare 500.
 */
export function hasMalformedEscape(pathname: string): boolean {
  if (!pathname.includes("%")) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}
