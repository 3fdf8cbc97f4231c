// Calls exported route handlers as Next would, and reads their answers. Every 2xx JSON answer of a route with a
// documented response schema is checked against that schema, so each API test also checks the OpenAPI contract.
import { z, type ZodType } from "zod";
import { jsonSchema } from "@/app/_openapi/document";
import type { AnswerOf } from "@/lib/http/route";

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export type CallOptions = {
  headers?: Record<string, string>;
  body?: unknown;
  params?: Record<string, string>;
  method?: string;
};

/** `body` is `T` for a 2xx JSON answer (checked against the route's response schema), else the error envelope. */
export type CallResult<T = any> = { status: number; headers: Headers; body: T; text: string };

/** A route's answer type: its response schema's input, else `any` (no schema, no claim). */
export type BodyOf<F> = unknown extends AnswerOf<F> ? any : AnswerOf<F>;

/**
 * Calls the handler as Next would. The body is typed as the route answers (its response schema's input): a test
 * reading an error's members reads them through expectError().
 */
export async function call<F extends Handler>(
  handler: F,
  pathAndQuery: string,
  options: CallOptions = {},
): Promise<CallResult<BodyOf<F>>> {
  const hasBody = options.body !== undefined;
  const request = new Request(`http://localhost:3000${pathAndQuery}`, {
    method: options.method ?? (hasBody ? "POST" : "GET"),
    headers: { ...(hasBody ? { "content-type": "application/json" } : {}), ...options.headers },
    body: hasBody ? (typeof options.body === "string" ? options.body : JSON.stringify(options.body)) : undefined,
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const answer = await readAnswer(response);
  checkDocumentedShape(handler, pathAndQuery, response, answer.body);
  return answer;
}

/** Status, headers, text and body (parsed JSON, the text when it is not JSON, null when empty). */
export async function readAnswer(response: Response): Promise<CallResult> {
  const text = await response.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body, text };
}

const published = new WeakMap<ZodType, ZodType>();

/**
 * The zod schema checks types and refinements; the schema as the OpenAPI document publishes it (JSON Schema,
 * additionalProperties false) also refuses a key the document does not list.
 */
function checkDocumentedShape(handler: Handler, pathAndQuery: string, response: Response, body: unknown) {
  const schema = (handler as { definition?: { response?: ZodType } }).definition?.response;
  const json = response.headers.get("content-type")?.startsWith("application/json");
  if (!schema || !json || response.status < 200 || response.status > 299) return;
  if (!published.has(schema)) published.set(schema, z.fromJSONSchema(jsonSchema(schema, "output")));
  for (const [which, check] of [
    ["schema", schema],
    ["published schema", published.get(schema)!],
  ] as const) {
    const parsed = check.safeParse(body);
    if (!parsed.success)
      throw new Error(`${pathAndQuery}: answer does not match its documented ${which}: ${parsed.error.message}`);
  }
}

/** The one error envelope, as the wire carries it. */
export type ErrorBody = { error: string; code: string; requestId: string; details?: unknown[] };

/** Asserts the one error envelope and returns it. */
export function expectError(result: CallResult, status: number, code: string): ErrorBody {
  if (result.status !== status || result.body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${result.status} ${result.text}`);
  }
  if (result.headers.get("cache-control") !== "no-store") throw new Error("error answers must be no-store");
  const body = result.body as ErrorBody;
  if (typeof body.error !== "string" || typeof body.requestId !== "string" || !body.requestId)
    throw new Error(`bad envelope: ${result.text}`);
  if (body.requestId !== result.headers.get("x-request-id"))
    throw new Error(`requestId ${body.requestId} differs from x-request-id`);
  if ("details" in body && !Array.isArray(body.details))
    throw new Error(`details must be an array when present: ${result.text}`);
  return body;
}
