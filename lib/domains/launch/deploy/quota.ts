// DEPLOY_DAILY_LIMIT, or the key's own deploys a day: new deployments per API key (principal.partnerId) per UTC
// day. Counted in the transaction that claims a new (partner, requestKey), so only accepted deployments use it up:
// a 400, a dry run or a retry that replays an earlier answer does not (DEPLOY_RATE_LIMIT meters those). The counter
// row's lock orders a partner's concurrent claims.
import type { Transaction } from "kysely";
import type { DB } from "@/db/types";
import { config } from "@/lib/core/config";
import { rateLimited } from "@/lib/core/errors";
import { incrementDeployQuota } from "@/lib/domains/launch/queries/deploy-quota";
import { findPartnerDeploysPerDay } from "@/lib/domains/partners/apikeys";

export type SetHeader = (name: string, value: string) => void;

const DAY_MS = 86_400_000;

/**
 * Counts one deployment for the partner today; beyond the limit throws 429 (Retry-After: the next UTC
 * midnight), which rolls the claim back. Sets the X-RateLimit-* headers either way.
 */
export async function countDeployment(trx: Transaction<DB>, partnerId: number, setHeader?: SetHeader): Promise<void> {
  const now = Date.now();
  const resetSeconds = Math.ceil((DAY_MS - (now % DAY_MS)) / 1000);
  const limit = (await findPartnerDeploysPerDay(trx, partnerId)) ?? config().DEPLOY_DAILY_LIMIT;
  const used = await incrementDeployQuota(trx, partnerId, new Date(now).toISOString().slice(0, 10));
  setHeader?.("X-RateLimit-Limit", String(limit));
  setHeader?.("X-RateLimit-Remaining", String(Math.max(0, limit - used)));
  setHeader?.("X-RateLimit-Reset", String(resetSeconds));
  if (used > limit) throw rateLimited(resetSeconds);
}
