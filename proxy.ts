// Next's proxy (before routing; see the matcher): refuses what Next would answer with a bare 500
// (a path escape it cannot decode, a method no route serves), and with TRUSTED_PROXY=none drops a client-sent
// x-forwarded-for so that Next sets it from the socket (lib/http/rate-limit.ts clientIp).
import { NextResponse, type NextRequest } from "next/server";
import { config as serviceConfig } from "./lib/config";
import { hasMalformedEscape, isApiPath, isKnownMethod } from "./lib/http/request-guard";

/** Folders starting with _ are private in the app router: no page is served here, so Next renders its 404. */
const NO_SUCH_PAGE = "/_no-such-page";

// The answers import route() and its dependencies: loaded on the first refusal, not on every request.
const refusals = () => import("./lib/http/refusals");

export async function proxy(request: NextRequest): Promise<Response | undefined> {
  const { pathname } = request.nextUrl;
  const api = isApiPath(pathname);
  if (hasMalformedEscape(pathname)) {
    return api ? (await refusals()).malformedPath(request) : NextResponse.rewrite(new URL(NO_SUCH_PAGE, request.url));
  }
  if (!api) return undefined;
  if (!isKnownMethod(request.method)) return (await refusals()).refuseMethod(request, request.method);
  if (serviceConfig().TRUSTED_PROXY === "none") {
    const headers = new Headers(request.headers);
    headers.delete("x-forwarded-for");
    return NextResponse.next({ request: { headers } });
  }
  return undefined;
}

// Every API path; any other path only when it holds a % (static assets never), so a page load does not pay for it.
export const config = { matcher: ["/api/:path*", "/((?!_next/static/|_next/image|favicon\\.ico).*%.*)"] };
