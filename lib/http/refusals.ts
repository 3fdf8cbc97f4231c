// Requests refused before routing (proxy.ts, and the server hook below). The answers are built with route() so
// they carry the one envelope, x-request-id and no-store like every other error.
import http from "node:http";
import { badRequest, methodNotAllowed } from "@/lib/core/errors";
import { config } from "@/lib/core/config";
import { API_ALLOW, FETCH_FORBIDDEN_METHODS, isApiPath, isKnownMethod } from "./request-guard";
import { route } from "./route";

export const malformedPath = route({
  auth: "public",
  handler: () => {
    throw badRequest(
      "malformed percent-encoding in the path: each % must start two hex digits, and the bytes must be UTF-8",
    );
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

const INSTALLED = Symbol.for("token-launch.guardServerRequests");

/**
 * Checks every request where the server receives it, before Next: Next turns each request into a fetch Request
 * first (and fetch refuses TRACE: Next answered it with a bare 500), and a proxy.ts on API paths would make Next
 * read every POST body whole (and cut it at 10 MB) before a handler runs, which defeats streamed uploads and
 * their deadlines. So here, on the request event of the server Next owns (`next start`):
 * - TRUSTED_PROXY=none: X-Forwarded-For is set to the socket address, so a client cannot choose its own key
 *   of the per-IP limits (clientIp reads the last hop);
 * - a method fetch cannot carry, anywhere, and a method no route serves on an API path: 405.
 * Idempotent.
 */
export function guardServerRequests(): void {
  const proto = http.Server.prototype as unknown as Record<symbol, unknown> & { emit: (...args: unknown[]) => boolean };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: unknown, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      const method = req.method ?? "";
      if (config().TRUSTED_PROXY === "none") req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "local";
      if (
        FETCH_FORBIDDEN_METHODS.has(method) ||
        (!isKnownMethod(method) && isApiPath((req.url ?? "/").split("?")[0]!))
      ) {
        answerUnservedMethod(req, res).catch(() => res.destroy());
        return true;
      }
    }
    return emit.call(this, event, ...args);
  };
}

async function answerUnservedMethod(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  req.resume();
  if (!isApiPath((req.url ?? "/").split("?")[0]!)) {
    res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain" }).end("Method Not Allowed");
    return;
  }
  // The envelope comes from a stand-in GET with the caller's request id: route() reads nothing else of it.
  const id = req.headers["x-request-id"];
  const standIn = new Request("http://localhost/api", {
    headers: typeof id === "string" ? { "x-request-id": id } : {},
  });
  const answer = await refuseMethod(standIn, req.method!);
  res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
}
