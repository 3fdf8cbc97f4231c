// Shared pieces of the deploy API tests: bodies of each shape, calling the routes, running jobs, decoding calldata.
import { expect } from "vitest";
import { decodeAbiParameters, decodeFunctionData, type Hash, type Hex } from "viem";
import { db } from "@/db";
import { tokenFactoryAbi, type DeploymentConfig } from "@/lib/chain";
import { runDueJobs, type JobOutcome } from "@/lib/jobs/runner";
import { POST as deployPost } from "@/app/api/tokens/deploy/route";
import { POST as splitPost } from "@/app/api/tokens/deploy/split/route";
import { GET as statusGet } from "@/app/api/tokens/deploy/[requestKey]/route";
import { call } from "../../helpers/http";
import type { TestChain } from "../../helpers/chain";

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
  return { name: "Legacy", symbol: "LEG", image: "https://example.com/leg.png", requestorAddress: chain.accounts[3]!, requestKey, ...extra };
}

export const deploy = (apiKey: string, body: unknown) => call(deployPost, "/api/tokens/deploy", { body, headers: { "x-api-key": apiKey } });
export const deploySplit = (apiKey: string, body: unknown) => call(splitPost, "/api/tokens/deploy/split", { body, headers: { "x-api-key": apiKey } });
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
export const decodeVault = (data: Hex) => decodeAbiParameters([{ type: "address" }, { type: "uint256" }, { type: "uint256" }], data);
