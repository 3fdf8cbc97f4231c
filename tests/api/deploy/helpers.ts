// Shared pieces of the deploy API tests: bodies of each shape, calling the routes, running jobs, decoding calldata.
import { expect } from "vitest";
import { custom, decodeAbiParameters, decodeFunctionData, type Hash, type Hex } from "viem";
import { db } from "@/db";
import { setChainTransport, tokenFactoryAbi, type DeploymentConfig } from "@/lib/platform/chain";
import { runDueJobs, type JobOutcome } from "@/lib/platform/jobs/runner";
import "@/lib/domains/jobs"; // every job definition, as the server registers them
import { POST as deployPost } from "@/app/api/tokens/deploy/route";
import { POST as splitPost } from "@/app/api/tokens/deploy/split/route";
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
export const deploySplit = (apiKey: string, body: unknown) =>
  call(splitPost, "/api/tokens/deploy/split", { body, headers: { "x-api-key": apiKey } });
export const status = (apiKey: string, requestKey: string) =>
  call(statusGet, `/api/tokens/deploy/${requestKey}`, { headers: { "x-api-key": apiKey }, params: { requestKey } });

/** Runs due jobs until none is left. */
export async function drainJobs(): Promise<JobOutcome[]> {
  const all: JobOutcome[] = [];
  for (let batch = await runDueJobs(); batch.length; batch = await runDueJobs()) all.push(...batch);
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

export const decodeStaticFees = (data: Hex) => decodeAbiParameters([{ type: "uint24" }, { type: "uint24" }], data);
/** The dynamic fee hook's poolData: base fee, max LP fee, then the volatility settings (DYNAMIC_FEE_DEFAULTS' order). */
export const decodeDynamicFees = (data: Hex) =>
  decodeAbiParameters(
    [
      { type: "uint24" },
      { type: "uint24" },
      { type: "uint256" },
      { type: "uint256" },
      { type: "int24" },
      { type: "uint256" },
      { type: "uint24" },
    ],
    data,
  );
export const decodeVault = (data: Hex) =>
  decodeAbiParameters([{ type: "address" }, { type: "uint256" }, { type: "uint256" }], data);

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
