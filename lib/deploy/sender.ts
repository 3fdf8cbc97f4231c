// Broadcasting a deployment safely across processes (QStash runs jobs on separate instances). The deployer's
// nonce is read from the node while holding a PostgreSQL advisory lock on (chain, deployer), and the lock
// is held until the transaction has reached the node, so the next holder's read counts it. Within the lock
// the transaction is signed, stored on the request row, and only then broadcast: a job that dies at any
// point leaves either nothing sent or a stored transaction that its retry broadcasts again.
import { sql, type Kysely } from "kysely";
import type { Address, Hash, Hex } from "viem";
import { db } from "../../db";
import type { DB } from "../../db/types";
import {
  broadcastTransaction,
  getWalletClient,
  pendingNonce,
  signDeployToken,
  type DeploymentConfig,
  type SignedTransaction,
} from "../chain";
import { markSubmitted } from "./store";

const LOCK_WAIT_MS = 30_000;

/**
 * Runs `work` on one connection that holds the deployer's session advisory lock. On PGlite the held
 * connection is the whole database, which excludes everyone else anyway. A session lock (not a
 * transaction's) because the stored transaction must be committed before it is broadcast.
 */
/** The advisory lock's key text (hashed by hashtext): one lock per deployer per chain. */
export const deployerLockKey = (chainId: number, deployer: Address) => `deployer-nonce:${chainId}:${deployer.toLowerCase()}`;

async function withDeployerLock<T>(chainId: number, deployer: Address, work: (conn: Kysely<DB>) => Promise<T>): Promise<T> {
  const key = deployerLockKey(chainId, deployer);
  return db()
    .connection()
    .execute(async (conn) => {
      // Polled rather than blocking, so the wait is bounded by us and not cut short by statement_timeout.
      const deadline = Date.now() + LOCK_WAIT_MS;
      for (;;) {
        const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(hashtext(${key})) AS locked`.execute(conn);
        if (rows[0]?.locked) break;
        if (Date.now() > deadline) throw new Error(`the deployer ${deployer} on chain ${chainId} stayed busy for ${LOCK_WAIT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
      }
      try {
        return await work(conn);
      } finally {
        await sql`SELECT pg_advisory_unlock(hashtext(${key}))`.execute(conn);
      }
    });
}

/** Records the signed transaction, unless the row's stored one is no longer the one this attempt saw. */
async function storeSigned(conn: Kysely<DB>, id: number, signed: SignedTransaction, replacing: string | null): Promise<void> {
  const result = await conn
    .updateTable("deploy_requests")
    .set({ tx_hash: signed.hash.toLowerCase(), tx_nonce: signed.nonce, signed_tx: signed.raw, updated_at: sql`now()` })
    .where("id", "=", id)
    .where((eb) => (replacing === null ? eb("signed_tx", "is", null) : eb("signed_tx", "=", replacing)))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new Error(`deploy request ${id} got another transaction meanwhile`);
}

/**
 * Broadcasts the request's transaction and returns its hash: the stored one again if there is one (a
 * retry), else a new one signed with the next nonce and stored first. `dropped` is a stored transaction
 * that can never be mined (its nonce was used by another): only then is a second one signed.
 */
export async function submitDeployment(id: number, chainId: number, config: DeploymentConfig, dropped: string | null = null): Promise<Hash> {
  const deployer = getWalletClient(chainId).account.address;
  const hash = await withDeployerLock(chainId, deployer, async (conn) => {
    const stored = await conn.selectFrom("deploy_requests").select("signed_tx").where("id", "=", id).executeTakeFirstOrThrow();
    if (stored.signed_tx && stored.signed_tx !== dropped) return broadcastTransaction(chainId, stored.signed_tx as Hex, { rebroadcast: true });
    const signed = await signDeployToken(chainId, config, await pendingNonce(chainId, deployer));
    await storeSigned(conn, id, signed, stored.signed_tx);
    return broadcastTransaction(chainId, signed.raw);
  });
  await markSubmitted(id, hash);
  return hash;
}
