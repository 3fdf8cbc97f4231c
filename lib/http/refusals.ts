// Requests refused before routing (proxy.ts, and the server hook below). The answers are built with route() so
// they carry the one envelope, x-request-id and no-store like every other error.
import http from "node:http";
import { badRequest, methodNotAllowed } from "./errors";
import { API_ALLOW, FETCH_FORBIDDEN_METHODS, isApiPath } from "./request-guard";
import { route } from "./route";

export const malformedPath = route({
  auth: "public",
  handler: () => {
    throw badRequest("malformed percent-encoding in the path: each % must start two hex digits, and the bytes must be UTF-8");
  },
});

/** 405 for `method`, which is passed apart because a fetch Request cannot carry every method. */
export function refuseMethod(request: Request, method: string): Promise<Response> {
  return route({
    auth: "public",
    handler: () => {
      throw methodNotAllowed(method, API_ALLOW);
    },
  })(request);
}

const INSTALLED = Symbol.for("token-launch.refuseFetchForbiddenMethods");

/**
 * Next turns every request into a fetch Request before proxy.ts or any handler runs, and fetch refuses TRACE:
 * Next answered it with a bare 500 and logged a stack. Next owns the HTTP server (`next start`), so its
 * request event is the one place that sees such a request first. Idempotent.
 */
export function refuseFetchForbiddenMethods(): void {
  const proto = http.Server.prototype as unknown as Record<symbol, unknown> & { emit: (...args: unknown[]) => boolean };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: unknown, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      if (FETCH_FORBIDDEN_METHODS.has(req.method ?? "")) {
        answerForbiddenMethod(req, res).catch(() => res.destroy());
        return true;
      }
    }
    return emit.call(this, event, ...args);
  };
}

async function answerForbiddenMethod(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  req.resume();
  if (!isApiPath((req.url ?? "/").split("?")[0]!)) {
    res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain" }).end("Method Not Allowed");
    return;
  }
  // The envelope comes from a stand-in GET with the caller's request id: route() reads nothing else of it.
  const id = req.headers["x-request-id"];
  const standIn = new Request("http://localhost/api", { headers: typeof id === "string" ? { "x-request-id": id } : {} });
  const answer = await refuseMethod(standIn, req.method!);
  res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
}
