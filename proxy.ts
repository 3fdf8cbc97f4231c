// Next's proxy, on page paths and on paths that hold a `%` (see the matcher). A page gets its Content-Security-Policy
// with a fresh nonce (lib/http/security-headers.ts). A path escape Next cannot decode would be a bare 500 from Next's
// router: it is refused here. Everything else is checked where the server receives a request (lib/http/refusals.ts),
// not here: a proxy on every API path makes Next read each POST body whole (and cut it at 10 MB) before the
// handler, which breaks streamed tree uploads and their deadlines.
import { NextResponse, type NextRequest } from "next/server";
import { hasMalformedEscape, isApiPath } from "./lib/http/request-guard";
import { isPagePath, newNonce, pageContentSecurityPolicy } from "./lib/http/security-headers";

/** Folders starting with _ are private in the app router: no page is served here, so Next renders its 404. */
const NO_SUCH_PAGE = "/_no-such-page";

// The answer imports route() and its dependencies: loaded on the first refusal, not on every request.
const refusals = () => import("./lib/http/refusals");

export async function proxy(request: NextRequest): Promise<Response | undefined> {
  const { pathname } = request.nextUrl;
  const malformed = hasMalformedEscape(pathname);
  if (malformed && isApiPath(pathname)) return (await refusals()).malformedPath(request);
  if (!malformed && !isPagePath(pathname)) return undefined;
  // Next reads the nonce from the request's policy and renders it on its scripts.
  const policy = pageContentSecurityPolicy(newNonce());
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response = malformed
    ? NextResponse.rewrite(new URL(NO_SUCH_PAGE, request.url), { request: { headers } })
    : NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

// Pages, and paths holding a % (never static assets). Not the API: neither an API call nor an upload pays for a
// proxy.
export const config = {
  matcher: [
    "/((?!api(?:/|$)|_next/|placeholders/|images/|favicon\\.ico).*)",
    "/((?!_next/static/|_next/image|favicon\\.ico).*%.*)",
  ],
};
