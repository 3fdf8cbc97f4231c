// Shared pieces of the OpenAPI document: auth schemes, the error envelope, and example values.
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
  adminSession: { type: "apiKey", in: "cookie", name: "admin_session", description: "Set by POST /api/admin/verify" },
  cronSecret: { type: "http", scheme: "bearer", description: "CRON_SECRET, as Vercel's cron sends it" },
  qstashSignature: {
    type: "apiKey",
    in: "header",
    name: "Upstash-Signature",
    description: "QStash's signature (a JWT) over the raw body and the URL",
  },
} as const;

export const errorEnvelope = {
  type: "object",
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
const SAMPLE_ADDRESS = "0x4200000000000000000000000000000000000006";

/** A plausible value for a JSON schema: its example/default/enum first, then by name, pattern and type. */
export function exampleFor(schema: JsonSchema | undefined, name = "", depth = 0): unknown {
  if (!schema || depth > 4) return undefined;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const variant = schema.anyOf ?? schema.oneOf;
  if (variant) return exampleFor(variant.find((s: JsonSchema) => s.type !== "null") ?? variant[0], name, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries<JsonSchema>(schema.properties ?? {})) {
        const value = exampleFor(sub, key, depth + 1);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case "array": {
      const item = exampleFor(schema.items, name, depth + 1);
      return item === undefined ? [] : [item];
    }
    case "integer":
    case "number":
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1));
    case "boolean":
      return false;
    case "string":
      return stringExample(schema, name);
  }
  return undefined;
}

function stringExample(schema: JsonSchema, name: string): string {
  const pattern = String(schema.pattern ?? "");
  if (schema.format === "uri" || /url$/i.test(name)) return "https://example.com/hook";
  if (schema.format === "date-time") return "2026-01-01T00:00:00.000Z";
  if (/\{40\}/.test(pattern) || /address$/i.test(name)) return SAMPLE_ADDRESS;
  if (/\{64\}/.test(pattern)) return `0x${"ab".repeat(32)}`;
  if (/^\^?(\\d|\[0-9\])/.test(pattern) || /^(fid|chainId|limit|id)$/i.test(name)) return "1";
  return name ? `${name}` : "string";
}
