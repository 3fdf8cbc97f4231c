// The deploy job: sends the stored DeploymentConfig once, waits for the receipt, indexes the token.
// Never two transactions for one request: the transaction is signed and stored before it is broadcast
// (lib/domains/launch/deploy/sender.ts), and a retry that finds one broadcasts that again and waits for it. Only a stored
// transaction that provably cannot be mined any more (its nonce is mined, its hash is not) is replaced.
import type { Address, Hash, Hex, TransactionReceipt } from "viem";
import { checksum } from "@/lib/core/evm";
import { db } from "@/db";
import {
  ChainRevertError,
  findTokenCreated,
  getReceipt,
  minedNonceCount,
  readTokenInfo,
  signerOf,
  simulateDeployToken,
  waitForReceipt,
  type TokenCreatedEvent,
} from "@/lib/platform/chain";
import { config } from "@/lib/core/config";
import { PermanentJobError, type JobContext } from "@/lib/platform/jobs/define";
import { log } from "@/lib/core/log";
import { isIndexedFactory } from "@/lib/domains/launch/indexer/factories";
import { blockTime, indexByAddress } from "@/lib/domains/launch/indexer/lookup";
import { upsertIndexedToken } from "@/lib/domains/launch/indexer/upsert";
import { setAsideEvent } from "@/lib/domains/launch/indexer/follow";
import { indexTokenJob } from "@/lib/domains/launch/indexer/jobs";
import { enqueue } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import { isEventError } from "@/lib/platform/quarantine";
import {
  findDeployRequestById,
  markDeployRequestDeployed,
  markDeployRequestFailed,
  type DeployRequestRow,
} from "@/lib/domains/launch/queries/deploy-requests";
import { configFromJson } from "./stored";
import { submitDeployment } from "./sender";

export type DeployJobResult = { status: "deployed" | "failed"; txHash?: string | null; tokenAddress?: string };

/**
 * A mined deployment is deployed, whatever happens to the row that describes its token: when that row cannot be
 * written now, the request is marked deployed alone and the token is set aside (its own error) or indexed again by an
 * index-token job (the moment's error).
 */
async function markDeployed(row: DeployRequestRow, event: TokenCreatedEvent): Promise<DeployJobResult> {
  const txHash = event.transactionHash.toLowerCase();
  const deployed: DeployJobResult = {
    status: "deployed",
    txHash: event.transactionHash,
    tokenAddress: checksum(event.tokenAddress),
  };
  try {
    // The configuration it sent is the deployment's: no need to read the transaction back for the token's extensions.
    const deployedAt = await blockTime(row.chain_id, event.blockNumber);
    const ctx = { chainId: row.chain_id, deployedAt, deployment: configFromJson(row.config) };
    await db()
      .transaction()
      .execute(async (trx) => {
        await upsertIndexedToken(event, ctx, trx);
        await markDeployRequestDeployed(trx, row.id, txHash);
      });
    return deployed;
  } catch (error) {
    await markDeployRequestDeployed(db(), row.id, txHash);
    log.warn("deployment mined but its token not stored: indexed later", { id: row.id, txHash, error });
    if (isEventError(error)) await setAsideEvent(row.chain_id, event, error);
    else {
      const payload = { chainId: row.chain_id, address: event.tokenAddress.toLowerCase(), txHash };
      await enqueue(indexTokenJob, payload, { dedupeKey: `index-token:${row.chain_id}:${txHash}:deploy` });
      await dispatchJobs();
    }
    return deployed;
  }
}

/** The token is on chain already: find its TokenCreated and record it. */
async function adoptExisting(row: DeployRequestRow, expected: Address): Promise<DeployJobResult> {
  const outcome = await indexByAddress(row.chain_id, expected);
  if (outcome.status !== "indexed")
    throw new PermanentJobError(`the token exists at ${expected} but its TokenCreated event was not found`);
  await markDeployRequestDeployed(db(), row.id, outcome.token.tx_hash);
  return { status: "deployed", txHash: outcome.token.tx_hash, tokenAddress: expected };
}

/**
 * Before the first transaction (or a replacement): the token may exist already (deployed by someone else
 * with the same config), and the chain may have changed since the request, so simulate again.
 */
async function checkBeforeSigning(row: DeployRequestRow, expected: Address): Promise<DeployJobResult | null> {
  if (await readTokenInfo(row.chain_id, expected)) return adoptExisting(row, expected);
  try {
    await simulateDeployToken(row.chain_id, configFromJson(row.config));
    return null;
  } catch (error) {
    if (!(error instanceof ChainRevertError)) throw error;
    if (error.errorName === "TokenAlreadyDeployed") return adoptExisting(row, expected);
    throw new PermanentJobError(`the factory rejects the deployment: ${error.errorName ?? error.reason ?? "reverted"}`);
  }
}

/** The stored transaction can never be mined: its nonce is used (mined) and it is not what was mined. */
async function isDropped(row: DeployRequestRow): Promise<boolean> {
  const mined = await minedNonceCount(row.chain_id, await signerOf(row.signed_tx as Hex));
  return mined > row.tx_nonce! && !(await getReceipt(row.chain_id, row.tx_hash as Hash));
}

async function settle(row: DeployRequestRow, expected: Address, receipt: TransactionReceipt): Promise<DeployJobResult> {
  if (receipt.status !== "success") {
    if (await readTokenInfo(row.chain_id, expected)) return adoptExisting(row, expected);
    throw new PermanentJobError(`the deployment transaction ${receipt.transactionHash} reverted`);
  }
  const event = findTokenCreated(receipt).find(
    (e) => e.tokenAddress.toLowerCase() === expected.toLowerCase() && isIndexedFactory(row.chain_id, e.address),
  );
  if (!event) throw new PermanentJobError(`transaction ${receipt.transactionHash} created no token at ${expected}`);
  return markDeployed(row, event);
}

async function advance(row: DeployRequestRow): Promise<DeployJobResult> {
  const expected = checksum(row.expected_address);
  const timeoutMs = config().DEPLOY_RECEIPT_TIMEOUT_MS;
  // Sent before transactions were stored signed (only its hash is known): wait for it, as then.
  if (row.tx_hash && !row.signed_tx)
    return settle(row, expected, await waitForReceipt(row.chain_id, row.tx_hash as Hash, { timeoutMs }));
  let dropped: string | null = null;
  if (row.signed_tx) {
    const receipt = await getReceipt(row.chain_id, row.tx_hash as Hash);
    if (receipt) return settle(row, expected, receipt);
    if (await isDropped(row)) {
      log.warn("deploy transaction dropped: its nonce was used by another; signing a new one", {
        id: row.id,
        txHash: row.tx_hash,
      });
      dropped = row.signed_tx;
    }
  }
  if (!row.signed_tx || dropped) {
    const done = await checkBeforeSigning(row, expected);
    if (done) return done;
  }
  const hash = await submitDeployment(row.id, row.chain_id, configFromJson(row.config), dropped);
  return settle(row, expected, await waitForReceipt(row.chain_id, hash, { timeoutMs }));
}

/** The job handler: a permanent failure, or the last attempt's transient one, marks the request failed. */
export async function runDeployment(id: number, ctx: JobContext, maxAttempts: number): Promise<DeployJobResult> {
  const row = await findDeployRequestById(db(), id);
  if (!row) throw new PermanentJobError(`no deploy request ${id}`);
  if (row.status === "deployed" || row.status === "failed") return { status: row.status, txHash: row.tx_hash };
  try {
    return await advance(row);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof PermanentJobError) await markDeployRequestFailed(db(), id, message);
    else if (ctx.attempt >= maxAttempts)
      await markDeployRequestFailed(db(), id, `gave up after ${ctx.attempt} attempts: ${message}`);
    throw error;
  }
}
