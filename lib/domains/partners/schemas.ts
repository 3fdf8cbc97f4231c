// Requests and answers of the key API: the admin routes (/api/admin/keys/…) and a key's own usage.
import { z } from "zod";
import { checksummedAddress } from "@/lib/core/answers";
import { encodeCursor, zCursorOf } from "@/lib/core/cursor";
import { zAddress, zInt, zIntLike, zLimit } from "@/lib/core/input";
import { API_KEY_SCOPES, MAX_ROTATION_GRACE_SECONDS } from "./apikeys";
import { usageDay } from "./usage";

const isoTime = z.iso.datetime().describe("ISO 8601, UTC");
const scopes = z
  .array(z.enum(API_KEY_SCOPES, { message: `must be one of ${API_KEY_SCOPES.join(", ")}` }))
  .min(1, "must name at least one scope")
  .max(API_KEY_SCOPES.length * 2)
  .describe(
    "what the key may call: `read` (lookups), `deploy` (the deploy routes), `index` (POST /api/tokens/index), `webhooks` (subscriptions)",
  );

export const createKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100).describe("the partner's name, shown in listings"),
    owner: z.string().trim().min(1).max(200).nullable().optional().describe("who to contact about the key"),
    scopes: scopes.optional().describe("default: every scope"),
    expiresAt: z.iso
      .datetime({ offset: true })
      .refine((at) => Date.parse(at) > Date.now(), "must be in the future")
      .nullable()
      .optional()
      .describe("when the key stops working (ISO 8601); default: never"),
    requestsPerMinute: zIntLike(1, 1_000_000)
      .nullable()
      .optional()
      .describe("the key's own request limit a minute, over all routes; default: PARTNER_REQUESTS_PER_MINUTE"),
    deploysPerDay: zIntLike(1, 10_000_000)
      .nullable()
      .optional()
      .describe("the key's own accepted deployments a UTC day; default: DEPLOY_DAILY_LIMIT"),
    rewardAddress: zAddress
      .nullable()
      .optional()
      .describe("receives the partner's interface share of legacy deploy shapes; default: the platform"),
  })
  .strict();

export const rotateKeyBody = z
  .object({
    graceSeconds: zIntLike(0, MAX_ROTATION_GRACE_SECONDS)
      .optional()
      .describe("how long the replaced key keeps working (default 86400, one day; 0 ends it now)"),
  })
  .strict();

export const keyIdParams = z.object({ id: zInt(1, Number.MAX_SAFE_INTEGER, 1).describe("the key's id") });

export const listKeysQuery = z.object({
  limit: zLimit(100, 50),
  cursor: zCursorOf(z.object({ id: z.number().int().nonnegative() }), (c) => c.id)
    .optional()
    .describe("the `nextCursor` of the previous page"),
});

export const apiKeyAnswer = z
  .object({
    id: z.number().int(),
    name: z.string(),
    owner: z.string().nullable(),
    prefix: z.string().describe("the first 12 characters of the current key"),
    status: z.enum(["active", "expired", "revoked"]),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    expiresAt: isoTime.nullable(),
    requestsPerMinute: z.number().int().nullable().describe("null: PARTNER_REQUESTS_PER_MINUTE applies"),
    deploysPerDay: z.number().int().nullable().describe("null: DEPLOY_DAILY_LIMIT applies"),
    rewardAddress: checksummedAddress.nullable(),
    previousPrefix: z.string().nullable().describe("the key a rotation replaced, while it still works"),
    previousExpiresAt: isoTime.nullable().describe("when the replaced key stops working"),
    createdAt: isoTime,
    revokedAt: isoTime.nullable(),
    lastUsedAt: isoTime.nullable().describe("updated at most once a minute"),
  })
  .meta({ id: "ApiKey", description: "A partner API key as the admin API shows it (never the key itself)" });

export const createdKeyAnswer = apiKeyAnswer.extend({
  key: z.string().describe("the key itself (`tlk_` + 32 characters), shown only in this answer"),
});

export const keyListAnswer = z.object({
  keys: z.array(apiKeyAnswer),
  nextCursor: z.string().nullable().describe("pass as `cursor` for the next page; null on the last"),
});

export const keyUsageAnswer = z
  .object({
    keyId: z.number().int(),
    name: z.string(),
    lastUsedAt: isoTime.nullable(),
    days: z.array(usageDay).describe("today first"),
  })
  .meta({ id: "KeyUsage", description: "A key's requests by route and status, and its deploys, per UTC day" });

export const nextKeysCursor = (lastId: number) => encodeCursor({ id: lastId });
