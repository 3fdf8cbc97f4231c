// Calls exported route handlers as Next would, and reads their answers. Every 2xx JSON answer of a route with a
// documented response schema is checked against that schema, so each API test also checks the OpenAPI contract.
import type { ZodType } from "zod";

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export type CallOptions = {
  headers?: Record<string, string>;
  body?: unknown;
  params?: Record<string, string>;
  method?: string;
};

export type CallResult = { status: number; headers: Headers; body: any; text: string };

export async function call(handler: Handler, pathAndQuery: string, options: CallOptions = {}): Promise<CallResult> {
  const hasBody = options.body !== undefined;
  const request = new Request(`http://localhost:3000${pathAndQuery}`, {
    method: options.method ?? (hasBody ? "POST" : "GET"),
    headers: { ...(hasBody ? { "content-type": "application/json" } : {}), ...options.headers },
    body: hasBody ? (typeof options.body === "string" ? options.body : JSON.stringify(options.body)) : undefined,
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  checkDocumentedShape(handler, pathAndQuery, response, body);
  return { status: response.status, headers: response.headers, body, text };
}

function checkDocumentedShape(handler: Handler, pathAndQuery: string, response: Response, body: unknown) {
  const schema = (handler as { definition?: { response?: ZodType } }).definition?.response;
  const json = response.headers.get("content-type")?.startsWith("application/json");
  if (!schema || !json || response.status < 200 || response.status > 299) return;
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`${pathAndQuery}: answer does not match its documented schema: ${parsed.error.message}`);
}

/** Asserts the one error envelope and returns it. */
export function expectError(result: CallResult, status: number, code: string) {
  if (result.status !== status || result.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${result.status} ${result.text}`);
  }
  if (result.headers.get("cache-control") !== "no-store") throw new Error("error answers must be no-store");
  if (typeof result.body.error.message !== "string" || !result.body.error.requestId) throw new Error("bad envelope");
  return result.body.error as { code: string; message: string; requestId: string; details?: unknown[] };
}
