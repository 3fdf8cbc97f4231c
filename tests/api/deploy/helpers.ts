// Shared pieces of the deploy API tests: bodies of each shape, calling the routes, running jobs, decoding calldata.
import { expect } from "vitest";
import { custom, decodeAbiParameters, decodeFunctionData, type Hash, type Hex } from "viem";
import { db } from "@/db";
import { setChainTransport, tokenFactoryAbi, type DeploymentConfig } from "@/lib/platform/chain";
import {
  airdropDataParams,
  dynamicFeeDataParams,
  lockerFeeConversionDataParams,
  poolInitializationDataParams,
  sniperAuctionDataParams,
  staticFeeDataParams,
  vaultDataParams,
} from "@/lib/platform/chain/abis";
import { runDueJobs, type JobOutcome } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { POST as deployPost } from "@/app/api/tokens/deploy/route";
import { POST as splitPost } from "@/app/api/tokens/deploy/split/route";
import { POST as deployV4Post } from "@/app/api/tokens/deploy/v4/route";
import { GET as statusGet } from "@/app/api/tokens/deploy/[requestKey]/route";
import { call } from "@/tests/helpers/http";
import type { TestChain } from "@/tests/helpers/chain";

export const key = (label: string) => label.padEnd(32, "x").slice(0, 32);

export function v4Body(chain: TestChain, requestKey: string, extra: Record<string, unknown> = {}) {
  const admin = chain.accounts[2]!;
  return {
    token: { name: "Four", symbol: "FOUR", tokenAdmin: admin, requestKey, image: "https://example.com/four.png" },
    rewards: [{ admin, recipient: admin, allocation: 100 }],
    ...extra,
  };
}

export function legacyBody(chain: TestChain, requestKey: string, extra: Record<string, unknown> = {}) {
  return {
    name: "Legacy",
    symbol: "LEG",
    image: "https://example.com/leg.png",
    requestorAddress: chain.accounts[3]!,
    requestKey,
    ...extra,
  };
}

export const deploy = (apiKey: string, body: unknown) =>
  call(deployPost, "/api/tokens/deploy", { body, headers: { "x-api-key": apiKey } });
/** The deployment config of a dry run's answer (the route answers a dry run or an enqueued deployment). */
export function dryRunConfig(res: Awaited<ReturnType<typeof deploy>>) {
  if (!("deploymentConfig" in res.body)) throw new Error(`not a dry run's answer: ${res.text}`);
  return res.body.deploymentConfig;
}
export const deployV4Alias = (apiKey: string, body: unknown) =>
  call(deployV4Post, "/api/tokens/deploy/v4", { body, headers: { "x-api-key": apiKey } });
export const deploySplit = (apiKey: string, body: unknown) =>
  call(splitPost, "/api/tokens/deploy/split", { body, headers: { "x-api-key": apiKey } });
export const status = (apiKey: string, requestKey: string) =>
  call(statusGet, `/api/tokens/deploy/${requestKey}`, { headers: { "x-api-key": apiKey }, params: { requestKey } });

/** Runs due jobs until none is left. */
export async function drainJobs(): Promise<JobOutcome[]> {
  const all: JobOutcome[] = [];
  for (let batch = await runDueJobs(jobs); batch.length; batch = await runDueJobs(jobs)) all.push(...batch);
  return all;
}

export async function partnerIdOf(name: string): Promise<number> {
  return (await db().selectFrom("api_keys").select("id").where("name", "=", name).executeTakeFirstOrThrow()).id;
}

/** The DeploymentConfig a transaction sent to the factory, decoded from its calldata. */
export async function sentConfig(chain: TestChain, hash: Hash): Promise<DeploymentConfig> {
  const tx = await chain.publicClient.getTransaction({ hash });
  expect(tx.to?.toLowerCase()).toBe(chain.contracts.factory.toLowerCase());
  const { functionName, args } = decodeFunctionData({ abi: tokenFactoryAbi, data: tx.input });
  expect(functionName).toBe("deployToken");
  return args[0] as DeploymentConfig;
}

/** The V2 fee hooks' poolData: the pool extension and, inside, the fee hook's own data. */
export const decodePoolData = (data: string) => decodeAbiParameters(poolInitializationDataParams, data as Hex)[0];
export const decodeStaticFees = (data: string) =>
  decodeAbiParameters(staticFeeDataParams, decodePoolData(data).feeData);
/** The dynamic fee hook's data: base fee, max LP fee, then the volatility settings (DYNAMIC_FEE_DEFAULTS' order). */
export const decodeDynamicFees = (data: string) =>
  decodeAbiParameters(dynamicFeeDataParams, decodePoolData(data).feeData);
/** The fee-conversion locker's lockerData: each reward recipient's fee token (0 both, 1 paired, 2 the token). */
export const decodeFeePreferences = (data: string) =>
  decodeAbiParameters(lockerFeeConversionDataParams, data as Hex)[0].feePreference;
export const decodeSniperFees = (data: string) => decodeAbiParameters(sniperAuctionDataParams, data as Hex)[0];
export const decodeVault = (data: string) => decodeAbiParameters(vaultDataParams, data as Hex);
export const decodeAirdrop = (data: string) => decodeAbiParameters(airdropDataParams, data as Hex);
/** The sniper auction's data with the platform SDK's default fees. */
export const DEFAULT_SNIPER_FEES = { startingFee: 666_777, endingFee: 41_673, secondsToDecay: 15n };

type Forward = () => Promise<unknown>;

/**
 * Routes the chain layer (new clients from now on) through `intercept`, which sees each JSON-RPC request
 * and may forward it, fail it, answer it itself or never answer it: how a test plays a job process crashing
 * or dying at a chosen call, or a lagging node. Returns the function that routes the chain layer straight to
 * the test chain again.
 */
export function interceptChain(
  chain: TestChain,
  intercept: (method: string, forward: Forward, params: unknown[]) => Promise<unknown>,
): () => void {
  const request = (args: unknown) => (chain.provider.request as (a: unknown) => Promise<unknown>)(args);
  const provider = {
    request: (args: { method: string; params?: unknown[] }) =>
      intercept(args.method, () => request(args), args.params ?? []),
  };
  setChainTransport(chain.chainId, custom(provider, { retryCount: 0 }));
  return () => setChainTransport(chain.chainId, custom(chain.provider, { retryCount: 0 }));
}

/** Polls `check` until it holds (at most 10 seconds). */
export async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
