// Chain configuration per chain id, read from the environment and validated here. lib/core/config.ts validates
// the variables with fixed names; these are named per chain (`RPC_URL_<chainId>`, `FACTORY_ADDRESS_<chainId>`,
// ...), so they are validated here: the one other place that reads service settings from `process.env`.
import { z } from "zod";
import { getAddress, type Address, type Hex } from "viem";
import { ConfigError, variablesRead } from "@/lib/core/config";
import { EVM_ADDRESS } from "@/lib/core/evm";

/** The platform contracts the service talks to on a chain. */
export interface ChainContracts {
  factory?: Address;
  feeLocker?: Address;
  locker?: Address;
  vault?: Address;
  airdrop?: Address;
  presale?: Address;
  staticFeeHook?: Address;
  dynamicFeeHook?: Address;
  mevModule?: Address;
  weth?: Address;
  ethUsdFeed?: Address;
}

export interface ChainSettings {
  chainId: number;
  rpcUrl?: string;
  deployerPrivateKey?: Hex;
  /** Per RPC request, including each retry. */
  timeoutMs: number;
  contracts: ChainContracts;
  /** `PAIRED_TOKEN_WETH_POOLS_<chainId>`: lowercase paired token → the pool pricing it in WETH (market caps). */
  pairedTokenWethPools: Record<string, Address>;
  /** `TOKEN_INDEX_START_BLOCK_<chainId>`: where the TokenCreated indexer starts without a checkpoint (lib/domains/launch/indexer). */
  tokenIndexStartBlock?: number;
}

/** Environment variable (suffixed `_<chainId>`) of each contract. */
export const CONTRACT_ENV: Record<keyof ChainContracts, string> = {
  factory: "FACTORY_ADDRESS",
  feeLocker: "FEE_LOCKER_ADDRESS",
  locker: "LOCKER_ADDRESS",
  vault: "VAULT_ADDRESS",
  airdrop: "AIRDROP_ADDRESS",
  presale: "PRESALE_ADDRESS",
  staticFeeHook: "STATIC_FEE_HOOK_ADDRESS",
  dynamicFeeHook: "DYNAMIC_FEE_HOOK_ADDRESS",
  mevModule: "MEV_MODULE_ADDRESS",
  weth: "WETH_ADDRESS",
  ethUsdFeed: "ETH_USD_FEED_ADDRESS",
};

/**
 * The platform's version-4 deployment on Base (8453), as published in its public SDK's address
 * table, and Chainlink's ETH/USD proxy on Base. The presale contract's address is not known here:
 * set PRESALE_ADDRESS_8453. Any variable set in the environment wins.
 */
export const PRODUCTION_DEFAULTS: Record<number, ChainContracts> = {
  8453: {
    factory: "0xE85A59c628F7d27878ACeB4bf3b35733630083a9",
    feeLocker: "0xF3622742b1E446D92e45E22923Ef11C2fcD55D68",
    locker: "0x63D2DfEA64b3433F4071A98665bcD7Ca14d93496",
    vault: "0x8E845EAd15737bF71904A30BdDD3aEE76d6ADF6C",
    airdrop: "0xf652B3610D75D81871bf96DB50825d9af28391E0",
    staticFeeHook: "0xDd5EeaFf7BD481AD55Db083062b13a3cdf0A68CC",
    dynamicFeeHook: "0x34a45c6B61876d739400Bd71228CbcbD4F53E8cC",
    mevModule: "0xFdc013ce003980889cFfd66b0c8329545ae1d1E8",
    weth: "0x4200000000000000000000000000000000000006",
    ethUsdFeed: "0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70",
  },
};

export const DEFAULT_CHAIN_TIMEOUT_MS = 10_000;

const address = z
  .string()
  .regex(EVM_ADDRESS, "must be 0x followed by 40 hex digits")
  .transform((v) => getAddress(v.toLowerCase()));
const rpcUrl = z.string().regex(/^(https?|wss?):\/\/\S+$/, "must be an http(s) or ws(s) URL");
const privateKey = z
  .string()
  .regex(/^(0x)?[0-9a-fA-F]{64}$/, "must be 32 bytes of hex")
  .transform((v) => (v.startsWith("0x") ? v : `0x${v}`) as Hex);
const timeoutMs = z.coerce.number().int().min(100).max(120_000);
const blockNumber = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const isAddressPair = (pair: string) => {
  const addresses = pair.trim().split(":");
  return addresses.length === 2 && addresses.every((a) => EVM_ADDRESS.test(a));
};
const pairedTokenPools = z
  .string()
  .refine((v) => v.split(",").every(isAddressPair), "must be comma-separated token:pool address pairs")
  .transform((v) =>
    Object.fromEntries(
      v.split(",").map((pair) => {
        const [token, pool] = pair.trim().split(":") as [string, string];
        return [token.toLowerCase(), getAddress(pool.toLowerCase())];
      }),
    ),
  );

/** Reads one variable; a bad value is added to `issues` (`  NAME: message`, as lib/core/config.ts words them). */
function read<T>(env: NodeJS.ProcessEnv, name: string, schema: z.ZodType<T>, issues: string[]): T | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const parsed = schema.safeParse(raw.trim());
  if (!parsed.success) issues.push(`  ${name}: ${parsed.error.issues[0]?.message}`);
  return parsed.success ? parsed.data : undefined;
}

const invalid = (issues: string[]) => new ConfigError(`invalid environment:\n${issues.join("\n")}`);

export function chainSettings(chainId: number, env: NodeJS.ProcessEnv = process.env): ChainSettings {
  const issues: string[] = [];
  const defaults = PRODUCTION_DEFAULTS[chainId] ?? {};
  const contracts: ChainContracts = {};
  for (const [key, prefix] of Object.entries(CONTRACT_ENV) as [keyof ChainContracts, string][]) {
    const value = read(env, `${prefix}_${chainId}`, address, issues) ?? defaults[key];
    if (value) contracts[key] = value;
  }
  const settings: ChainSettings = {
    chainId,
    rpcUrl: read(env, `RPC_URL_${chainId}`, rpcUrl, issues),
    deployerPrivateKey: read(env, "DEPLOYER_PRIVATE_KEY", privateKey, issues),
    timeoutMs: read(env, "CHAIN_TIMEOUT_MS", timeoutMs, issues) ?? DEFAULT_CHAIN_TIMEOUT_MS,
    contracts,
    pairedTokenWethPools: read(env, `PAIRED_TOKEN_WETH_POOLS_${chainId}`, pairedTokenPools, issues) ?? {},
    tokenIndexStartBlock: read(env, `TOKEN_INDEX_START_BLOCK_${chainId}`, blockNumber, issues),
  };
  if (issues.length) throw invalid(issues);
  return settings;
}

/** Prefixes of the variables named `<PREFIX>_<chainId>`: what chainSettings reads for chain 0, so none is missed. */
function perChainPrefixes(): Set<string> {
  const names = variablesRead((env) => chainSettings(0, env));
  return new Set(names.filter((name) => name.endsWith("_0")).map((name) => name.slice(0, -2)));
}

/**
 * Start-up check: reads the settings of 8453 and of every chain id a per-chain variable names, so a bad value
 * stops the process naming the variable instead of failing the first request that reaches the chain.
 */
export function checkChainSettings(env: NodeJS.ProcessEnv = process.env): void {
  const prefixes = perChainPrefixes();
  const named = Object.keys(env)
    .map((name) => /^([A-Z0-9_]+)_(\d+)$/.exec(name))
    .filter((m) => m && prefixes.has(m[1]!));
  const issues = new Set<string>();
  for (const chainId of new Set([8453, ...named.map((m) => Number(m![2]))])) {
    try {
      chainSettings(chainId, env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      for (const line of error.message.split("\n").slice(1)) issues.add(line);
    }
  }
  if (issues.size) throw invalid([...issues]);
}

/** Chain ids that have an RPC URL, for jobs that visit every configured chain (the indexer). */
export function configuredChainIds(env: NodeJS.ProcessEnv = process.env): number[] {
  return Object.keys(env)
    .map((name) => /^RPC_URL_(\d+)$/.exec(name)?.[1])
    .filter((id): id is string => id !== undefined && Boolean(env[`RPC_URL_${id}`]?.trim()))
    .map(Number)
    .sort((a, b) => a - b);
}
