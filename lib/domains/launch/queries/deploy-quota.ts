// Queries on deploy_quota: each partner's count of accepted deployments per UTC day.
import { sql } from "kysely";
import type { Database } from "@/db";

/** Counts one more deployment for the partner on `day` (YYYY-MM-DD) and returns the day's count; the row stays locked until the transaction ends. */
export async function incrementDeployQuota(db: Database, partnerId: number, day: string): Promise<number> {
  const { used } = await db
    .insertInto("deploy_quota")
    .values({ partner_id: partnerId, day, used: 1 })
    .onConflict((oc) => oc.columns(["partner_id", "day"]).doUpdateSet({ used: sql`deploy_quota.used + 1` }))
    .returning("used")
    .executeTakeFirstOrThrow();
  return used;
}
