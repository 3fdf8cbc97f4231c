// The OpenAPI 3.1 document, built from the route() definitions themselves (the zod schemas that validate
// requests), so the document cannot drift from what the service accepts.
import { z, type ZodType } from "zod";
import type { RateLimitRule } from "@/lib/platform/kv/rate-limit";
import { errorEnvelope, exampleFor, securitySchemes } from "./components";

export const DOCUMENTED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteModule = { path: string; file: string; module: Record<string, unknown> };

type Definition = {
  auth: string;
  query?: ZodType;
  body?: ZodType;
  optionalBody?: boolean;
  params?: ZodType;
  response?: ZodType;
  summary?: string;
  deprecated?: boolean;
  rateLimit?: RateLimitRule;
  quota?: string;
  rawBody?: boolean;
  status?: number;
  maxBodyBytes?: number;
};
type JsonSchema = Record<string, any>;

/** The route() definition behind an exported method, or null for anything else (OPTIONS = preflight). */
export function definitionOf(handler: unknown): Definition | null {
  const def = (handler as { definition?: Definition } | undefined)?.definition;
  return def && typeof def.auth === "string" ? def : null;
}

/** Input side: query and path values arrive as strings and are transformed after validation. */
export function jsonSchema(schema: ZodType, io: "input" | "output"): JsonSchema {
  try {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    return rest;
  } catch {
    return {}; // a schema zod cannot describe is documented as "anything"; validation still applies
  }
}

const SECURITY: Record<string, Array<Record<string, string[]>>> = {
  public: [],
  partner: [{ apiKey: [] }],
  user: [{ bearerJwt: [] }],
  optionalUser: [{}, { bearerJwt: [] }],
  admin: [{ adminSession: [] }, { bearerJwt: [] }],
  optionalAdmin: [{}, { adminSession: [] }, { bearerJwt: [] }],
  cron: [{ cronSecret: [] }],
  qstash: [{ qstashSignature: [] }],
};

function parameters(schema: ZodType | undefined, where: "query" | "path"): JsonSchema[] {
  if (!schema) return [];
  const object = jsonSchema(schema, "input");
  const required = new Set<string>(object.required ?? []);
  return Object.entries<JsonSchema>(object.properties ?? {}).map(([name, s]) => {
    const { description, ...rest } = s;
    const example = exampleFor(rest, name);
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
      ...(example !== undefined ? { example } : {}),
    };
  });
}

function errorResponses(def: Definition, hasInput: boolean): Record<string, JsonSchema> {
  const ref = (description: string) => ({
    description,
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  });
  const out: Record<string, JsonSchema> = {};
  if (hasInput) out["400"] = ref("Invalid input: the message names the parameter; `details` lists every zod issue");
  if (def.auth !== "public" && !def.auth.startsWith("optional")) {
    out["401"] = ref("Missing, unknown, revoked or expired credentials");
    out["403"] = ref("Credentials of the wrong kind (e.g. a user token on a partner route) or not allowed");
  }
  if (def.body || def.rawBody) {
    out["408"] = ref(
      "The body did not arrive within its deadline, or arrived slower than the minimum rate (BODY_TIMEOUT_SECONDS, BODY_MIN_BYTES_PER_SECOND)",
    );
    out["413"] = ref(`Body larger than ${def.maxBodyBytes ?? 1024 * 1024} bytes (streamed uploads have their own cap)`);
  }
  const limits = [
    def.rateLimit &&
      `More than ${def.rateLimit.limit} requests in ${def.rateLimit.windowSeconds} s (per partner, else per IP)`,
    def.quota,
  ].filter(Boolean);
  const limited = limits.join("; or ");
  if (limited) out["429"] = { ...ref(limited), headers: { "Retry-After": { schema: { type: "integer" } } } };
  out["500"] = ref("Unexpected failure (fixed message; details only in the log)");
  out["503"] = {
    ...ref(
      "A dependency (database, chain RPC, data provider) is unavailable or the request timed out; retry after Retry-After",
    ),
    headers: { "Retry-After": { schema: { type: "integer" } } },
  };
  return out;
}

function operation(path: string, method: string, def: Definition): JsonSchema {
  const params = [...parameters(def.params, "path"), ...parameters(def.query, "query")];
  const op: JsonSchema = {
    operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, "").replace(/(^|[/-])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
    tags: [path.split("/")[2] ?? "api"],
    summary: def.summary ?? `${method} ${path}`,
    ...(def.deprecated ? { deprecated: true } : {}),
    security: SECURITY[def.auth] ?? [],
    "x-auth": def.auth,
    ...(def.rateLimit ? { "x-rate-limit": def.rateLimit } : {}),
    ...(params.length ? { parameters: params } : {}),
  };
  if (def.body) {
    const schema = jsonSchema(def.body, "input");
    op.requestBody = {
      required: !def.optionalBody,
      content: { "application/json": { schema, example: exampleFor(schema) } },
    };
  } else if (def.rawBody) {
    op.requestBody = {
      required: false,
      description: "Read (streamed) by the handler itself",
      content: { "application/json": { schema: {} } },
    };
  }
  const status = String(def.status ?? 200);
  const success = def.response
    ? jsonSchema(def.response, "output")
    : { type: "object", description: "Not described by a response schema" };
  op.responses = {
    [status]:
      status === "204"
        ? { description: "Success, no content" }
        : {
            description: "Success",
            content: {
              "application/json": { schema: success, ...(def.response ? { example: exampleFor(success) } : {}) },
            },
          },
    ...errorResponses(def, Boolean(def.params || def.query || def.body || def.rawBody)),
  };
  return op;
}

export function buildDocument(routes: RouteModule[], serverUrl = "/"): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const { path, module } of routes) {
    for (const method of DOCUMENTED_METHODS) {
      const def = definitionOf(module[method]);
      if (!def) continue;
      (paths[path] ??= {})[method.toLowerCase()] = operation(path, method, def);
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Token launch service",
      version: "1",
      description: "Generated from the zod schemas that validate each route. Every error uses the `Error` envelope.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: { securitySchemes, schemas: { Error: errorEnvelope } },
  };
}

const jsonObject = z.record(z.string(), z.unknown());
/** The document's own outline (its operations are JSON Schema, described by OpenAPI 3.1 itself). */
export const openApiDocumentShape = z.object({
  openapi: z.literal("3.1.0"),
  info: z.object({ title: z.string(), version: z.string(), description: z.string() }),
  servers: z.array(z.object({ url: z.string() })),
  paths: z.record(
    z.string().startsWith("/api/"),
    z.partialRecord(z.enum(["get", "post", "put", "patch", "delete"]), jsonObject),
  ),
  components: z.object({
    securitySchemes: z.record(z.string(), jsonObject),
    schemas: z.record(z.string(), jsonObject),
  }),
});

/** Every (METHOD, path) pair the document lists. */
export function operationsOf(document: JsonSchema): string[] {
  return Object.entries<JsonSchema>(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
  );
}
