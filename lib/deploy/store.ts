// Queries on deploy_requests: the idempotency record of each (partner, requestKey) and the job's progress.
import { sql, type Selectable } from "kysely";
import { db } from "../../db";
import type { DeployRequestsTable } from "../../db/tables/deploy";

export type DeployRequestRow = Selectable<DeployRequestsTable>;

export function findDeployRequest(partnerId: number, requestKey: string): Promise<DeployRequestRow | undefined> {
  return db()
    .selectFrom("deploy_requests")
    .selectAll()
    .where("partner_id", "=", partnerId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export function deployRequestById(id: number): Promise<DeployRequestRow | undefined> {
  return db().selectFrom("deploy_requests").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Records the sent transaction's hash before anyone waits for it; false if another attempt already did. */
export async function markSubmitted(id: number, txHash: string): Promise<boolean> {
  const result = await db()
    .updateTable("deploy_requests")
    .set({ status: "submitted", tx_hash: txHash.toLowerCase(), submitted_at: sql`now()`, updated_at: sql`now()` })
    .where("id", "=", id)
    .where("tx_hash", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function markFailed(id: number, reason: string): Promise<void> {
  await db()
    .updateTable("deploy_requests")
    .set({ status: "failed", failure_reason: reason.slice(0, 1000), finished_at: sql`now()`, updated_at: sql`now()` })
    .where("id", "=", id)
    .where("status", "<>", "deployed")
    .execute();
}
