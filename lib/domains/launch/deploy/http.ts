// Route pieces shared by the deploy endpoints.
import { z } from "zod";
import type { RateLimitRule } from "@/lib/platform/kv/rate-limit";
import { requestKey } from "./fields";

/**
 * Every request to either deploy path, per API key: meters what the daily quota leaves free (dry runs, 400s
 * and 422s, each 422 or dry run costing an RPC simulation). Generous, so a partner's retries never meet it.
 */
export const DEPLOY_RATE_LIMIT: RateLimitRule = { name: "deploy", limit: 120, windowSeconds: 60 };

/** The daily quota's OpenAPI text (lib/domains/launch/deploy/quota.ts enforces it; the number is configuration). */
export const DEPLOY_QUOTA_DOC =
  "More than DEPLOY_DAILY_LIMIT (default 10,000), or the key's own deploysPerDay, new deployments by the API key in a UTC day (retries and dry runs do not count)";

/** Nesting depth, counted without recursion (the canonical request hash recurses: 20,000 levels overflowed the stack, a 500). */
function depthOf(value: unknown, max: number): number {
  let level = [value];
  for (let depth = 0; depth <= max; depth++) {
    level = level.flatMap((v) => (v && typeof v === "object" ? Object.values(v) : []));
    if (!level.length) return depth;
  }
  return max + 1;
}

/** The body is validated by the service (shape detection needs the raw object); here only "an object", at most 32 levels deep. */
export const jsonObjectBody = z
  .record(z.string(), z.unknown(), { message: "the body must be a JSON object" })
  .refine((body) => depthOf(body, 32) <= 32, "the body nests deeper than 32 levels");

export const requestKeyParams = z.object({
  requestKey: requestKey.describe("the requestKey the deployment was requested with"),
});
