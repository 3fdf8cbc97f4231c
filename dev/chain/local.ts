// The local chain: hardhat's simulator (EDR, shipped inside the hardhat npm package) with chain id 8453,
// in process for tests or behind a JSON-RPC server for `npm run dev`, plus the local contracts installed at
// the platform's Base addresses, so the platform's own SDK deploys on it unchanged. Dev and test only: never
// imported by route code.
import { createRequire } from "node:module";
import {
  createPublicClient,
  createWalletClient,
  custom,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  http,
  type Abi,
  type Address,
  type EIP1193Provider,
  type Hex,
  type PublicClient,
  type Transport,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import * as artifacts from "./artifacts";
import { MULTICALL3_ADDRESS } from "@/lib/platform/chain/clients";

export const LOCAL_CHAIN_ID = 8453;
export const WETH_ADDRESS: Address = "0x4200000000000000000000000000000000000006";

/** Hardhat's default accounts ("test ... junk" mnemonic): well known, never use them on a real chain. */
export const LOCAL_PRIVATE_KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
  "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
  "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
  "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
  "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
] as const satisfies readonly Hex[];

/** Account 0 owns the local contracts; account 1 is the service's deployer unless one is given. */
export const LOCAL_OWNER_KEY = LOCAL_PRIVATE_KEYS[0];
export const LOCAL_DEPLOYER_KEY = LOCAL_PRIVATE_KEYS[1];
const ETH = 10n ** 18n;

const require = createRequire(import.meta.url);

/**
 * An in-process hardhat chain (automine: every transaction is mined as it arrives), answering
 * reverts the way a node's JSON-RPC does (see asNodeErrors), so viem decodes them as it would in
 * production.
 */
export async function createLocalProvider(): Promise<EIP1193Provider> {
  return asNodeErrors(await createSimulator());
}

/**
 * The simulator throws reverts as errors without a JSON-RPC code (just `data`); a node answers
 * code 3 "execution reverted" with the revert data, and viem only decodes custom errors from that.
 */
function asNodeErrors(provider: EIP1193Provider): EIP1193Provider {
  const request = (args: unknown) => (provider.request as (a: unknown) => Promise<unknown>)(args);
  return {
    ...provider,
    on: provider.on.bind(provider),
    removeListener: provider.removeListener.bind(provider),
    request: (async (args: unknown) => {
      try {
        return await request(args);
      } catch (error) {
        const e = error as { code?: unknown; data?: unknown; message?: string };
        if (e && e.code === undefined && typeof e.data === "string") {
          throw Object.assign(new Error(e.message ?? "execution reverted"), { code: 3, data: e.data });
        }
        throw error;
      }
    }) as EIP1193Provider["request"],
  };
}

async function createSimulator(): Promise<EIP1193Provider> {
  const { createHardhatNetworkProvider } = require("hardhat/internal/hardhat-network/provider/provider.js");
  return createHardhatNetworkProvider(
    {
      hardfork: "prague",
      chainId: LOCAL_CHAIN_ID,
      networkId: LOCAL_CHAIN_ID,
      blockGasLimit: 60_000_000,
      minGasPrice: 0n,
      automine: true,
      intervalMining: 0,
      mempoolOrder: "priority",
      chains: new Map(),
      genesisAccounts: LOCAL_PRIVATE_KEYS.map((privateKey) => ({ privateKey, balance: (10_000n * ETH).toString() })),
      allowUnlimitedContractSize: false,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
      allowBlocksWithSameTimestamp: false,
      enableTransientStorage: false,
      enableRip7212: false,
    },
    { enabled: false },
  );
}

export interface LocalChain {
  rpcUrl: string;
  port: number;
  provider: EIP1193Provider;
  close(): Promise<void>;
}

/** A hardhat node: JSON-RPC (HTTP and WebSocket) on host:port over an in-process chain. Port 0 picks a free one. */
export async function startLocalChain(options: { port?: number; host?: string } = {}): Promise<LocalChain> {
  const host = options.host ?? "127.0.0.1";
  // The server maps the simulator's errors to JSON-RPC errors itself.
  const provider = await createSimulator();
  const { JsonRpcServer } = require("hardhat/internal/hardhat-network/jsonrpc/server.js");
  const server = new JsonRpcServer({ hostname: host, port: options.port ?? 8545, provider });
  const { port } = (await server.listen()) as { address: string; port: number };
  return { rpcUrl: `http://${host}:${port}`, port, provider: asNodeErrors(provider), close: () => server.close() };
}

export interface LocalContracts {
  factory: Address;
  feeLocker: Address;
  locker: Address;
  vault: Address;
  airdrop: Address;
  presale: Address;
  staticFeeHook: Address;
  dynamicFeeHook: Address;
  mevModule: Address;
  weth: Address;
  ethUsdFeed: Address;
  merkleVerifier: Address;
  multicall3: Address;
}

export interface LocalDeployment {
  contracts: LocalContracts;
  owner: Address;
  deployer: Address;
  /** The variables that point the service at this chain (RPC_URL_8453 only when given a URL). */
  env: Record<string, string>;
}

/** Initial ETH/USD answer of the local feed: $3,000.00000000 (8 decimals, like Chainlink's). */
export const LOCAL_ETH_USD = 3_000n * 10n ** 8n;

/**
 * Where the platform's v4.1 contracts sit on Base, as its SDK's address table has them (clanker-sdk 4.2.x): the
 * local contracts are installed at the same addresses.
 */
export const PLATFORM_BASE_ADDRESSES = {
  factory: "0xE85A59c628F7d27878ACeB4bf3b35733630083a9",
  feeLocker: "0xF3622742b1E446D92e45E22923Ef11C2fcD55D68",
  locker: "0x63D2DfEA64b3433F4071A98665bcD7Ca14d93496",
  vault: "0x8E845EAd15737bF71904A30BdDD3aEE76d6ADF6C",
  airdrop: "0xf652B3610D75D81871bf96DB50825d9af28391E0",
  presale: "0xeeBbC567C3D612f50a67820f39CDD30dcCF7E6b8",
  staticFeeHook: "0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC",
  dynamicFeeHook: "0xd60D6B218116cFd801E28F78d011a203D2b068Cc",
  mevModule: "0xebB25BB797D82CB78E1bc70406b13233c0854413",
} as const satisfies Partial<Record<keyof LocalContracts, Address>>;

/**
 * Where the platform's earlier generations (v0 to v3.1) sit on Base, as its SDK has them (`CLANKERS` and the legacy
 * fee claim helpers), with the Uniswap V3 factory and position manager their pools and LP positions live in. The
 * legacy stand-ins (dev/chain/contracts/Legacy*.sol) are installed at the same addresses. v0 and v1 have no
 * shared locker: their factories create one per token.
 */
export const LEGACY_BASE_ADDRESSES = {
  factoryV0: "0x250c9FB2b411B48273f69879007803790A6AeA47",
  factoryV1: "0x9B84fcE5Dcd9a38d2D01d5D72373F6b6b067c3e1",
  factoryV2: "0x732560fa1d1A76350b1A500155BA978031B53833",
  lockerV2: "0x618A9840691334eE8d24445a4AdA4284Bf42417D",
  factoryV3: "0x375C15db32D28cEcdcAB5C03Ab889bf15cbD2c5E",
  lockerV3: "0x5eC4f99F342038c67a312a166Ff56e6D70383D86",
  factoryV3_1: "0x2A787b2362021cC3eEa3C24C4748a6cD5B687382",
  lockerV3_1: "0x33e2Eda238edcF470309b8c6D228986A1204c8f9",
  vaultV3_1: "0x42A95190B4088C88Dd904d930c79deC1158bF09D",
  uniswapV3Factory: "0x33128a8fC17869897dcE68Ed026d694621f6FDfD",
  positionManager: "0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1",
} as const satisfies Record<string, Address>;

/**
 * LEGACY_FACTORIES_8453 for the local chain (`type:factory[:locker]` of each legacy generation): named, they are indexed
 * from block 0; by default the service starts Base's legacy factories at a block the local chain never reaches. Set by
 * the dev chain and by tests about legacy tokens, not by every test (the follower then reads them apart from v4's).
 */
export const LOCAL_LEGACY_FACTORIES = [
  `proxy:${LEGACY_BASE_ADDRESSES.factoryV0}`,
  `clanker:${LEGACY_BASE_ADDRESSES.factoryV1}`,
  `clanker_v2:${LEGACY_BASE_ADDRESSES.factoryV2}:${LEGACY_BASE_ADDRESSES.lockerV2}`,
  `clanker_v3:${LEGACY_BASE_ADDRESSES.factoryV3}:${LEGACY_BASE_ADDRESSES.lockerV3}`,
  `clanker_v3_1:${LEGACY_BASE_ADDRESSES.factoryV3_1}:${LEGACY_BASE_ADDRESSES.lockerV3_1}`,
].join(",");

/** Percent of a v2 or v3 position's fees the local lockers keep for the team (account 0). */
export const LEGACY_V2_TEAM_REWARD = 60n;

/**
 * Installs the local contracts at the platform's Base addresses, deploys the test aids (ETH/USD feed, Merkle
 * verifier) from account 0, enables the modules, and funds the service's deployer. Safe to call again on a
 * chain that already has them.
 */
export async function deployLocalContracts(
  target: string | EIP1193Provider,
  options: { deployerPrivateKey?: Hex } = {},
): Promise<LocalDeployment> {
  const transport: Transport =
    typeof target === "string" ? http(target, { timeout: 30_000 }) : custom(target, { retryCount: 0 });
  const client = createPublicClient({ chain: base, transport, pollingInterval: 50 }) as PublicClient;
  const owner = privateKeyToAccount(LOCAL_OWNER_KEY);
  const wallet = createWalletClient({ account: owner, chain: base, transport });
  const deployerKey = options.deployerPrivateKey ?? LOCAL_DEPLOYER_KEY;
  const deployer = privateKeyToAccount(deployerKey).address;

  // The test aids are predicted from account 0's nonces: the order in runSetup is the contract.
  const at = (nonce: number) => getContractAddress({ from: owner.address, nonce: BigInt(nonce) });
  const contracts: LocalContracts = {
    ...PLATFORM_BASE_ADDRESSES,
    ethUsdFeed: at(0),
    merkleVerifier: at(1),
    weth: WETH_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
  };
  const SETUP_TRANSACTIONS = 10;

  const request: Request = (args) => (client.request as Request)(args);
  await request({ method: "hardhat_setBalance", params: [deployer, `0x${(10_000n * ETH).toString(16)}`] });
  // WETH and Multicall3 live at fixed addresses on Base; install their code there.
  await request({ method: "hardhat_setCode", params: [WETH_ADDRESS, artifacts.weth9DeployedBytecode] });
  await request({ method: "hardhat_setCode", params: [MULTICALL3_ADDRESS, artifacts.multicall3DeployedBytecode] });
  await installPlatformContracts(request, owner.address, contracts);

  const nonce = await client.getTransactionCount({ address: owner.address });
  if (nonce === 0) {
    await runSetup(client, wallet, contracts);
  } else if (nonce < SETUP_TRANSACTIONS) {
    throw new Error(`local chain is half set up (account 0 nonce ${nonce}); restart it`);
  }

  const env: Record<string, string> = {
    DEPLOYER_PRIVATE_KEY: deployerKey,
    FACTORY_ADDRESS_8453: contracts.factory,
    FEE_LOCKER_ADDRESS_8453: contracts.feeLocker,
    LOCKER_ADDRESS_8453: contracts.locker,
    VAULT_ADDRESS_8453: contracts.vault,
    AIRDROP_ADDRESS_8453: contracts.airdrop,
    PRESALE_ADDRESS_8453: contracts.presale,
    STATIC_FEE_HOOK_ADDRESS_8453: contracts.staticFeeHook,
    DYNAMIC_FEE_HOOK_ADDRESS_8453: contracts.dynamicFeeHook,
    MEV_MODULE_ADDRESS_8453: contracts.mevModule,
    WETH_ADDRESS_8453: contracts.weth,
    ETH_USD_FEED_ADDRESS_8453: contracts.ethUsdFeed,
  };
  if (typeof target === "string") env.RPC_URL_8453 = target;
  return { contracts, owner: owner.address, deployer, env };
}

type Wallet = ReturnType<typeof createWalletClient<Transport, typeof base, ReturnType<typeof privateKeyToAccount>>>;
type Request = (args: { method: string; params?: unknown[] }) => Promise<unknown>;

/**
 * Puts each platform contract's runtime code at its Base address. The code is what its constructor returns (an
 * eth_call of the init code, which runs the constructor without a transaction), so immutables carry the
 * constructor's arguments; these contracts keep nothing else from their constructors (no storage written
 * there), and what they hold in storage (enabled modules, depositors) is set by transactions in runSetup.
 */
async function installPlatformContracts(request: Request, owner: Address, c: LocalContracts) {
  const install = async (address: Address, abi: Abi, bytecode: Hex, args: unknown[]) => {
    const code = await request({ method: "eth_call", params: [{ data: encodeDeploy(abi, bytecode, args) }, "latest"] });
    await request({ method: "hardhat_setCode", params: [address, code] });
  };
  await install(c.feeLocker, artifacts.feeLockerAbi, artifacts.feeLockerBytecode, [owner]);
  await install(c.factory, artifacts.factoryAbi, artifacts.factoryBytecode, [owner]);
  await install(c.locker, artifacts.lpLockerFeeConversionAbi, artifacts.lpLockerFeeConversionBytecode, [
    c.factory,
    c.feeLocker,
  ]);
  await install(c.staticFeeHook, artifacts.staticFeeHookV2Abi, artifacts.staticFeeHookV2Bytecode, [owner]);
  await install(c.dynamicFeeHook, artifacts.dynamicFeeHookV2Abi, artifacts.dynamicFeeHookV2Bytecode, [owner]);
  await install(c.mevModule, artifacts.sniperAuctionV2Abi, artifacts.sniperAuctionV2Bytecode, [c.factory]);
  await install(c.vault, artifacts.tokenVaultAbi, artifacts.tokenVaultBytecode, [c.factory]);
  await install(c.airdrop, artifacts.tokenAirdropAbi, artifacts.tokenAirdropBytecode, [c.factory]);
  await install(c.presale, artifacts.presaleAbi, artifacts.presaleBytecode, [c.factory]);

  const l = LEGACY_BASE_ADDRESSES;
  const uniswap = [WETH_ADDRESS, l.uniswapV3Factory, l.positionManager];
  await install(l.uniswapV3Factory, artifacts.legacyUniswapV3FactoryAbi, artifacts.legacyUniswapV3FactoryBytecode, []);
  await install(l.positionManager, artifacts.legacyPositionManagerAbi, artifacts.legacyPositionManagerBytecode, []);
  await install(l.factoryV0, artifacts.legacyFactoryV0Abi, artifacts.legacyFactoryV0Bytecode, [owner, ...uniswap]);
  await install(l.factoryV1, artifacts.legacyFactoryV1Abi, artifacts.legacyFactoryV1Bytecode, [owner, ...uniswap]);
  for (const [factory, locker, abi, bytecode] of [
    [l.factoryV2, l.lockerV2, artifacts.legacyFactoryV2Abi, artifacts.legacyFactoryV2Bytecode],
    [l.factoryV3, l.lockerV3, artifacts.legacyFactoryV3Abi, artifacts.legacyFactoryV3Bytecode],
  ] as const) {
    await install(factory, abi, bytecode, [owner, ...uniswap, locker]);
    await install(locker, artifacts.legacyLockerV2Abi, artifacts.legacyLockerV2Bytecode, [
      factory,
      l.positionManager,
      owner,
      LEGACY_V2_TEAM_REWARD,
    ]);
  }
  await install(l.factoryV3_1, artifacts.legacyFactoryV3_1Abi, artifacts.legacyFactoryV3_1Bytecode, [
    owner,
    ...uniswap,
    l.lockerV3_1,
    l.vaultV3_1,
  ]);
  await install(l.lockerV3_1, artifacts.legacyLockerV3_1Abi, artifacts.legacyLockerV3_1Bytecode, [
    owner,
    l.factoryV3_1,
    l.positionManager,
    owner,
  ]);
  await install(l.vaultV3_1, artifacts.legacyVaultV3_1Abi, artifacts.legacyVaultV3_1Bytecode, [l.factoryV3_1]);
}

async function runSetup(client: PublicClient, wallet: Wallet, c: LocalContracts) {
  let nonce = 0;
  // Explicit nonces and gas: no estimation round trips, and the order (hence the addresses) is fixed.
  const send = async (tx: { data: Hex; to?: Address }) => {
    const hash = await wallet.sendTransaction({ ...tx, nonce: nonce++, gas: 8_000_000n });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== "success") throw new Error(`local setup transaction ${nonce - 1} reverted`);
    return receipt;
  };
  const deploy = (abi: Abi, bytecode: Hex, args: unknown[] = []) => send({ data: encodeDeploy(abi, bytecode, args) });
  const call = (to: Address, abi: Abi, functionName: string, args: unknown[]) =>
    send({ to, data: encodeCall(abi, functionName, args) });

  await deploy(artifacts.mockAggregatorV3Abi, artifacts.mockAggregatorV3Bytecode, [8, "ETH / USD", LOCAL_ETH_USD]);
  await deploy(artifacts.merkleProofVerifierAbi, artifacts.merkleProofVerifierBytecode);

  await call(c.feeLocker, artifacts.feeLockerAbi, "addDepositor", [c.locker]);
  const enable = (kind: number, module: Address) =>
    call(c.factory, artifacts.factoryAbi, "setModule", [kind, module, true]);
  // ModuleKind: 0 Hook, 1 Locker, 2 Extension, 3 MevModule.
  await enable(0, c.staticFeeHook);
  await enable(0, c.dynamicFeeHook);
  await enable(1, c.locker);
  await enable(2, c.vault);
  await enable(2, c.airdrop);
  await enable(2, c.presale);
  await enable(3, c.mevModule);
}

const encodeDeploy = (abi: Abi, bytecode: Hex, args: unknown[]) => encodeDeployData({ abi, bytecode, args });
const encodeCall = (abi: Abi, functionName: string, args: unknown[]) => encodeFunctionData({ abi, functionName, args });

/**
 * Clients acting as the local accounts (buyers, creators, fee payers in tests and dev scripts), as
 * opposed to the service's own clients in clients.ts.
 */
export function localClients(target: string | EIP1193Provider) {
  const transport: Transport = typeof target === "string" ? http(target) : custom(target, { retryCount: 0 });
  const publicClient = createPublicClient({ chain: base, transport, pollingInterval: 50 }) as PublicClient;
  const wallet = (index: number) =>
    createWalletClient({
      account: privateKeyToAccount(LOCAL_PRIVATE_KEYS[index]!),
      chain: base,
      transport,
      pollingInterval: 50,
    });
  return { publicClient, wallet };
}
