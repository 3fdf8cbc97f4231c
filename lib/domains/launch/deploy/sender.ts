// Broadcasting a deployment safely across processes (QStash runs jobs on separate instances) and behind a
// transaction-pooling connection string (Neon's `-pooler` URL is PgBouncer in transaction mode, where only a
// transaction is sure to stay on one server connection). One transaction takes the deployer's transaction-level
// advisory lock, picks the nonce, signs, and stores the signed transaction; COMMIT releases the lock, and
// the transaction is broadcast after it. A job that dies at any point leaves either nothing signed or a
// stored transaction that its retry broadcasts again. Since the broadcast is outside the lock, the next
// holder cannot count on the node seeing it yet: the nonce also counts the stored transactions in flight.
import { sql, type Transaction } from "kysely";
import type { Address, Hash, Hex } from "viem";
import { db } from "@/db";
import type { DB } from "@/db/types";
import {
  broadcastTransaction,
  getWalletClient,
  pendingNonce,
  signDeployToken,
  type DeploymentConfig,
  type SignedTransaction,
} from "@/lib/platform/chain";
import {
  findHighestInFlightNonce,
  findSignedTransaction,
  markDeployRequestSubmitted,
  storeSignedTransaction,
} from "@/lib/domains/launch/queries/deploy-requests";

/** How long a job waits for the deployer's lock before giving up this attempt (the job is retried). */
const LOCK_WAIT_MS = 30_000;
/** Bounds each statement of the signing transaction (the pool's default is shorter than the lock wait). */
const STATEMENT_LIMIT_MS = LOCK_WAIT_MS + 5_000;
/** A process stuck between statements (a hung RPC call) must not hold the lock for long. */
const IDLE_LIMIT_MS = 60_000;

/** The advisory lock's key text (hashed by hashtext): one lock per deployer per chain. */
export const deployerLockKey = (chainId: number, deployer: Address) =>
  `deployer-nonce:${chainId}:${deployer.toLowerCase()}`;

/**
 * Runs `work` in one transaction holding the deployer's transaction-level advisory lock, released by the
 * COMMIT or ROLLBACK whatever connection a pooler lends. Waiting longer than LOCK_WAIT_MS fails this
 * attempt with a plain (retryable) error. On PGlite the transaction holds the whole database anyway.
 */
async function withDeployerLock<T>(
  chainId: number,
  deployer: Address,
  work: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  try {
    return await db()
      .transaction()
      .execute(async (trx) => {
        await sql`SELECT set_config('lock_timeout', ${String(LOCK_WAIT_MS)}, true),
          set_config('statement_timeout', ${String(STATEMENT_LIMIT_MS)}, true),
          set_config('idle_in_transaction_session_timeout', ${String(IDLE_LIMIT_MS)}, true)`.execute(trx);
        await sql`SELECT pg_advisory_xact_lock(hashtext(${deployerLockKey(chainId, deployer)}))`.execute(trx);
        return work(trx);
      });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "55P03" || code === "57014") {
      throw new Error(`the deployer ${deployer} on chain ${chainId} stayed busy for ${LOCK_WAIT_MS} ms`, {
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * The deployer's next nonce: the node's pending count, or one past the highest nonce of the deployer's stored
 * transactions still in flight (`queued` or `submitted`; `deployed` and `failed` are settled), whichever is
 * higher. The database covers transactions stored but not broadcast yet, and in-flight ones a lagging RPC has
 * not seen. Settled rows are left out: an adopted request may hold a stored transaction never broadcast, and
 * counting it would open a nonce gap nothing fills (a node lagging behind a mined one costs a receipt timeout
 * and a replacement instead).
 * Rows from before tx_from was recorded count as the deployer's.
 */
async function nextNonce(trx: Transaction<DB>, chainId: number, deployer: Address): Promise<number> {
  const highest = await findHighestInFlightNonce(trx, chainId, deployer);
  const node = await pendingNonce(chainId, deployer);
  return highest === null ? node : Math.max(node, highest + 1);
}

/** Records the signed transaction, unless the row's stored one is no longer the one this attempt saw. */
async function storeSigned(
  trx: Transaction<DB>,
  id: number,
  signed: SignedTransaction,
  from: Address,
  replacing: string | null,
): Promise<void> {
  const stored = await storeSignedTransaction(
    trx,
    id,
    { hash: signed.hash, nonce: signed.nonce, raw: signed.raw, from },
    replacing,
  );
  if (!stored) throw new Error(`deploy request ${id} got another transaction meanwhile`);
}

/**
 * Broadcasts the request's transaction and returns its hash: the stored one again if there is one (a
 * retry), else a new one signed and stored (committed) first. `dropped` is a stored transaction that can
 * never be mined (its nonce was used by another): only then is a second one signed.
 */
export async function submitDeployment(
  id: number,
  chainId: number,
  config: DeploymentConfig,
  dropped: string | null = null,
): Promise<Hash> {
  const storedTx = await findSignedTransaction(db(), id);
  let hash: Hash;
  if (storedTx && storedTx !== dropped) {
    hash = await broadcastTransaction(chainId, storedTx as Hex, { rebroadcast: true });
  } else {
    const deployer = getWalletClient(chainId).account.address;
    const signed = await withDeployerLock(chainId, deployer, async (trx) => {
      const transaction = await signDeployToken(chainId, config, await nextNonce(trx, chainId, deployer));
      await storeSigned(trx, id, transaction, deployer, storedTx);
      return transaction;
    });
    hash = await broadcastTransaction(chainId, signed.raw);
  }
  await markDeployRequestSubmitted(db(), id, hash);
  return hash;
}
