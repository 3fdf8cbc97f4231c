// Queries on deploy_requests: the idempotency record of each (partner, requestKey) and the job's progress.
import { sql, type Insertable, type Selectable } from "kysely";
import type { Database } from "@/db";
import type { DeployRequestsTable } from "@/db/tables/deploy";

export type DeployRequestRow = Selectable<DeployRequestsTable>;

export function findDeployRequest(
  db: Database,
  partnerId: number,
  requestKey: string,
): Promise<DeployRequestRow | undefined> {
  return db
    .selectFrom("deploy_requests")
    .selectAll()
    .where("partner_id", "=", partnerId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export function findDeployRequestById(db: Database, id: number): Promise<DeployRequestRow | undefined> {
  return db.selectFrom("deploy_requests").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Claims (partner, requestKey): the new row's id, or undefined when the key was claimed already. */
export async function insertDeployRequest(
  db: Database,
  values: Insertable<DeployRequestsTable>,
): Promise<number | undefined> {
  const row = await db
    .insertInto("deploy_requests")
    .values(values)
    .onConflict((oc) => oc.columns(["partner_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id;
}

/** The hash of a transaction sent for the token's expected address on the chain, or null. */
export async function findDeployTransactionHash(
  db: Database,
  chainId: number,
  address: string,
): Promise<string | null> {
  const request = await db
    .selectFrom("deploy_requests")
    .select("tx_hash")
    .where("expected_address", "=", address)
    .where("chain_id", "=", chainId)
    .where("tx_hash", "is not", null)
    .executeTakeFirst();
  return request?.tx_hash ?? null;
}

/** The request's stored signed transaction (null when none is signed yet); throws when there is no such request. */
export async function findSignedTransaction(db: Database, id: number): Promise<string | null> {
  const stored = await db
    .selectFrom("deploy_requests")
    .select("signed_tx")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return stored.signed_tx;
}

/**
 * The highest nonce of the deployer's stored transactions still in flight (`queued` or `submitted`) on the
 * chain, or null. Rows from before tx_from was recorded count as the deployer's.
 */
export async function findHighestInFlightNonce(
  db: Database,
  chainId: number,
  deployer: string,
): Promise<number | null> {
  const { highest } = await db
    .selectFrom("deploy_requests")
    .select((eb) => eb.fn.max("tx_nonce").as("highest"))
    .where("chain_id", "=", chainId)
    .where("status", "in", ["queued", "submitted"])
    .where("tx_nonce", "is not", null)
    .where((eb) => eb.or([eb("tx_from", "=", deployer.toLowerCase()), eb("tx_from", "is", null)]))
    .executeTakeFirstOrThrow();
  return highest === null ? null : Number(highest);
}

export type SignedTransactionRecord = { hash: string; nonce: number; raw: string; from: string };

/** Records a signed transaction unless the row's stored one is no longer `replacing`; false when it is not. */
export async function storeSignedTransaction(
  db: Database,
  id: number,
  signed: SignedTransactionRecord,
  replacing: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable("deploy_requests")
    .set({
      tx_hash: signed.hash.toLowerCase(),
      tx_nonce: signed.nonce,
      signed_tx: signed.raw,
      tx_from: signed.from.toLowerCase(),
      updated_at: sql`now()`,
    })
    .where("id", "=", id)
    .where((eb) => (replacing === null ? eb("signed_tx", "is", null) : eb("signed_tx", "=", replacing)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The stored transaction reached the node (status is only informative: the stored hash is what a retry follows). */
export async function markDeployRequestSubmitted(db: Database, id: number, txHash: string): Promise<void> {
  await db
    .updateTable("deploy_requests")
    .set({ status: "submitted", submitted_at: sql`coalesce(submitted_at, now())`, updated_at: sql`now()` })
    .where("id", "=", id)
    .where("tx_hash", "=", txHash.toLowerCase())
    .where("status", "=", "queued")
    .execute();
}

/** The token is on chain, created by `txHash` (stored as given). */
export async function markDeployRequestDeployed(db: Database, id: number, txHash: string | null): Promise<void> {
  await db
    .updateTable("deploy_requests")
    .set({ status: "deployed", tx_hash: txHash, failure_reason: null, finished_at: sql`now()`, updated_at: sql`now()` })
    .where("id", "=", id)
    .execute();
}

export async function markDeployRequestFailed(db: Database, id: number, reason: string): Promise<void> {
  await db
    .updateTable("deploy_requests")
    .set({ status: "failed", failure_reason: reason.slice(0, 1000), finished_at: sql`now()`, updated_at: sql`now()` })
    .where("id", "=", id)
    .where("status", "<>", "deployed")
    .execute();
}
