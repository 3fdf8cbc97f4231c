// The OpenAPI 3.1 document, built from the route() definitions themselves (the zod schemas that validate
// requests), so the document cannot drift from what the service accepts.
import { z, type ZodType } from "zod";
import type { RateLimitRule } from "@/lib/platform/kv/rate-limit";
import { documentedScalarOf, type DocumentedScalar } from "@/lib/core/input";
import { SIGNATURE_SCHEME, tokenCreatedDelivery, WEBHOOK_HEADERS } from "@/lib/domains/webhooks/schemas";
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
 * transformed after validation; `place` says how the shared helpers are shown). Output side: an answer. Self-
 * contained: the named schemas (`.meta({ id })`) are written out where they appear, as a validator reads fastest
 * (the API tests check every answer against it); the document refers to them instead (namedJsonSchema).
 */
export function jsonSchema(schema: ZodType, io: "input" | "output", place: InputPlace = "body"): JsonSchema {
  const json = namedJsonSchema(schema, io, place);
  if (!json.$defs) return json;
  const { $defs, ...rest } = json;
  const inline = (value: unknown, stack: string[]): unknown => {
    if (Array.isArray(value)) return value.map((v) => inline(v, stack));
    if (!value || typeof value !== "object") return value;
    const { $ref, ...members } = value as JsonSchema;
    const out: JsonSchema = {};
    if (typeof $ref === "string" && $ref.startsWith(LOCAL_DEFS)) {
      const id = $ref.slice(LOCAL_DEFS.length);
      if (stack.includes(id)) throw new Error(`schema ${id} refers to itself`);
      Object.assign(out, inline($defs[id], [...stack, id]));
    } else if ($ref !== undefined) out.$ref = $ref;
    for (const [key, v] of Object.entries(members)) out[key] = inline(v, stack);
    return out;
  };
  try {
    return inline(rest, []) as JsonSchema;
  } catch {
    return json; // a recursive schema keeps its $defs
  }
}

/**
 * jsonSchema with the named schemas (`.meta({ id })`: Token, User, Presale, ...) as `$ref`s to its `$defs`, which
 * the document turns into its components (NamedSchemas).
 */
function namedJsonSchema(schema: ZodType, io: "input" | "output", place: InputPlace): JsonSchema {
  try {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
      ...(io === "input" ? { override: inputOverride(place) } : {}),
    }) as JsonSchema;
    return rest;
  } catch (error) {
    // Two schemas under one name would make the components lie: a programming error, not an undescribable schema.
    if (error instanceof Error && /Duplicate schema id/.test(error.message)) throw error;
    return {}; // a schema zod cannot describe is documented as "anything"; validation still applies
  }
}

const COMPONENTS = "#/components/schemas/";
const LOCAL_DEFS = "#/$defs/";

/** `$ref`s of a JSON value rewritten by `to` (refs it returns unchanged stay). */
function rewriteRefs<T>(value: T, to: (ref: string) => string): T {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, to)) as T;
  if (!value || typeof value !== "object") return value;
  const out: JsonSchema = {};
  for (const [key, v] of Object.entries(value))
    out[key] = key === "$ref" && typeof v === "string" ? to(v) : rewriteRefs(v, to);
  return out as T;
}

type Side = "input" | "output";

/**
 * The named schemas (zod `.meta({ id })`) met while the operations are built, published as `components.schemas`
 * so that a generator names their types (`components["schemas"]["Token"]`). A name is the zod id; when the request
 * side of a schema differs from its answer side (defaults, transforms, closed objects), the request side is
 * `<id>Input`. Refs are placeholders (`<id>@<side>`) until `publish` knows every side.
 */
class NamedSchemas {
  private readonly found = new Map<string, Partial<Record<Side, JsonSchema>>>();

  /** `json` without its `$defs` (kept here) and with its refs pointing at the placeholders. */
  take(json: JsonSchema, side: Side): JsonSchema {
    const { $defs = {}, ...rest } = json;
    const local = (ref: string) =>
      ref.startsWith(LOCAL_DEFS) ? `${COMPONENTS}${ref.slice(LOCAL_DEFS.length)}@${side}` : ref;
    for (const [id, def] of Object.entries<JsonSchema>($defs)) {
      const body = rewriteRefs(def, local);
      const sides = this.found.get(id) ?? {};
      const known = sides[side];
      if (known && JSON.stringify(known) !== JSON.stringify(body))
        throw new Error(`schema ${id} (${side}) converts differently in two places: give them different ids`);
      sides[side] = body;
      this.found.set(id, sides);
    }
    return rewriteRefs(rest, local);
  }

  /** The component name of each placeholder, and the components themselves. */
  publish(): { name: (ref: string) => string; schemas: Record<string, JsonSchema> } {
    const names = new Map<string, string>();
    const schemas: Record<string, JsonSchema> = {};
    for (const [id, { input, output }] of [...this.found].sort(([a], [b]) => a.localeCompare(b))) {
      const same = input && output && JSON.stringify(input) === JSON.stringify(output);
      if (output) names.set(`${id}@output`, id);
      if (input) names.set(`${id}@input`, output && !same ? `${id}Input` : id);
    }
    const name = (ref: string) => {
      const key = ref.startsWith(COMPONENTS) ? ref.slice(COMPONENTS.length) : "";
      const named = names.get(key);
      return named ? `${COMPONENTS}${named}` : ref;
    };
    for (const [id, sides] of this.found)
      for (const side of ["output", "input"] as const) {
        const body = sides[side];
        const published = names.get(`${id}@${side}`);
        if (body && published && !schemas[published]) schemas[published] = rewriteRefs(body, name);
      }
    return { name, schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) };
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

/**
 * A body's top-level members without a description of their own get the route's `parameterDescriptions` (a body
 * schema kept with code this route does not own, as for parameters).
 */
function describeMembers(schema: JsonSchema, descriptions: Record<string, string> = {}): JsonSchema {
  if (!schema.properties) return schema;
  const properties = Object.fromEntries(
    Object.entries<JsonSchema>(schema.properties).map(([name, s]) => [
      name,
      s.description || !descriptions[name] ? s : { ...s, description: descriptions[name] },
    ]),
  );
  return { ...schema, properties };
}

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
  named: NamedSchemas,
  descriptions: Record<string, string> = {},
): JsonSchema[] {
  if (!schema) return [];
  const object = namedJsonSchema(schema, "input", "parameter");
  const required = new Set<string>(object.required ?? []);
  return Object.entries<JsonSchema>(object.properties ?? {}).map(([name, s]) => {
    const { description = descriptions[name], ...rest } = s;
    const example = isBareString(rest) ? undefined : exampleFor(rest, name, 0, object.$defs);
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(description ? { description } : {}),
      schema: named.take({ ...rest, $defs: object.$defs }, "input"),
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
function bodyContent(json: JsonSchema, named: NamedSchemas): JsonSchema {
  const schema = named.take(json, "input");
  const defs: Record<string, JsonSchema> = json.$defs ?? {};
  const members: JsonSchema[] = (json.anyOf ?? json.oneOf ?? []).map((m: JsonSchema) =>
    typeof m.$ref === "string" && m.$ref.startsWith(LOCAL_DEFS)
      ? { ...defs[m.$ref.slice(LOCAL_DEFS.length)], ...m }
      : m,
  );
  if (members.length && members.every((m) => m.title && m.examples?.length)) {
    const examples = Object.fromEntries(
      members.map((m) => [m.title, { summary: m.description ?? m.title, value: m.examples[0] }]),
    );
    return { schema, examples };
  }
  const example = exampleFor(json);
  return { schema, ...(example !== undefined ? { example } : {}) };
}

function operation(path: string, method: string, def: Definition, named: NamedSchemas): JsonSchema {
  const params = [
    ...parameters(def.params, "path", named, def.parameterDescriptions),
    ...parameters(def.query, "query", named, def.parameterDescriptions),
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
      content: {
        "application/json": bodyContent(
          describeMembers(namedJsonSchema(body, "input", "body"), def.parameterDescriptions),
          named,
        ),
      },
    };
  }
  const status = String(def.status ?? 200);
  const success = def.response
    ? namedJsonSchema(def.response, "output", "body")
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
                schema: named.take(success, "output"),
                ...(example !== undefined && !def.contentType ? { example } : {}),
              },
            },
          },
    ...errorResponses(def, Boolean(def.params || def.query || def.body || def.rawBody)),
  };
  return op;
}

/**
 * The launch webhooks (OpenAPI 3.1 `webhooks`): what the service POSTs to a partner's registered URL, with the
 * headers and signature a receiver checks (docs/webhooks.md).
 */
function webhooks(named: NamedSchemas): Record<string, JsonSchema> {
  const payload = namedJsonSchema(tokenCreatedDelivery, "output", "body");
  const example = exampleFor(payload);
  const header = (name: string, description: string, schema: JsonSchema, value: string) => ({
    name,
    in: "header",
    required: true,
    description,
    schema,
    example: value,
  });
  return {
    "token.created": {
      post: {
        operationId: "webhookTokenCreated",
        tags: ["webhooks"],
        summary: "A token was launched (token.created)",
        description: [
          "Sent to every active subscription to `token.created` (POST /api/webhooks) when the service indexes a token",
          "deployed within the last hour, once per subscription and token. Signature: ",
          SIGNATURE_SCHEME,
          " Any 2xx within WEBHOOK_TIMEOUT_MS is success; anything else (an error, a timeout, a redirect) is retried",
          "after 30 s, 2 min, 10 min, 30 min, 2 h, 6 h and 12 h, with the same x-webhook-id, and a subscription",
          "failing for 24 h is paused.",
        ].join(" "),
        security: [{ webhookSignature: [] }],
        parameters: [
          header(
            WEBHOOK_HEADERS.id,
            "The delivery's id (`whd_` + 32 hex), the same on every attempt and as the body's `id`",
            { type: "string", pattern: "^whd_[0-9a-f]{32}$" },
            `whd_${"0f".repeat(16)}`,
          ),
          header(
            WEBHOOK_HEADERS.timestamp,
            "When this attempt was signed, unix seconds (decimal text); part of the signed text",
            { type: "string", pattern: "^\\d{1,12}$" },
            "1767225600",
          ),
          header(
            WEBHOOK_HEADERS.signature,
            "`v1=` + hex HMAC-SHA256(secret, `<x-webhook-timestamp>.<raw body>`)",
            { type: "string", pattern: "^v1=[0-9a-f]{64}$" },
            `v1=${"ab".repeat(32)}`,
          ),
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: named.take(payload, "output"),
              ...(example !== undefined ? { example } : {}),
            },
          },
        },
        responses: {
          "2XX": { description: "Received: any 2xx answer ends the delivery (its body is read and dropped)" },
          default: {
            description: "Any other answer, or none within WEBHOOK_TIMEOUT_MS, is a failed attempt, retried later",
          },
        },
      },
    },
  };
}

/** The operation's tag: the first segment after /api/ (the tags and their descriptions are in components.ts). */
export function tagOf(path: string): string {
  return path.split("/")[2] ?? "api";
}

export function buildDocument(routes: RouteModule[], serverUrl = "/"): JsonSchema {
  const named = new NamedSchemas();
  const built: Record<string, JsonSchema> = {};
  for (const { path, module } of routes) {
    for (const method of DOCUMENTED_METHODS) {
      const def = definitionOf(module[method]);
      if (!def) continue;
      (built[path] ??= {})[method.toLowerCase()] = operation(path, method, def, named);
    }
  }
  const hooks = webhooks(named);
  const { name, schemas } = named.publish();
  const paths = rewriteRefs(built, name);
  const used = new Set(Object.values(paths).flatMap((item) => Object.values<JsonSchema>(item).map((op) => op.tags[0])));
  return {
    openapi: "3.1.0",
    info: { title: "Token launch service", version: "1", description: SERVICE_DESCRIPTION },
    servers: [{ url: serverUrl, description: "This service (the document is served by it)" }],
    tags: [...used].sort().map((name) => ({ name, description: TAGS[name] ?? `Operations under /api/${name}` })),
    paths,
    webhooks: rewriteRefs(hooks, name),
    components: { securitySchemes, schemas: { Error: errorEnvelope, ...schemas } },
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
  webhooks: z.record(z.string(), z.object({ post: jsonObject })),
  components: z.object({
    securitySchemes: z.record(z.string(), jsonObject),
    schemas: z.record(z.string(), jsonObject),
  }),
});

/**
 * A schema of the document as a JSON Schema of its own: its refs to the named components point at `$defs`, which
 * holds them all (for a validator given one schema at a time: ajv, zod's fromJSONSchema).
 */
export function standaloneSchema(document: JsonSchema, schema: JsonSchema): JsonSchema {
  const local = (ref: string) => (ref.startsWith(COMPONENTS) ? `${LOCAL_DEFS}${ref.slice(COMPONENTS.length)}` : ref);
  return { ...rewriteRefs(schema, local), $defs: rewriteRefs(document.components.schemas, local) };
}

/** Every (METHOD, path) pair the document lists. */
export function operationsOf(document: JsonSchema): string[] {
  return Object.entries<JsonSchema>(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
  );
}
