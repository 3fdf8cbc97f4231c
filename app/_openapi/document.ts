// The OpenAPI 3.1 document, built from the route() definitions themselves (the zod schemas that validate
// requests), so the document cannot drift from what the service accepts.
import { z, type ZodType } from "zod";
import type { RateLimitRule } from "@/lib/platform/kv/rate-limit";
import { documentedScalarOf, type DocumentedScalar } from "@/lib/core/input";
import { errorEnvelope, exampleFor, securitySchemes, SERVICE_DESCRIPTION, TAGS } from "./components";

export const DOCUMENTED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteModule = { path: string; file: string; module: Record<string, unknown> };

type Definition = {
  auth: string;
  query?: ZodType;
  body?: ZodType;
  documentedBody?: ZodType;
  optionalBody?: boolean;
  params?: ZodType;
  parameterDescriptions?: Record<string, string>;
  response?: ZodType;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  rateLimit?: RateLimitRule;
  quota?: string;
  rawBody?: boolean;
  status?: number;
  contentType?: string;
  maxBodyBytes?: number;
};
type JsonSchema = Record<string, any>;

/** The route() definition behind an exported method, or null for anything else (OPTIONS = preflight). */
export function definitionOf(handler: unknown): Definition | null {
  const def = (handler as { definition?: Definition } | undefined)?.definition;
  return def && typeof def.auth === "string" ? def : null;
}

/** Where an input schema is shown: query and path values are text on the wire, a JSON body has numbers. */
export type InputPlace = "parameter" | "body";

/** Keys of a schema that describe it rather than constrain it: kept when a helper's schema is rewritten. */
const ANNOTATIONS = new Set(["description", "title", "examples", "deprecated"]);

function scalarSchema(scalar: DocumentedScalar, place: InputPlace): JsonSchema {
  if (scalar.type === "boolean") return { type: "boolean" };
  if (scalar.type === "string") return { type: "string", enum: [...scalar.enum] };
  if (scalar.type === "number") return { type: "number", minimum: scalar.minimum, maximum: scalar.maximum };
  const integer = {
    type: "integer",
    minimum: scalar.minimum,
    maximum: scalar.maximum,
    ...(scalar.example !== undefined ? { examples: [scalar.example] } : {}),
  };
  if (place === "parameter" || !scalar.integerOrText) return integer;
  return { anyOf: [integer, { type: "string", pattern: "^\\s*-?\\d{1,16}\\s*$", description: "the number as text" }] };
}

/** Whether `value` passes the (shallow) constraints of `schema`: enough for a default of a primitive. */
function admits(schema: JsonSchema, value: unknown): boolean {
  if (schema.anyOf) return schema.anyOf.some((s: JsonSchema) => admits(s, value));
  if (schema.enum && !schema.enum.includes(value)) return false;
  const kind = Number.isInteger(value) ? "integer" : typeof value;
  const types: string[] = [schema.type ?? []].flat();
  if (types.length && !types.includes(kind) && !(kind === "integer" && types.includes("number"))) return false;
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return false;
    if (schema.maximum !== undefined && value > schema.maximum) return false;
  }
  return true;
}

/**
 * The input side of the query helpers of lib/core/input.ts as a client sends them (integers with their range,
 * booleans; see DocumentedScalar), and the defaults zod drops on the input side of a transforming schema.
 */
function inputOverride(place: InputPlace) {
  return (ctx: { zodSchema: unknown; jsonSchema: JsonSchema }) => {
    const schema = ctx.zodSchema as ZodType;
    const json = ctx.jsonSchema;
    const scalar = documentedScalarOf(schema);
    if (scalar && (place === "parameter" || scalar.type === "integer")) {
      for (const key of Object.keys(json)) if (!ANNOTATIONS.has(key)) delete json[key];
      Object.assign(json, scalarSchema(scalar, place));
      return;
    }
    // zod drops examples on the input side of anything that transforms; a request schema's examples are inputs.
    const examples = z.globalRegistry.get(schema)?.examples;
    if (Array.isArray(examples) && json.examples === undefined) json.examples = examples;
    const def = (schema as unknown as { _zod: { def: { type: string; defaultValue?: unknown } } })._zod.def;
    if (def.type === "default" && json.default === undefined) {
      const value = def.defaultValue;
      if (["string", "number", "boolean"].includes(typeof value) && admits(json, value)) json.default = value;
    }
  };
}

/**
 * A zod schema as JSON Schema. Input side: the schema of a request (query and path values arrive as text and are
 * transformed after validation; `place` says how the shared helpers are shown). Output side: an answer.
 */
export function jsonSchema(schema: ZodType, io: "input" | "output", place: InputPlace = "body"): JsonSchema {
  try {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
      ...(io === "input" ? { override: inputOverride(place) } : {}),
    }) as JsonSchema;
    return rest;
  } catch {
    return {}; // a schema zod cannot describe is documented as "anything"; validation still applies
  }
}

const SECURITY: Record<string, Array<Record<string, string[]>>> = {
  public: [],
  partner: [{ apiKey: [] }],
  user: [{ bearerJwt: [] }, { fcIdToken: [] }, { bearerJwt: [], privyIdToken: [] }],
  optionalUser: [{}, { bearerJwt: [] }, { fcIdToken: [] }, { bearerJwt: [], privyIdToken: [] }],
  admin: [{ adminSession: [] }, { bearerJwt: [] }],
  optionalAdmin: [{}, { adminSession: [] }, { bearerJwt: [] }],
  cron: [{ cronSecret: [] }],
  qstash: [{ qstashSignature: [] }],
};

/** A string with nothing to go by (an opaque cursor, free text): a made-up example would mislead more than help. */
function isBareString(schema: JsonSchema): boolean {
  return (
    schema.type === "string" &&
    ["pattern", "format", "enum", "const", "default", "examples"].every((key) => schema[key] === undefined)
  );
}

function parameters(
  schema: ZodType | undefined,
  where: "query" | "path",
  descriptions: Record<string, string> = {},
): JsonSchema[] {
  if (!schema) return [];
  const object = jsonSchema(schema, "input", "parameter");
  const required = new Set<string>(object.required ?? []);
  return Object.entries<JsonSchema>(object.properties ?? {}).map(([name, s]) => {
    const { description = descriptions[name], ...rest } = s;
    const example = isBareString(rest) ? undefined : exampleFor(rest, name);
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
  if (limited) out["429"] = { ...ref(limited), headers: { "Retry-After": retryAfter } };
  out["500"] = ref("Unexpected failure (fixed message; details only in the log)");
  out["503"] = {
    ...ref(
      "A dependency (database, chain RPC, data provider) is unavailable or the request timed out; retry after Retry-After",
    ),
    headers: { "Retry-After": retryAfter },
  };
  return out;
}

const retryAfter = { description: "Seconds to wait before retrying", schema: { type: "integer", minimum: 0 } };

/**
 * The request body's media type: its schema and an example. A union whose members carry a title and examples
 * (the deploy shapes) gets one named example per member, so each version a client may send is shown.
 */
function bodyContent(schema: JsonSchema): JsonSchema {
  const members: JsonSchema[] = schema.anyOf ?? schema.oneOf ?? [];
  if (members.length && members.every((m) => m.title && m.examples?.length)) {
    const examples = Object.fromEntries(
      members.map((m) => [m.title, { summary: m.description ?? m.title, value: m.examples[0] }]),
    );
    return { schema, examples };
  }
  const example = exampleFor(schema);
  return { schema, ...(example !== undefined ? { example } : {}) };
}

function operation(path: string, method: string, def: Definition): JsonSchema {
  const params = [
    ...parameters(def.params, "path", def.parameterDescriptions),
    ...parameters(def.query, "query", def.parameterDescriptions),
  ];
  const op: JsonSchema = {
    operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, "").replace(/(^|[/-])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
    tags: [tagOf(path)],
    summary: def.summary ?? `${method} ${path}`,
    ...(def.description ? { description: def.description } : {}),
    ...(def.deprecated ? { deprecated: true } : {}),
    security: SECURITY[def.auth] ?? [],
    "x-auth": def.auth,
    ...(def.rateLimit ? { "x-rate-limit": def.rateLimit } : {}),
    ...(params.length ? { parameters: params } : {}),
  };
  const body = def.documentedBody ?? (def.rawBody ? undefined : def.body);
  if (body) {
    op.requestBody = {
      required: !def.optionalBody,
      content: { "application/json": bodyContent(jsonSchema(body, "input", "body")) },
    };
  }
  const status = String(def.status ?? 200);
  const success = def.response
    ? jsonSchema(def.response, "output")
    : { type: "object", description: "Not described by a response schema" };
  const example = def.response ? exampleFor(success) : undefined;
  op.responses = {
    [status]:
      status === "204"
        ? { description: "Success, no content" }
        : {
            description: "Success",
            content: {
              [def.contentType ?? "application/json"]: {
                schema: success,
                ...(example !== undefined && !def.contentType ? { example } : {}),
              },
            },
          },
    ...errorResponses(def, Boolean(def.params || def.query || def.body || def.rawBody)),
  };
  return op;
}

/** The operation's tag: the first segment after /api/ (the tags and their descriptions are in components.ts). */
export function tagOf(path: string): string {
  return path.split("/")[2] ?? "api";
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
  const used = new Set(Object.values(paths).flatMap((item) => Object.values<JsonSchema>(item).map((op) => op.tags[0])));
  return {
    openapi: "3.1.0",
    info: { title: "Token launch service", version: "1", description: SERVICE_DESCRIPTION },
    servers: [{ url: serverUrl, description: "This service (the document is served by it)" }],
    tags: [...used].sort().map((name) => ({ name, description: TAGS[name] ?? `Operations under /api/${name}` })),
    paths,
    components: { securitySchemes, schemas: { Error: errorEnvelope } },
  };
}

const jsonObject = z.record(z.string(), z.unknown());
/** The document's own outline (its operations are JSON Schema, described by OpenAPI 3.1 itself). */
export const openApiDocumentShape = z.object({
  openapi: z.literal("3.1.0"),
  info: z.object({ title: z.string(), version: z.string(), description: z.string() }),
  servers: z.array(z.object({ url: z.string(), description: z.string() })),
  tags: z.array(z.object({ name: z.string(), description: z.string() })),
  paths: z.record(
    z.string().regex(/^\/api\//, "must start with /api/"), // startsWith would publish a format no validator knows
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
