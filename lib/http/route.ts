// route(): the only wrapper of a route handler. Request id, auth, body cap, zod parsing, rate limits,
// serialisation, cache and CORS headers, and the one error envelope. Handlers return data (or JsonText).
import type { ZodType } from "zod";
import { authenticate, type AuthMode, type PrincipalFor } from "./auth/principal";
import { countPartnerUsage } from "./auth/partner-keys";
import type { CachePolicy } from "./cache";
import { cachePolicy } from "./cache";
import { bodyFinished, readJsonBody } from "@/lib/core/body";
import { type HttpError, toHttpError } from "@/lib/core/errors";
import { enforceRateLimit, ipSubject, type RateLimitRule } from "@/lib/platform/kv/rate-limit";
import { clientIp } from "./client-ip";
import { parseWith, presentQueryValues } from "@/lib/core/input";
import { JsonText, toJson } from "@/lib/core/json";
import { log } from "@/lib/core/log";
import { traceRequest } from "@/lib/core/telemetry";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export type RouteContext<A extends AuthMode, Q, B, P> = {
  request: Request;
  requestId: string;
  principal: PrincipalFor<A>;
  query: Q;
  body: B;
  params: P;
  ip: string;
  /** For headers that depend on the answer (e.g. a stale-cache marker); status and body stay the wrapper's. */
  setHeader(name: string, value: string): void;
};

/**
 * What a handler may return for a response schema whose input is `I`: that input (serialised by toJson), JsonText
 * standing for it, a stream (with `contentType`) or nothing (204). Arrays may be readonly (an inline answer is
 * inferred as a constant, so a literal such as `success: true` keeps its type). Without a schema, anything.
 */
export type Answer<I> = Immutable<I> | JsonText<I> | ReadableStream | undefined;

type Immutable<T> = T extends readonly (infer E)[]
  ? readonly Immutable<E>[]
  : T extends object
    ? { readonly [K in keyof T]: Immutable<T[K]> }
    : T;

/** The answer type of a route built by route(): its response schema's input (unknown without a schema). */
export type AnswerOf<F> = F extends { definition: { response?: ZodType<unknown, infer I> } } ? I : unknown;

type RouteOptions<A extends AuthMode, Q, B, P, I, H> = {
  auth: A;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  params?: ZodType<P>;
  cache?: CachePolicy | ((principal: PrincipalFor<A>) => CachePolicy);
  /** Keyed by partner for partner routes, by client IP otherwise. */
  rateLimit?: RateLimitRule;
  maxBodyBytes?: number;
  /** The body may be left out: the handler then gets `{}` parsed by `body`. */
  optionalBody?: boolean;
  /** The handler reads `request.body` itself (streamed uploads) and enforces its own size cap. */
  rawBody?: boolean;
  headers?: Record<string, string>;
  status?: number;
  /** The answer's media type when the handler returns a ReadableStream (e.g. text/event-stream) instead of data. */
  contentType?: string;
  /** For the OpenAPI document: one line on what the operation does, and the shape of its answer. */
  summary?: string;
  /** The answer's schema when it is JSON: the handler must return its input (checked at compile time). */
  response?: ZodType<unknown, I>;
  /** For the OpenAPI document: what the operation does in full (behaviour, limits, errors worth knowing). */
  description?: string;
  /**
   * For the OpenAPI document: the body's schema when the handler validates the body itself with it (a streamed
   * upload, `rawBody`; or a body whose shape the service detects first, the deploy shapes). Never run here.
   */
  documentedBody?: ZodType;
  /** For the OpenAPI document: descriptions of parameters or top-level body members whose (shared) schema has none. */
  parameterDescriptions?: Record<string, string>;
  /** For the OpenAPI document: a limit the handler enforces itself (a 429 with Retry-After), in words. */
  quota?: string;
  deprecated?: boolean;
  handler: (ctx: RouteContext<A, Q, B, P>) => H | Promise<H>;
};

type NextContext = { params?: Promise<Record<string, string | string[] | undefined>> };

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers":
    "x-request-id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Deprecation, x-trending-stale",
};

/** OPTIONS handler for public routes: `export const OPTIONS = preflight;` */
export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
      "Access-Control-Allow-Headers":
        "content-type, authorization, fc-id-token, privy-id-token, x-api-key, x-request-id, last-event-id",
      "Access-Control-Max-Age": "86400",
    },
  });
}

function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && /^[\w.-]{1,64}$/.test(given) ? given : crypto.randomUUID();
}

/** The route's path template (/api/tokens/[address]) for telemetry: the path with each parameter's value named. */
async function routeTemplate(request: Request, next?: NextContext): Promise<string> {
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries((await next?.params) ?? {}))
    for (const v of [value].flat())
      if (v !== undefined) names.set(v, Array.isArray(value) ? `[...${name}]` : `[${name}]`);
  const segments = new URL(request.url).pathname.split("/").map((s) => names.get(safeDecode(s)) ?? s);
  return segments.filter((s, i) => !(s.startsWith("[...") && s === segments[i - 1])).join("/");
}

const safeDecode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** Repeated keys stay arrays, so a scalar parameter given two values is a 400, not a silent pick (presentQueryValues). */
export function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}

function errorResponse(error: HttpError, requestId: string, cors: boolean): Response {
  // `error` is the message string: the platform's existing clients read it as one.
  const body = {
    error: error.message,
    code: error.code,
    requestId,
    ...(error.details ? { details: error.details } : {}),
  };
  return new Response(toJson(body), {
    status: error.status,
    headers: {
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      "x-request-id": requestId,
      ...(cors ? CORS_HEADERS : {}),
      ...error.headers,
    },
  });
}

export function route<
  A extends AuthMode,
  Q = undefined,
  B = undefined,
  P = undefined,
  I = unknown,
  const H extends Answer<I> = Answer<I>,
>(options: RouteOptions<A, Q, B, P, I, H>) {
  const cors = options.auth === "public" || options.auth === "optionalAdmin" || options.auth === "optionalUser";
  return Object.assign(handle, { definition: options });
  async function handle(request: Request, next?: NextContext): Promise<Response> {
    const requestId = requestIdOf(request);
    const route = () => routeTemplate(request, next);
    const facts = { method: request.method, requestId, route, headers: request.headers };
    const response = await traceRequest(facts, () => respond(request, requestId, next));
    await countPartnerUsage(request, route, response.status);
    return response;
  }
  async function respond(request: Request, requestId: string, next?: NextContext): Promise<Response> {
    const headers = new Headers({ "x-request-id": requestId, ...(cors ? CORS_HEADERS : {}), ...options.headers });
    try {
      const principal = await authenticate(options.auth, request);
      const ip = clientIp(request);
      const setHeader = (name: string, value: string) => headers.set(name, value);
      if (options.rateLimit) {
        const subject = principal.kind === "partner" ? `partner:${principal.partnerId}` : ipSubject(ip);
        await enforceRateLimit(options.rateLimit, subject, setHeader);
      }
      const url = new URL(request.url);
      const params = options.params ? parseWith(options.params, (await next?.params) ?? {}, "path") : (undefined as P);
      const query = options.query
        ? parseWith(options.query, presentQueryValues(options.query, queryObject(url)), "query")
        : (undefined as Q);
      const body =
        options.body && !options.rawBody
          ? parseWith(
              options.body,
              await readJsonBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, options.optionalBody),
              "body",
            )
          : (undefined as B);
      const data = await options.handler({ request, requestId, principal, query, body, params, ip, setHeader });
      const policy: CachePolicy =
        typeof options.cache === "function" ? options.cache(principal) : (options.cache ?? cachePolicy.none);
      headers.set("Cache-Control", policy.cacheControl);
      if (policy.vary) headers.set("Vary", policy.vary);
      if (data === undefined) return new Response(null, { status: 204, headers });
      if (data instanceof ReadableStream) {
        headers.set("Content-Type", options.contentType ?? "application/octet-stream");
        return new Response(data, { status: options.status ?? 200, headers });
      }
      headers.set("Content-Type", "application/json");
      return new Response(data instanceof JsonText ? data.text : toJson(data), {
        status: options.status ?? 200,
        headers,
      });
    } catch (error) {
      const httpError = toHttpError(error);
      if (httpError.status >= 500) log.error("request failed", { requestId, url: request.url, error });
      const response = errorResponse(httpError, requestId, cors);
      if (request.body && !bodyFinished(request)) response.headers.set("Connection", "close");
      for (const name of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) {
        const value = headers.get(name);
        if (value) response.headers.set(name, value);
      }
      return response;
    }
  }
}
