// Queries on deploy_requests: the idempotency record of each (partner, requestKey) and the job's progress.
import { sql, type Selectable } from "kysely";
import { db } from "@/db";
import type { DeployRequestsTable } from "@/db/tables/deploy";

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

/** The stored transaction reached the node (status is only informative: the stored hash is what a retry follows). */
export async function markSubmitted(id: number, txHash: string): Promise<void> {
  await db()
    .updateTable("deploy_requests")
    .set({ status: "submitted", submitted_at: sql`coalesce(submitted_at, now())`, updated_at: sql`now()` })
    .where("id", "=", id)
    .where("tx_hash", "=", txHash.toLowerCase())
    .where("status", "=", "queued")
    .execute();
}

export async function markFailed(id: number, reason: string): Promise<void> {
  await db()
    .updateTable("deploy_requests")
    .set({ status: "failed", failure_reason: reason.slice(0, 1000), finished_at: sql`now()`, updated_at: sql`now()` })
    .where("id", "=", id)
    .where("status", "<>", "deployed")
    .execute();
}
