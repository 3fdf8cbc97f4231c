// Chain configuration per chain id, read from the environment and validated here. lib/core/config.ts validates
// the variables with fixed names; these are named per chain (`RPC_URL_<chainId>`, `FACTORY_ADDRESS_<chainId>`,
// ...), so they are validated here: the one other place that reads service settings from `process.env`.
import { z } from "zod";
import { getAddress, type Address, type Hex } from "viem";
import { ConfigError, variablesRead } from "@/lib/core/config";
import { EVM_ADDRESS } from "@/lib/core/evm";
import { LEGACY_GENERATIONS, PRODUCTION_LEGACY_FACTORIES, type LegacyFactory } from "./generations";

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
  /** `RPC_REQUESTS_PER_SECOND_<chainId>`: HTTP requests to the RPC spaced to at most this many a second (its plan's). */
  requestsPerSecond?: number;
  contracts: ChainContracts;
  /** `PAIRED_TOKEN_WETH_POOLS_<chainId>`: lowercase paired token → the pool pricing it in WETH (market caps). */
  pairedTokenWethPools: Record<string, Address>;
  /** `TOKEN_INDEX_START_BLOCK_<chainId>`: where the TokenCreated indexer starts without a checkpoint (lib/domains/launch/indexer). */
  tokenIndexStartBlock?: number;
  /**
   * `LEGACY_FACTORIES_<chainId>`: the factories of generations before v4 (generations.ts). Unset: the platform's own,
   * on a chain whose v4 factory is the platform's own too (a chain of other contracts has none of them).
   */
  legacyFactories: LegacyFactory[];
  /** The chain's fixed block time, when it has one since genesis (FIXED_BLOCK_TIMES): block times follow from it. */
  blockTime?: FixedBlockTime;
}

/** A chain whose block n is at `genesisTime + seconds * n`. */
export type FixedBlockTime = { genesisTime: number; seconds: number };

/**
 * Chains whose blocks have been `seconds` apart since genesis (OP Stack chains keep a fixed block time): Base's and
 * Base Sepolia's genesis times are their rollup configurations' `l2_time`. A block read proves the rule on each use
 * (blockTimeOf), so a local chain at the same id, or a rule that stopped holding, falls back to reading each block.
 */
export const FIXED_BLOCK_TIMES: Record<number, FixedBlockTime> = {
  8453: { genesisTime: 1_686_789_347, seconds: 2 },
  84532: { genesisTime: 1_695_768_288, seconds: 2 },
};

/** The time of block `number` on a chain of fixed block time. */
export const blockTimeOf = (rule: FixedBlockTime, number: number | bigint): number =>
  rule.genesisTime + rule.seconds * Number(number);

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
 * The platform's v4.1 deployment per chain, as published in its public SDK's address table (clanker-sdk 4.2.x):
 * the factory, the fee-conversion LP locker, the V2 fee hooks (whose poolData wraps the fee data with a pool
 * extension) and the sniper auction V2 (whose mevModuleData carries the sniper fees). Where the SDK's table has
 * only the previous generation of a hook or MEV module (or the zero address) the entry is left out, so a
 * deployment needing it is a 503 naming its variable instead of calldata that contract would not read.
 * Chainlink's ETH/USD proxy on Base, and the presale extension where the SDK publishes one (Base, Ethereum).
 * Any variable set in the environment wins.
 */
export const PRODUCTION_DEFAULTS: Record<number, ChainContracts> = {
  // Base
  8453: {
    factory: "0xE85A59c628F7d27878ACeB4bf3b35733630083a9",
    feeLocker: "0xF3622742b1E446D92e45E22923Ef11C2fcD55D68",
    locker: "0x63D2DfEA64b3433F4071A98665bcD7Ca14d93496",
    vault: "0x8E845EAd15737bF71904A30BdDD3aEE76d6ADF6C",
    airdrop: "0xf652B3610D75D81871bf96DB50825d9af28391E0",
    presale: "0xeeBbC567C3D612f50a67820f39CDD30dcCF7E6b8",
    staticFeeHook: "0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC",
    dynamicFeeHook: "0xd60D6B218116cFd801E28F78d011a203D2b068Cc",
    mevModule: "0xebB25BB797D82CB78E1bc70406b13233c0854413",
    weth: "0x4200000000000000000000000000000000000006",
    ethUsdFeed: "0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70",
  },
  // Base Sepolia: the SDK's MEV module there is the previous generation (no sniper fees).
  84532: {
    factory: "0xE85A59c628F7d27878ACeB4bf3b35733630083a9",
    feeLocker: "0x42A95190B4088C88Dd904d930c79deC1158bF09D",
    locker: "0x824bB048a5EC6e06a09aEd115E9eEA4618DC2c8f",
    vault: "0xcC80d1226F899a78fC2E459a1500A13C373CE0A5",
    airdrop: "0x5c68F1560a5913c176Fc5238038098970B567B19",
    staticFeeHook: "0x11b51DBC2f7F683b81CeDa83DC0078D57bA328cc",
    dynamicFeeHook: "0xBF4983dC0f2F8FE78C5cf8Fc621f294A993728Cc",
    weth: "0x4200000000000000000000000000000000000006",
  },
  // Ethereum: no dynamic fee hook.
  1: {
    factory: "0x6C8599779B03B00AAaE63C6378830919Abb75473",
    feeLocker: "0xA9C0a423f0092176fC48d7B50a1fCae8cf5BB441",
    locker: "0x00C4b21889145CF0D99f2e05919103e0c3991974",
    vault: "0xa1da0600Eb4A9F3D4a892feAa2c2caf80A4A2f14",
    airdrop: "0x303470b6b6a35B06A5A05763A7caD776fbf27B71",
    presale: "0xf7db81910444ab0f07bA264d7636d219A8c7769D",
    staticFeeHook: "0x6C24D0bCC264EF6A740754A11cA579b9d225e8Cc",
    mevModule: "0x33e2Eda238edcF470309b8c6D228986A1204c8f9",
    weth: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
  },
  // Arbitrum and Unichain: the SDK's hooks and MEV modules there are the previous generation.
  42161: {
    factory: "0xEb9D2A726Edffc887a574dC7f46b3a3638E8E44f",
    feeLocker: "0x92C0DCbAba17b0F5f3a7537dA82c0F80520e4dF6",
    locker: "0xF3622742b1E446D92e45E22923Ef11C2fcD55D68",
    vault: "0xa1da0600Eb4A9F3D4a892feAa2c2caf80A4A2f14",
    airdrop: "0x8Cb6e0216e98A7ACF622DC2dD6a39F1b4FF37014",
    weth: "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1",
  },
  130: {
    factory: "0xE85A59c628F7d27878ACeB4bf3b35733630083a9",
    feeLocker: "0x1d5A0F0BD3eA07F78FC14577f053de7A3FEc35B2",
    locker: "0x691f97752E91feAcD7933F32a1FEdCeDae7bB59c",
    vault: "0xA9C0a423f0092176fC48d7B50a1fCae8cf5BB441",
    airdrop: "0xE143f9872A33c955F23cF442BB4B1EFB3A7402A2",
    weth: "0x4200000000000000000000000000000000000006",
  },
  // BNB Smart Chain: paired with WBNB.
  56: {
    factory: "0xea30438E0B5f99096cb05A8Da63be55A6A298F6a",
    feeLocker: "0x67D04Ae42F03D9b63dE0E6F2d82bB186A0306bBb",
    locker: "0x1166022e1becc70E7E9aB2250aF1aC7842B9B420",
    vault: "0x15ee8382DBd8Fb991F653B59CA11bf504a07372D",
    airdrop: "0xBB0f069b995e0205cD5F92C84a1dF056a3F47900",
    staticFeeHook: "0xC5d309026BCAb6630888d51CE21154AD2f4828cC",
    dynamicFeeHook: "0x011a8ed40095F2D7E9c19125B8254b19678D68Cc",
    mevModule: "0xec1310cf227a2D671176000aE0849DE6417b175a",
    weth: "0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c",
  },
  // Monad: paired with WMON; no dynamic fee hook.
  143: {
    factory: "0xF9a0C289Eab6B571c6247094a853810987E5B26D",
    feeLocker: "0x46B77BaCFd712D79131F1AD7611794869483C353",
    locker: "0xDe51a86D3b6EC9ac4756115D3744335Aa2c30144",
    vault: "0xe7D402A5BEd94E5c49Ac0639E80f784D06E2D397",
    airdrop: "0x654E7221fa51d4359ded21D524E3AfF18e93A507",
    staticFeeHook: "0x94F802a9EFE4dd542FdBd77a25D9e69A6dC828Cc",
    mevModule: "0x3231D1ddfdC4Ad585cF1939FfEcd9c88b338Dbf2",
    weth: "0x3bd359C1119dA7Da1D913D1C4D2B7c461115433A",
  },
  // Robinhood Chain: its MEV module takes the same sniper fees (descending fees).
  4663: {
    factory: "0xD3f2cC1731b7Fd17f28798835C2E02f0a1839A94",
    feeLocker: "0x88db2340bE5991B2b5Fca2Baee39B5CE048Cd70c",
    locker: "0x290F735F63824BB5836cDe24a35F5103A5B5Bc99",
    vault: "0x99B2a80ed21c7af1F5cc1A97383DADeEC7DD1427",
    airdrop: "0x6f27372FF493A3855E6746b9a4fe6Ed2Cc3034B5",
    staticFeeHook: "0x48B8F6AD3A1b4aA477314c9a23035b8F84dDe8cc",
    dynamicFeeHook: "0x65efDF8Cce99b53C925DF878Df275Df21cB6E8Cc",
    mevModule: "0xEA1Fe197dF140e5d88fC6B49f2d21Ea05092299e",
    weth: "0x0Bd7D308f8E1639FAb988df18A8011f41EAcAD73",
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
const perSecond = z.coerce.number().positive().max(10_000);
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

/** `type:factory[:locker]` entries, comma-separated. */
const legacyFactories = z
  .string()
  .refine(
    (v) =>
      v.split(",").every((entry) => {
        const [type, ...addresses] = entry.trim().split(":");
        const known = (LEGACY_GENERATIONS as readonly string[]).includes(type ?? "");
        return known && addresses.length >= 1 && addresses.length <= 2 && addresses.every((a) => EVM_ADDRESS.test(a));
      }),
    `must be comma-separated type:factory[:locker] entries, type one of ${LEGACY_GENERATIONS.join(", ")}`,
  )
  .transform((v) =>
    v.split(",").map((entry): LegacyFactory => {
      const [type, factory, locker] = entry.trim().split(":") as [LegacyFactory["type"], string, string?];
      return {
        type,
        factory: getAddress(factory.toLowerCase()),
        ...(locker && { locker: getAddress(locker.toLowerCase()) }),
      };
    }),
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

type Reading = { names: string[]; values: (string | undefined)[]; settings: ChainSettings };
/** The last reading per environment object and chain: the variables it read, their values, and its settings. */
const readings = new WeakMap<NodeJS.ProcessEnv, Map<number, Reading>>();

/** Readings found current in this synchronous run (emptied by a microtask when it ends). */
const current = new Set<Reading>();

/** Marks a reading current until the synchronous run ends: the variables cannot change before then. */
function checked(reading: Reading): true {
  if (!current.size) queueMicrotask(() => current.clear());
  current.add(reading);
  return true;
}

/**
 * A chain's settings. Parsing them takes far longer than looking at the variables they come from, and the indexer
 * asks for them several times per event: a reading is kept until one of the variables it read changes. Reading a
 * variable costs about 0.2 µs, so they are looked at once per synchronous run, not at every call.
 */
export function chainSettings(chainId: number, env: NodeJS.ProcessEnv = process.env): ChainSettings {
  let byChain = readings.get(env);
  if (!byChain) readings.set(env, (byChain = new Map()));
  const last = byChain.get(chainId);
  if (last && (current.has(last) || (last.names.every((name, i) => env[name] === last.values[i]) && checked(last))))
    return last.settings;
  const names = new Set<string>();
  const recorder = new Proxy(env, {
    get: (target, name) => {
      if (typeof name === "string") names.add(name);
      return target[name as string];
    },
  });
  const settings = parseChainSettings(chainId, recorder);
  const reading = { names: [...names], values: [...names].map((name) => env[name]), settings };
  byChain.set(chainId, reading);
  checked(reading);
  return settings;
}

function parseChainSettings(chainId: number, env: NodeJS.ProcessEnv): ChainSettings {
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
    requestsPerSecond: read(env, `RPC_REQUESTS_PER_SECOND_${chainId}`, perSecond, issues),
    contracts,
    pairedTokenWethPools: read(env, `PAIRED_TOKEN_WETH_POOLS_${chainId}`, pairedTokenPools, issues) ?? {},
    tokenIndexStartBlock: read(env, `TOKEN_INDEX_START_BLOCK_${chainId}`, blockNumber, issues),
    legacyFactories:
      read(env, `LEGACY_FACTORIES_${chainId}`, legacyFactories, issues) ??
      (contracts.factory === defaults.factory ? [...(PRODUCTION_LEGACY_FACTORIES[chainId] ?? [])] : []),
    ...(FIXED_BLOCK_TIMES[chainId] && { blockTime: FIXED_BLOCK_TIMES[chainId] }),
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
