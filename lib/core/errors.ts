// The one error type family: every non-2xx answer is an HttpError turned into the one envelope.
export type ErrorCode =
  | "invalid_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "request_timeout"
  | "idempotency_mismatch"
  | "unprocessable"
  | "rate_limited"
  | "provider_unavailable"
  | "timeout"
  | "internal";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * The base of every "a provider is unavailable" error, as viem's BaseError: which provider, how long to wait, and what
 * failed underneath (`cause`). The chain layer, the database mapping and the profile and market-data clients throw it
 * or a subclass; toHttpError answers each with the one 503. `message` is for the log, `answer` for the client.
 */
export class ProviderUnavailableError extends Error {
  override name = "ProviderUnavailableError";
  readonly retryAfterSeconds: number;
  /** The sentence the 503 carries: what a client may know, without the provider's detail. */
  readonly answer: string;
  /** "timeout" for a request that ran out of its time (a cancelled statement), else "provider_unavailable". */
  readonly code: "provider_unavailable" | "timeout";

  constructor(
    /** What is unavailable: "database", "chain", "neynar", "geckoterminal". */
    readonly provider: string,
    message: string,
    options: { retryAfterSeconds?: number; cause?: unknown; answer?: string; code?: "timeout" } = {},
  ) {
    super(message, { cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds ?? 5;
    this.answer = options.answer ?? message;
    this.code = options.code ?? "provider_unavailable";
  }
}

/** The one 503: every "try again later" answer has this status, its code, and Retry-After in seconds. */
function unavailable(
  code: ProviderUnavailableError["code"],
  message: string,
  retryAfterSeconds: number,
  details?: unknown,
) {
  return new HttpError(503, code, message, details, { "Retry-After": String(retryAfterSeconds) });
}

export const badRequest = (message: string, details?: unknown) =>
  new HttpError(400, "invalid_request", message, details);
export const unauthorized = (message = "missing or invalid credentials") => new HttpError(401, "unauthorized", message);
export const forbidden = (message = "not allowed for these credentials") => new HttpError(403, "forbidden", message);
export const notFound = (message = "not found") => new HttpError(404, "not_found", message);
export const methodNotAllowed = (method: string, allow: string) =>
  new HttpError(405, "method_not_allowed", `method ${method} is not served here`, undefined, { Allow: allow });
export const conflict = (message: string) => new HttpError(409, "conflict", message);
/** 413: the body's limit in bytes, or what the limit was in words. */
export const payloadTooLarge = (limit: number | string) =>
  new HttpError(413, "payload_too_large", typeof limit === "number" ? `request body exceeds ${limit} bytes` : limit);
export const requestTimeout = (message: string) => new HttpError(408, "request_timeout", message);
export const idempotencyMismatch = (message: string) => new HttpError(422, "idempotency_mismatch", message);
export const unprocessable = (message: string, details?: unknown) =>
  new HttpError(422, "unprocessable", message, details);
export const rateLimited = (retryAfterSeconds: number, message = "too many requests") =>
  new HttpError(429, "rate_limited", message, undefined, {
    "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
export const providerUnavailable = (message: string, retryAfterSeconds = 5, details?: unknown) =>
  unavailable("provider_unavailable", message, retryAfterSeconds, details);
/** 500 with the fixed message: what went wrong goes to the log, never to the client. */
export const internalError = () => new HttpError(500, "internal", "internal error");
export const timedOut = (message = "the request took too long; try again", retryAfterSeconds = 5) =>
  unavailable("timeout", message, retryAfterSeconds);

/** What a data exception refused, from PostgreSQL's message ("invalid input syntax for type json"): no value echoed. */
function dataExceptionWhat(message: string | undefined): string {
  const type = /for type ([\w ]+)/.exec(message ?? "")?.[1];
  return type ? `not a valid ${type}` : "a malformed value";
}

/** The database as a provider: a cancelled statement, a conflict to retry, or no connection. */
function databaseUnavailable(cause: unknown, answer: string, retryAfterSeconds: number, code?: "timeout") {
  return new ProviderUnavailableError("database", answer, { cause, retryAfterSeconds, code });
}

const CONNECTION_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH"]);

/**
 * Maps what lower layers throw (Postgres, sockets, the chain layer) to an HttpError; anything
 * unrecognised becomes `internal` with a fixed message (its details go only to the log).
 */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const unavailableProvider = error instanceof ProviderUnavailableError ? error : fromDatabase(error);
  if (unavailableProvider)
    return unavailable(unavailableProvider.code, unavailableProvider.answer, unavailableProvider.retryAfterSeconds);
  const e = error as { code?: string; name?: string; message?: string };
  if (e?.name === "ChainRevertError") {
    const reason =
      (error as { reason?: string; errorName?: string }).errorName ?? (error as { reason?: string }).reason;
    return unprocessable(`the chain rejected the call${reason ? `: ${reason}` : ""}`);
  }
  switch (e?.code) {
    case "23505":
      return conflict("a record with the same key already exists");
    case "22021": // invalid byte sequence: a NUL in a text value that no schema caught
    case "22P05": // untranslatable character: \u0000 in a JSON value
      return badRequest("the request holds a character the database cannot store (NUL)");
  }
  // Any other data exception (a value the database refuses: malformed JSON text, a number out of range) is the input's.
  if (typeof e?.code === "string" && e.code.startsWith("22"))
    return badRequest(`the request holds a value the database cannot store (${dataExceptionWhat(e.message)})`);
  return internalError();
}

/** What Postgres or its socket threw, as the database being unavailable; null for any other error. */
function fromDatabase(error: unknown): ProviderUnavailableError | null {
  const e = error as { code?: string; message?: string } | null | undefined;
  if (e?.code === "57014") return databaseUnavailable(error, "the request took too long; try again", 5, "timeout");
  if (e?.code === "40001" || e?.code === "40P01")
    return databaseUnavailable(error, "the database was busy; try again", 1);
  if (typeof e?.code === "string" && (CONNECTION_ERRORS.has(e.code) || /^(08|57P0|53)/.test(e.code)))
    return databaseUnavailable(error, "the database is unavailable", 5);
  if (
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
      e?.message ?? "",
    )
  )
    return databaseUnavailable(error, "the database is unavailable", 5);
  return null;
}
