// A DeploymentConfig as stored in jsonb: the same object with its bigints (originatingChainId, msgValue)
// as decimal strings. The job sends exactly what the request simulated.
import type { DeploymentConfig } from "@/lib/platform/chain";
import { type Jsonified, toJson } from "@/lib/core/json";

/** A DeploymentConfig as stored and answered (dry runs, presales): its bigints as decimal strings. */
export type StoredDeploymentConfig = Jsonified<DeploymentConfig>;

export function configToJson(config: DeploymentConfig): StoredDeploymentConfig {
  return JSON.parse(toJson(config));
}

export function configFromJson(stored: Record<string, unknown>): DeploymentConfig {
  const c = stored as unknown as DeploymentConfig & {
    tokenConfig: { originatingChainId: string };
    extensionConfigs: Array<{ msgValue: string }>;
  };
  return {
    ...c,
    tokenConfig: { ...c.tokenConfig, originatingChainId: BigInt(c.tokenConfig.originatingChainId) },
    extensionConfigs: c.extensionConfigs.map((e) => ({ ...e, msgValue: BigInt(e.msgValue) })),
  } as DeploymentConfig;
}
