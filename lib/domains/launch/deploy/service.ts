// POST /api/tokens/deploy(/split) and GET /api/tokens/deploy/{requestKey}: validate, map, simulate (which
// predicts the address), then claim (partner, requestKey), count it against the daily limit and enqueue, in
// one transaction. A retry with the same body gets the first answer; the same key with another body is 422
// idempotency_mismatch; a dry run with a used key is answered from the stored request, not simulated.
import type { Address } from "viem";
import type { z } from "zod";
import { db } from "@/db";
import type { DeployShape } from "@/db/tables/deploy";
import { ChainRevertError, simulateDeployToken, type DeploymentConfig } from "@/lib/platform/chain";
import { badRequest, idempotencyMismatch, notFound, unprocessable } from "@/lib/core/errors";
import type { PartnerPrincipal } from "@/lib/core/principal";
import { enqueue } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import {
  findDeployRequest,
  insertDeployRequest,
  type DeployRequestRow,
} from "@/lib/domains/launch/queries/deploy-requests";
import { findTokenByContract } from "@/lib/domains/tokens/service";
import { toTokenObject } from "@/lib/domains/tokens/serialize";
import { buildDeploymentConfig } from "./config";
import { isRecord } from "./fields";
import { deployTokenJob } from "./jobs";
import { planDeployment } from "./mapping";
import { partnerRewardAddress, platformRewardAddress } from "./partners";
import { countDeployment, type SetHeader } from "./quota";
import { countPartnerDeploy } from "@/lib/domains/partners/usage";
import { bodyHash, deploySalt } from "./salt";
import { detectShape, parseDeployBody, requestKeyOf } from "./shapes";
import { configToJson, type StoredDeploymentConfig } from "./stored";
import { DEFAULT_CHAIN_ID, checksum } from "@/lib/core/evm";
import { toJson } from "@/lib/core/json";
import { remember } from "@/lib/core/remember";
import type { deploymentStatusResponse, deployResponse } from "./responses";

type DeployAnswer = z.input<typeof deployResponse>;

export type DeployEndpoint = "deploy" | "split";
export const ENQUEUED_MESSAGE = "Token deployment enqueued";
export const DRY_RUN_MESSAGE = "Dry run: the deployment is valid and simulates";
export const DRY_RUN_REPLAY_MESSAGE =
  "Dry run: this requestKey was already used with this body; sending it replays that deployment";

const accepted = (expected: string): DeployAnswer => ({
  success: true,
  message: ENQUEUED_MESSAGE,
  expectedAddress: checksum(expected),
});

/** The stored answer for a retry, or 422 when the key was used with another body. */
function replay(existing: DeployRequestRow, hash: string): DeployAnswer {
  if (existing.body_hash !== hash) {
    throw idempotencyMismatch(`requestKey ${existing.request_key} was already used with a different request body`);
  }
  return accepted(existing.expected_address);
}

/** A dry run with a used key: what sending it would do (replay the stored deployment), without simulating. */
function replayDryRun(existing: DeployRequestRow, hash: string): DeployAnswer {
  return {
    ...replay(existing, hash),
    message: DRY_RUN_REPLAY_MESSAGE,
    dryRun: true as const,
    shape: existing.shape,
    deploymentConfig: existing.config as StoredDeploymentConfig, // stored by claim (configToJson)
  };
}

/** Simulations in flight, by chain and call: identical concurrent requests (a client's retries) share one. */
const simulations = remember("deploy.simulations", () => new Map<string, Promise<Address>>());

/** Simulation predicts the address; a revert is the caller's config breaking a factory rule (422). */
export async function simulateOrReject(chainId: number, config: DeploymentConfig): Promise<Address> {
  const key = `${chainId}:${toJson(config)}`;
  let simulation = simulations.get(key);
  if (!simulation) {
    simulation = simulateDeployToken(chainId, config).finally(() => simulations.delete(key));
    simulations.set(key, simulation);
  }
  try {
    return await simulation;
  } catch (error) {
    if (!(error instanceof ChainRevertError)) throw error;
    const reason = error.errorName ?? error.reason ?? "reverted without a reason";
    throw unprocessable(`the factory rejects this deployment: ${reason}`, [
      { error: error.errorName ?? null, reason: error.reason ?? null, args: error.args ?? [] },
    ]);
  }
}

type Claim = {
  key: string;
  hash: string;
  shape: DeployShape;
  chainId: number;
  config: DeploymentConfig;
  expected: Address;
};

async function claim(
  partner: PartnerPrincipal,
  { key, hash, shape, chainId, config, expected }: Claim,
  setHeader?: SetHeader,
) {
  const inserted = await db()
    .transaction()
    .execute(async (trx) => {
      const id = await insertDeployRequest(trx, {
        partner_id: partner.partnerId,
        request_key: key,
        body_hash: hash,
        shape,
        chain_id: chainId,
        config: JSON.stringify(configToJson(config)),
        expected_address: expected.toLowerCase(),
      });
      if (id === undefined) return false;
      await countDeployment(trx, partner.partnerId, setHeader);
      await enqueue(deployTokenJob, { deploymentId: id }, { db: trx, dedupeKey: `deploy-token:${id}` });
      return true;
    });
  if (inserted) {
    await countPartnerDeploy(partner.partnerId);
    await dispatchJobs();
    return accepted(expected);
  }
  // A concurrent duplicate claimed the key first: answer as a retry would be answered.
  return replay((await findDeployRequest(db(), partner.partnerId, key))!, hash);
}

export async function requestDeployment(
  endpoint: DeployEndpoint,
  raw: unknown,
  partner: PartnerPrincipal,
  setHeader?: SetHeader,
): Promise<DeployAnswer> {
  if (!isRecord(raw)) throw badRequest("the body must be a JSON object");
  const shape = detectShape(endpoint, raw);
  // dryRun is no part of what is deployed: `dryRun: false` and no dryRun are the same request.
  const { dryRun: _dryRun, ...content } = raw;
  const hash = bodyHash(endpoint, content);
  const dryRun = raw.dryRun === true;
  const key = requestKeyOf(shape, raw);
  // Before validation: a retry is answered as the first request was, even if a time rule would now fail.
  if (key) {
    const existing = await findDeployRequest(db(), partner.partnerId, key);
    if (existing) return dryRun ? replayDryRun(existing, hash) : replay(existing, hash);
  }
  const now = Date.now();
  const parsed = parseDeployBody(shape, raw, now);
  const requestKey = parsed.shape === "4.0.0" ? parsed.body.token.requestKey : parsed.body.requestKey;
  const chainId = parsed.shape === "4.0.0" ? (parsed.body.chainId ?? DEFAULT_CHAIN_ID) : DEFAULT_CHAIN_ID;
  const plan = await planDeployment(parsed, {
    partnerName: partner.name,
    salt: deploySalt(partner.partnerId, requestKey),
    partnerRewardAddress: parsed.shape === "4.0.0" ? null : await partnerRewardAddress(partner.partnerId),
    platformRewardAddress: parsed.shape === "4.0.0" ? null : platformRewardAddress(chainId),
    now,
  });
  const config = buildDeploymentConfig(plan);
  const expected = await simulateOrReject(chainId, config);
  if (dryRun) {
    return {
      success: true,
      message: DRY_RUN_MESSAGE,
      expectedAddress: checksum(expected),
      dryRun: true,
      shape,
      deploymentConfig: configToJson(config), // the same JSON as the config itself: bigints as decimal strings
    };
  }
  return claim(partner, { key: requestKey, hash, shape, chainId, config, expected }, setHeader);
}

export type DeploymentStatus = "queued" | "submitted" | "deployed" | "failed";

/** GET /api/tokens/deploy/{requestKey}: only the partner that made the request sees it (else 404). */
export async function deploymentStatus(
  partnerId: number,
  requestKey: string,
): Promise<z.input<typeof deploymentStatusResponse>> {
  const row = await findDeployRequest(db(), partnerId, requestKey);
  if (!row) throw notFound("no deployment with this requestKey");
  const token = await findTokenByContract(db(), row.chain_id, row.expected_address);
  // The token row is the truth: a request that gave up waiting may still have landed (the indexer finds it).
  const status: DeploymentStatus = token ? "deployed" : row.status;
  return {
    requestKey: row.request_key,
    status,
    shape: row.shape,
    chainId: row.chain_id,
    expectedAddress: checksum(row.expected_address),
    txHash: token?.tx_hash ?? row.tx_hash,
    ...(token ? { token: toTokenObject(token) } : {}),
    // Only markDeployRequestFailed sets "failed", always with a reason.
    ...(status === "failed" && row.failure_reason !== null ? { reason: row.failure_reason } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
