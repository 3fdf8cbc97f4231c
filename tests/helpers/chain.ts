// A local chain for tests: hardhat's simulator in process (no port, no network), the local contracts
// deployed, and the chain layer pointed at it for chain id 8453. Snapshot before each test and revert
// after it, so every test starts from the freshly deployed state.
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import {
  custom,
  encodeAbiParameters,
  keccak256,
  toHex,
  zeroAddress,
  type Address,
  type EIP1193Provider,
  type Hex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ClankerTokenV4 } from "clanker-sdk";
import { Clanker } from "clanker-sdk/v4";
import { resetChainClients, setChainTransport } from "@/lib/platform/chain/clients";
import type { DeploymentConfig } from "@/lib/platform/chain/deploy";
import {
  LOCAL_CHAIN_ID,
  LOCAL_PRIVATE_KEYS,
  createLocalProvider,
  deployLocalContracts,
  localClients,
  startLocalChain,
  type LocalContracts,
  type LocalDeployment,
} from "@/dev/chain/local";

export interface TestChain {
  chainId: number;
  provider: EIP1193Provider;
  /** Set with `{ http: true }`: the chain then also listens on a free local port. */
  rpcUrl?: string;
  deployment: LocalDeployment;
  contracts: LocalContracts;
  /** Hardhat's default accounts; 0 owns the contracts, 1 is the service's deployer. */
  accounts: Address[];
  publicClient: ReturnType<typeof localClients>["publicClient"];
  /** A wallet acting as local account `index` (use 2 and up for users). */
  wallet: ReturnType<typeof localClients>["wallet"];
  snapshot(): Promise<Hex>;
  revert(id: Hex): Promise<void>;
  /** Moves the chain clock forward (lockups, presale deadlines) and mines a block. */
  increaseTime(seconds: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a chain, deploys the contracts, sets the RPC/contract variables in process.env and routes the
 * chain layer's 8453 to it. `http: true` serves it on 127.0.0.1:<free port> and uses RPC_URL_8453
 * like production does; the default is the faster in-process transport.
 */
export async function startTestChain(options: { http?: boolean } = {}): Promise<TestChain> {
  const server = options.http ? await startLocalChain({ port: 0 }) : undefined;
  const provider = server?.provider ?? (await createLocalProvider());
  const deployment = await deployLocalContracts(server?.rpcUrl ?? provider);

  const previous = new Map<string, string | undefined>();
  for (const [name, value] of Object.entries(deployment.env)) {
    previous.set(name, process.env[name]);
    process.env[name] = value;
  }
  if (!server) setChainTransport(LOCAL_CHAIN_ID, custom(provider, { retryCount: 0 }));
  resetChainClients();

  const { publicClient, wallet } = localClients(server?.rpcUrl ?? provider);
  const request = (args: { method: string; params?: unknown[] }) =>
    (provider.request as (a: typeof args) => Promise<unknown>)(args);
  return {
    chainId: LOCAL_CHAIN_ID,
    provider,
    rpcUrl: server?.rpcUrl,
    deployment,
    contracts: deployment.contracts,
    accounts: LOCAL_PRIVATE_KEYS.map((key) => privateKeyToAccount(key).address),
    publicClient,
    wallet,
    snapshot: async () => (await request({ method: "evm_snapshot" })) as Hex,
    revert: async (id) => {
      await request({ method: "evm_revert", params: [id] });
      // Cached clients may remember blocks (viem's block number cache) the reverted chain no longer has.
      resetChainClients();
    },
    increaseTime: async (seconds) => {
      await request({ method: "evm_increaseTime", params: [seconds] });
      await request({ method: "evm_mine" });
    },
    close: async () => {
      setChainTransport(LOCAL_CHAIN_ID, undefined);
      for (const [name, value] of previous) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await server?.close();
    },
  };
}

/** Registers hooks: one chain per test file, reverted to the deployed state after each test. */
export function useTestChain(options: { http?: boolean } = {}): () => TestChain {
  let chain: TestChain | undefined;
  let snapshot: Hex | undefined;
  beforeAll(async () => {
    chain = await startTestChain(options);
  });
  beforeEach(async () => {
    snapshot = await chain!.snapshot();
  });
  afterEach(async () => {
    if (snapshot) await chain!.revert(snapshot);
  });
  afterAll(async () => {
    await chain?.close();
  });
  return () => {
    if (!chain) throw new Error("the test chain is not started yet (use it inside tests or hooks)");
    return chain;
  };
}

// The v4.1 data of the platform's contracts, written out here from their Solidity (not with the service's
// encoders: the tests check those against the chain).

/** Static fee hook's fee data: clanker and paired fee in millionths. */
export const staticFeeData = (clankerFee: number, pairedFee: number): Hex =>
  encodeAbiParameters([{ type: "uint24" }, { type: "uint24" }], [clankerFee, pairedFee]);

/** Dynamic fee hook's fee data: base and max fee in millionths, then the SDK's default volatility settings. */
export const dynamicFeeData = (baseFee: number, maxLpFee: number): Hex =>
  encodeAbiParameters(
    ["uint24", "uint24", "uint256", "uint256", "int24", "uint256", "uint24"].map((type) => ({ type })),
    [baseFee, maxLpFee, 30n, 120n, 200, 500_000_000n, 7_500],
  );

/** V2 hooks' poolData: abi.encode(PoolInitializationData(extension, extensionData, feeData)). */
export const poolData = (feeData: Hex, extension: Address = zeroAddress, extensionData: Hex = "0x"): Hex =>
  encodeAbiParameters(
    [{ type: "tuple", components: [{ type: "address" }, { type: "bytes" }, { type: "bytes" }] }],
    [[extension, extensionData, feeData]],
  );

/** Fee-conversion locker's lockerData: one preference per recipient, 0 both, 1 paired, 2 the launched token. */
export const FEE_IN = { Both: 0, Paired: 1, Clanker: 2 } as const;
export const lockerData = (feePreference: number[]): Hex =>
  encodeAbiParameters([{ type: "tuple", components: [{ type: "uint8[]" }] }], [[feePreference]]);

/** Sniper auction's mevModuleData; the platform SDK's defaults unless given. */
export const sniperData = (fees: { startingFee?: number; endingFee?: number; secondsToDecay?: bigint } = {}): Hex =>
  encodeAbiParameters(
    [{ type: "tuple", components: [{ type: "uint24" }, { type: "uint24" }, { type: "uint256" }] }],
    [[fees.startingFee ?? 666_777, fees.endingFee ?? 41_673, fees.secondsToDecay ?? 15n]],
  );

/** The reward split: each recipient its own admin, its bps, and its fee preference (Both unless given). */
export function setRewards(
  config: DeploymentConfig,
  recipients: Address[],
  rewardBps: number[],
  feeIn: number[] = recipients.map(() => FEE_IN.Both),
) {
  Object.assign(config.lockerConfig, {
    rewardAdmins: recipients,
    rewardRecipients: recipients,
    rewardBps,
    lockerData: lockerData(feeIn),
  });
}

/** Standard WETH pool at tick -230400 (about 10 WETH market cap), one position, static 1% fees, v4.1 data. */
export function defaultDeploymentConfig(
  chain: TestChain,
  overrides: { admin?: Address; salt?: Hex; name?: string } = {},
): DeploymentConfig {
  const admin = overrides.admin ?? chain.accounts[2]!;
  return {
    tokenConfig: {
      tokenAdmin: admin,
      name: overrides.name ?? "Test Token",
      symbol: "TEST",
      salt: overrides.salt ?? keccak256(toHex("salt-1")),
      image: "https://example.com/token.png",
      metadata: JSON.stringify({ description: "a test token", socialMediaUrls: [], auditUrls: [] }),
      context: JSON.stringify({ interface: "tests", platform: "", messageId: "", id: "" }),
      originatingChainId: BigInt(chain.chainId),
    },
    poolConfig: {
      hook: chain.contracts.staticFeeHook,
      pairedToken: chain.contracts.weth,
      tickIfToken0IsClanker: -230_400,
      tickSpacing: 200,
      poolData: poolData(staticFeeData(10_000, 10_000)),
    },
    lockerConfig: {
      locker: chain.contracts.locker,
      rewardAdmins: [admin],
      rewardRecipients: [admin],
      rewardBps: [10_000],
      tickLower: [-230_400],
      tickUpper: [-120_000],
      positionBps: [10_000],
      lockerData: lockerData([FEE_IN.Both]),
    },
    mevModuleConfig: { mevModule: chain.contracts.mevModule, mevModuleData: sniperData() },
    extensionConfigs: [],
  };
}

/** A token config in the platform SDK's terms (its chain is the local chain's). */
export type SdkToken = Omit<ClankerTokenV4, "chainId">;

/** The DeploymentConfig the platform's SDK encodes for `token`: the calldata a partner using the SDK sends. */
export async function sdkDeploymentConfig(chain: TestChain, token: SdkToken): Promise<DeploymentConfig> {
  const tx = await new Clanker().getDeployTransaction({ ...token, chainId: chain.chainId } as ClankerTokenV4);
  expect(tx.address).toBe(chain.contracts.factory);
  return tx.args[0] as DeploymentConfig;
}

/** Deploys `token` with the platform's SDK from local account `account`: the token's address and the transaction. */
export async function sdkDeployment(
  chain: TestChain,
  account: number,
  token: SdkToken,
): Promise<{ address: Address; txHash: Hex }> {
  // The SDK is typed against its own copy of viem: the clients are the same objects at runtime.
  const sdk = new Clanker({ wallet: chain.wallet(account) as never, publicClient: chain.publicClient as never });
  const deployed = await sdk.deploy({ ...token, chainId: chain.chainId } as ClankerTokenV4);
  if (deployed.error) throw deployed.error;
  const { address } = await deployed.waitForTransaction();
  return { address: address as Address, txHash: deployed.txHash as Hex };
}

/** Deploys `token` with the platform's SDK from local account `account`; returns the token's address. */
export async function sdkDeploy(chain: TestChain, account: number, token: SdkToken): Promise<Address> {
  return (await sdkDeployment(chain, account, token)).address;
}
