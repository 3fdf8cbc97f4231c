// Next's proxy, only on paths that hold a `%` (see the matcher): a path escape Next cannot decode would be a bare
// 500 from Next's router. Everything else is checked where the server receives a request (lib/http/refusals.ts),
// not here: a proxy on every API path makes Next read each POST body whole (and cut it at 10 MB) before the
// handler, which breaks streamed tree uploads and their deadlines.
import { NextResponse, type NextRequest } from "next/server";
import { hasMalformedEscape, isApiPath } from "./lib/http/request-guard";

/** Folders starting with _ are private in the app router: no page is served here, so Next renders its 404. */
const NO_SUCH_PAGE = "/_no-such-page";

// The answer imports route() and its dependencies: loaded on the first refusal, not on every request.
const refusals = () => import("./lib/http/refusals");

export async function proxy(request: NextRequest): Promise<Response | undefined> {
  const { pathname } = request.nextUrl;
  if (!hasMalformedEscape(pathname)) return undefined;
  return isApiPath(pathname)
    ? (await refusals()).malformedPath(request)
    : NextResponse.rewrite(new URL(NO_SUCH_PAGE, request.url));
}

// Only paths holding a % (never static assets), so neither a page load nor an upload pays for a proxy.
export const config = { matcher: ["/((?!_next/static/|_next/image|favicon\\.ico).*%.*)"] };
