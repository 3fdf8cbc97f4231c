// Shared pieces of the OpenAPI document: the service and tag texts, auth schemes, the error envelope, and example
// values generated from a schema (each one valid against it: tests/api/openapi.test.ts checks them with ajv).
import { SIGNATURE_SCHEME } from "@/lib/domains/webhooks/schemas";
export const securitySchemes = {
  apiKey: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: "Partner API key (`npm run apikey -- create <name>`)",
  },
  bearerJwt: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "User token (Farcaster Quick Auth or Privy)",
  },
  fcIdToken: {
    type: "apiKey",
    in: "header",
    name: "fc-id-token",
    description:
      "The platform's form: a Farcaster Quick Auth token in this header (the Bearer, if any, must not name another user)",
  },
  privyIdToken: {
    type: "apiKey",
    in: "header",
    name: "privy-id-token",
    description:
      "The platform's form: a Privy identity token in this header, with the Privy access token as the Bearer",
  },
  adminSession: { type: "apiKey", in: "cookie", name: "admin_session", description: "Set by POST /api/admin/verify" },
  cronSecret: { type: "http", scheme: "bearer", description: "CRON_SECRET, as Vercel's cron sends it" },
  qstashSignature: {
    type: "apiKey",
    in: "header",
    name: "Upstash-Signature",
    description: "QStash's signature (a JWT) over the raw body and the URL",
  },
  webhookSignature: {
    type: "apiKey",
    in: "header",
    name: "x-webhook-signature",
    description: `Launch webhooks (the document's \`webhooks\`), sent by this service to a partner: ${SIGNATURE_SCHEME}`,
  },
} as const;

export const errorEnvelope = {
  type: "object",
  description: "The one error envelope: every 4xx and 5xx answer of the API is this object",
  required: ["error", "code", "requestId"],
  properties: {
    error: {
      type: "string",
      description: "The message, for people; the platform's existing clients read `error` as a string",
    },
    code: {
      type: "string",
      enum: [
        "invalid_request",
        "unauthorized",
        "forbidden",
        "not_found",
        "method_not_allowed",
        "conflict",
        "payload_too_large",
        "request_timeout",
        "idempotency_mismatch",
        "unprocessable",
        "rate_limited",
        "provider_unavailable",
        "timeout",
        "internal",
      ],
    },
    requestId: { type: "string", description: "Also in the x-request-id header" },
    details: {
      type: "array",
      description: "Only when there are any. For invalid_request: [{ in, path, message }] per zod issue",
    },
  },
  example: { error: "limit: Too big: expected number to be <=100", code: "invalid_request", requestId: "3f0c…" },
} as const;

type JsonSchema = Record<string, any>;

export const SERVICE_DESCRIPTION = [
  "The HTTP API of the token launch platform (Base, chain 8453): token lists and lookups, creators and profiles,",
  "presales and airdrops with Merkle proofs, market data, the agents' leaderboard, pending token configurations",
  "(pretokens) and deployments. Generated from the zod schemas that validate each route, so it describes what the",
  "service accepts. Query values are text on the wire: integers and booleans are shown with their type and range,",
  "and the service reads `limit=2`, `includeUser=true` (also `1`, `TRUE`). Every error answers the `Error`",
  "envelope, with the problem in `error` and, for invalid input, every issue in `details`.",
].join(" ");

/** Each tag (the first path segment after /api/) in one line; a tag without a line gets a generic one. */
export const TAGS: Record<string, string> = {
  admin: "Admin sessions: trade an admin's credentials for the admin_session cookie",
  airdrops: "Airdrop Merkle trees: uploads, claim amounts, proofs and allocations",
  creator: "A creator wallet's profile and launch statistics",
  "creator-earnings": "WETH claimed by a token's reward recipients",
  cron: "Vercel cron entry points (CRON_SECRET)",
  droid: "The agents' leaderboard",
  "get-estimated-uncollected-fees": "Deprecated fee estimates",
  "get-multiple-users-by-fid": "Profiles by FID",
  "get-token-by-address": "One token by address (partners)",
  "get-tokens-by-fid": "Tokens of a FID (partners)",
  "get-tokens-deployed": "Tokens of the accounts a FID follows",
  "get-user-by-address": "A profile by verified address",
  "get-user-by-fid": "A profile by FID",
  "get-user-by-name": "A profile by username",
  health: "Health of the service and its backends",
  jobs: "QStash deliveries of outbox jobs",
  marketcap: "Market cap from a pool's on-chain price",
  metadata: "The token factories the service trusts",
  "openapi.json": "This document",
  ping: "Liveness",
  presales: "Presales, their allowlist trees and proofs",
  pretoken: "Pretokens: pending token configurations of signed-in users",
  quotes: "Swap quotes from the configured aggregators",
  "search-creator": "Creator search",
  tokens: "Token lists, search, lookups, trending, deployments and indexing",
  webhooks: "Partners' launch webhooks",
};

const SAMPLE_ADDRESS = "0x4200000000000000000000000000000000000006";
const SAMPLE_UUID = "3f0c2b7e-1a2b-4c3d-8e9f-0a1b2c3d4e5f";
const MAX_DEPTH = 12;

/**
 * A value valid against a JSON schema, or undefined when none is found: its examples, default, const or first
 * enum value first; then one built from its type (every required member, each optional one that can be built;
 * strings tried by format, name and pattern). A caller with no example publishes none rather than a wrong one.
 */
export function exampleFor(
  schema: JsonSchema | undefined,
  name = "",
  depth = 0,
  defs: Record<string, JsonSchema> | undefined = schema?.$defs,
): unknown {
  if (!schema || depth > MAX_DEPTH) return undefined;
  if (typeof schema.$ref === "string") {
    // A named schema (`#/$defs/Token` before the document publishes it): its members, with what the ref adds.
    const { $ref, ...rest } = schema;
    const target = $ref.startsWith("#/$defs/") ? defs?.[$ref.slice("#/$defs/".length)] : undefined;
    return target ? exampleFor({ ...target, ...rest }, name, depth, defs) : undefined;
  }
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const variants: JsonSchema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (variants) {
    // A real value before null: an example of a nullable member shows what it holds when it holds something.
    const ordered = [...variants.filter((s) => s.type !== "null"), ...variants.filter((s) => s.type === "null")];
    for (const variant of ordered) {
      const value = exampleFor(variant, name, depth + 1, defs);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  const types: string[] = [schema.type ?? []].flat();
  const type = types.find((t) => t !== "null") ?? types[0];
  switch (type) {
    case "object":
      return objectExample(schema, depth, defs);
    case "array":
      return arrayExample(schema, name, depth, defs);
    case "integer":
    case "number":
      return numberExample(schema, type === "integer", name);
    case "boolean":
      return false;
    case "string":
      return stringExample(schema, name);
    case "null":
      return null;
  }
  return undefined;
}

type Defs = Record<string, JsonSchema> | undefined;

function objectExample(schema: JsonSchema, depth: number, defs: Defs): Record<string, unknown> | undefined {
  const required = new Set<string>(schema.required ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries<JsonSchema>(schema.properties ?? {})) {
    const value = exampleFor(sub, key, depth + 1, defs);
    if (value !== undefined) out[key] = value;
    else if (required.has(key)) return undefined;
  }
  return Object.keys(out).length >= (schema.minProperties ?? 0) ? out : undefined;
}

function arrayExample(schema: JsonSchema, name: string, depth: number, defs: Defs): unknown[] | undefined {
  if (schema.prefixItems) {
    const items = schema.prefixItems.map((s: JsonSchema, i: number) => exampleFor(s, `${name}.${i}`, depth + 1, defs));
    return items.includes(undefined) ? undefined : items;
  }
  const item = exampleFor(schema.items, name, depth + 1, defs);
  const count = Math.max(1, schema.minItems ?? 0);
  if (item === undefined) return (schema.minItems ?? 0) === 0 ? [] : undefined;
  if (schema.maxItems === 0) return [];
  // Repeated items would break uniqueItems; one item satisfies it.
  return schema.uniqueItems ? [item] : Array.from({ length: count }, () => item);
}

/** Plausible numbers by a member's name; any other number starts from 1. */
function preferredNumber(name: string): number {
  if (/chain_?id$/i.test(name)) return 8453;
  if (/fid$/i.test(name)) return 3;
  if (/(timestamp|_at)$/i.test(name)) return 1_767_225_600;
  return 1;
}

function numberExample(schema: JsonSchema, integer: boolean, name: string): number | undefined {
  let value = preferredNumber(name);
  if (schema.minimum !== undefined && value < schema.minimum) value = schema.minimum;
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) value = schema.exclusiveMinimum + 1;
  if (schema.maximum !== undefined && value > schema.maximum) value = schema.maximum;
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) value = schema.exclusiveMaximum - 1;
  if (integer) value = Math.ceil(value);
  const fits =
    (schema.minimum === undefined || value >= schema.minimum) &&
    (schema.maximum === undefined || value <= schema.maximum) &&
    (schema.exclusiveMinimum === undefined || value > schema.exclusiveMinimum) &&
    (schema.exclusiveMaximum === undefined || value < schema.exclusiveMaximum) &&
    (schema.multipleOf === undefined || Number.isInteger(value / schema.multipleOf));
  return fits ? value : undefined;
}

/** Plausible strings by a member's name (tried first, kept only if they pass the schema). */
const NAMED_STRINGS: Record<string, string> = {
  name: "Example Token",
  symbol: "EXMPL",
  description: "An example",
  username: "alice",
  display_name: "Alice",
  displayName: "Alice",
  pair: "WETH",
  platform: "farcaster",
  interface: "example",
  keyword: "example",
  version: "1.0.0",
  requestKey: "example-request-key-000000000001",
  expiresAt: "2030-01-01T00:00:00.000Z", // a key's expiry must be in the future
};

/** Candidate strings, most specific first; the first that passes the schema's own checks is the example. */
function stringCandidates(schema: JsonSchema, name: string): string[] {
  const pattern = String(schema.pattern ?? "");
  const out: string[] = [];
  if (NAMED_STRINGS[name]) out.push(NAMED_STRINGS[name]);
  if (schema.format === "uuid" || /^id$/i.test(name)) out.push(SAMPLE_UUID);
  if (schema.format === "date-time" || /(At|Date|Time|Since|_at|_time)$/.test(name))
    out.push("2026-01-01T00:00:00.000Z");
  if (schema.format === "date") out.push("2026-01-01");
  if (schema.format === "email") out.push("dev@example.com");
  if (schema.format === "uri" || /(url|Url|URL|uri)$/.test(name)) out.push("https://example.com/token.png");
  // An address before a hash: a member that may hold either (a pool address or a v4 pool id) shows an address.
  if (/\{40\}/.test(pattern) || /(address|Address|admin|Admin|recipient|Recipient|account)$/.test(name))
    out.push(SAMPLE_ADDRESS);
  if (/\{64\}/.test(pattern) || /(hash|Hash|root|Root)$/.test(name)) out.push(`0x${"ab".repeat(32)}`);
  if (/^(fid|chainId|limit|id|amount)$/i.test(name) || /(Wei|Amount)$/.test(name)) out.push("1000000000000000000");
  out.push(
    "1",
    name || "text",
    "a",
    `0x${"ab".repeat(32)}`,
    SAMPLE_ADDRESS,
    SAMPLE_UUID,
    "abcdefghijklmnopqrstuvwxyz_012345",
  );
  return out;
}

function stringExample(schema: JsonSchema, name: string): string | undefined {
  const pattern = schema.pattern ? safeRegExp(schema.pattern) : null;
  if (schema.pattern && !pattern) return undefined;
  return stringCandidates(schema, name).find(
    (v) =>
      (!pattern || pattern.test(v)) &&
      [...v].length >= (schema.minLength ?? 0) &&
      [...v].length <= (schema.maxLength ?? Number.POSITIVE_INFINITY) &&
      formatHolds(schema.format, v),
  );
}

function safeRegExp(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return null;
  }
}

const FORMATS: Record<string, RegExp> = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  "date-time": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
  uri: /^[a-z][a-z0-9+.-]*:\S+$/i,
};

/** Formats the generator knows; any other format gets no generated example (the check would be a guess). */
function formatHolds(format: string | undefined, value: string): boolean {
  if (!format) return true;
  return FORMATS[format]?.test(value) ?? false;
}
