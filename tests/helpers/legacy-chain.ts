// Tokens of the platform's earlier generations (v0 to v3.1) on the local chain, deployed at the legacy
// stand-ins (dev/chain/contracts/Legacy*.sol) with the platform SDK's own ABIs for each factory, and claims that
// make a legacy locker emit its claim event, sent as the platform SDK's legacy fee claim helper builds them.
import { CLANKERS } from "clanker-sdk";
import { getClaimLegacyCreatorFeesTransaction } from "clanker-sdk/legacyFeeClaims";
import {
  decodeEventLog,
  encodeAbiParameters,
  getAddress,
  getContractAddress,
  keccak256,
  maxUint256,
  parseEventLogs,
  toHex,
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
} from "viem";
import * as artifacts from "@/dev/chain/artifacts";
import { LEGACY_BASE_ADDRESSES, WETH_ADDRESS } from "@/dev/chain/local";
import type { TestChain } from "./chain";

/** The SDK's type label of each legacy generation, as the platform stores it in a token's `type`. */
export type LegacyGeneration = "proxy" | "clanker" | "clanker_v2" | "clanker_v3" | "clanker_v3_1";
export const LEGACY_GENERATIONS: readonly LegacyGeneration[] = [
  "proxy",
  "clanker",
  "clanker_v2",
  "clanker_v3",
  "clanker_v3_1",
];

const L = LEGACY_BASE_ADDRESSES;
/** Each generation's SDK entry (address and ABI), factory, and shared locker (none for v0 and v1). */
export const LEGACY = {
  proxy: { sdk: CLANKERS.clanker_v0, factory: L.factoryV0, locker: undefined, version: 0 },
  clanker: { sdk: CLANKERS.clanker_v1, factory: L.factoryV1, locker: undefined, version: 1 },
  clanker_v2: { sdk: CLANKERS.clanker_v2, factory: L.factoryV2, locker: L.lockerV2, version: 2 },
  clanker_v3: { sdk: CLANKERS.clanker_v3, factory: L.factoryV3, locker: L.lockerV3, version: 3 },
  clanker_v3_1: { sdk: CLANKERS.clanker_v3_1, factory: L.factoryV3_1, locker: L.lockerV3_1, version: 3.1 },
} as const satisfies Record<LegacyGeneration, unknown>;

export const LEGACY_SUPPLY = 100_000_000_000n * 10n ** 18n;
/** The platform's usual legacy starting tick (about 10 WETH market cap) on a 1% pool. */
export const LEGACY_TICK = -230_400;
export const LEGACY_POOL_FEE = 10_000;
/** The fee tiers the local factories take (v0 to v3) and their tick spacing; v3.1 fixes 10,000. */
export const LEGACY_TICK_SPACING: Readonly<Record<number, number>> = { 10000: 200, 3000: 60, 500: 10, 100: 1 };
/** A pair other than WETH, as on Base (USDC's address; nothing answers there locally, so no dev buy or fee claim). */
export const BASE_USDC_ADDRESS: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

/**
 * Where the platform's token of `token` and WETH at 1% sits on Base: Uniswap V3's CREATE2 rule (salt from the sorted
 * pair and fee, Uniswap's pool init code hash). The local pool (LegacyDeployment.pool) is elsewhere: its code is the
 * local Pool, so nothing answers at this address on the local chain.
 */
export function platformPoolAddress(
  token: Address,
  paired: Address = WETH_ADDRESS,
  fee: number = LEGACY_POOL_FEE,
): Address {
  const [token0, token1] = BigInt(token) < BigInt(paired) ? [token, paired] : [paired, token];
  const salt = keccak256(
    encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint24" }], [token0, token1, fee]),
  );
  return getContractAddress({
    opcode: "CREATE2",
    from: L.uniswapV3Factory,
    salt,
    bytecodeHash: "0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54",
  });
}

export interface LegacyTokenOptions {
  name?: string;
  symbol?: string;
  /** Makes the CREATE2 salt (default: the name). */
  saltLabel?: string;
  /** The deployer the event names (v0 to v3), or the creator admin (v3.1). Default: account 2. */
  deployer?: Address;
  /** Requester fid (v1 to v3). */
  fid?: bigint;
  image?: string;
  castHash?: string;
  /** v3.1 only. */
  metadata?: string;
  context?: string;
  interfaceAdmin?: Address;
  creatorRewardRecipient?: Address;
  interfaceRewardRecipient?: Address;
  /** v3.1 creator reward percent, 1 to 80 (default 80). */
  creatorReward?: bigint;
  vaultPercentage?: number;
  vaultDurationSeconds?: bigint;
  /**
   * The pool's other token, v2 to v3.1 (default WETH; v0 and v1 always pair with WETH). Any address: the local
   * factory does not call it, but a dev buy needs WETH and a fee claim a token that answers ERC-20 calls.
   */
  pairedToken?: Address;
  /** The pool's fee tier, v0 to v3: 10,000 (default), 3,000, 500 or 100. v3.1's factory fixes 10,000. */
  fee?: number;
  /** The starting tick, a multiple of the fee tier's tick spacing (default LEGACY_TICK, a multiple of every one). */
  tick?: number;
  /** ETH of the dev buy (WETH pair only). */
  devBuy?: bigint;
  /** The sending account: v0 to v3 factories take only their owner (account 0, the default); v3.1 anyone (default 2). */
  account?: number;
}

export interface LegacyDeployment {
  generation: LegacyGeneration;
  address: Address;
  txHash: Hex;
  blockNumber: bigint;
  factory: Address;
  /** The LP position's NFT id at the local position manager. */
  positionId: bigint;
  /** The generation's locker, or the token's own locker (v0, v1). */
  locker: Address;
  /** The V3-style pool of the token and its paired token, from the local Uniswap V3 factory's PoolCreated. */
  pool: Address;
  pairedToken: Address;
  /** The pool's fee tier (10,000 unless `fee` said otherwise). */
  poolFee: number;
  deployer: Address;
  sender: Address;
  receipt: TransactionReceipt;
}

/** Deploys a token of `generation` on the test chain, with the SDK's ABI for that factory's deployToken. */
export async function deployLegacyToken(
  chain: TestChain,
  generation: LegacyGeneration,
  options: LegacyTokenOptions = {},
): Promise<LegacyDeployment> {
  const g = LEGACY[generation];
  const account = options.account ?? (generation === "clanker_v3_1" ? 2 : 0);
  const wallet = chain.wallet(account);
  const deployer = options.deployer ?? chain.accounts[2]!;
  const name = options.name ?? `Legacy ${generation}`;
  const symbol = options.symbol ?? "OLD";
  const salt = keccak256(toHex(options.saltLabel ?? name));
  const tick = options.tick ?? LEGACY_TICK;
  const paired = options.pairedToken ?? WETH_ADDRESS;
  const fee = options.fee ?? LEGACY_POOL_FEE;
  if ((generation === "proxy" || generation === "clanker") && getAddress(paired) !== WETH_ADDRESS)
    throw new Error(`${generation} pairs with WETH only`);
  if (generation === "clanker_v3_1" && fee !== LEGACY_POOL_FEE) throw new Error("clanker_v3_1 fixes the fee at 1%");
  if (!LEGACY_TICK_SPACING[fee]) throw new Error(`no local fee tier ${fee}`);
  const fid = options.fid ?? 0n;
  const image = options.image ?? "";
  const castHash = options.castHash ?? "";
  const poolConfig = { tick, pairedToken: paired, devBuyFee: LEGACY_POOL_FEE };

  let args: unknown[];
  if (generation === "proxy") args = [name, symbol, LEGACY_SUPPLY, tick, fee, salt, deployer];
  else if (generation === "clanker") {
    args = [name, symbol, LEGACY_SUPPLY, tick, fee, salt, deployer, fid, image, castHash];
  } else if (generation === "clanker_v2") {
    args = [name, symbol, LEGACY_SUPPLY, fee, salt, deployer, fid, image, castHash, poolConfig];
  } else if (generation === "clanker_v3") {
    args = [
      {
        _name: name,
        _symbol: symbol,
        _supply: LEGACY_SUPPLY,
        _fee: fee,
        _salt: salt,
        _deployer: deployer,
        _fid: fid,
        _image: image,
        _castHash: castHash,
        _poolConfig: poolConfig,
      },
    ];
  } else {
    args = [
      {
        tokenConfig: {
          name,
          symbol,
          salt,
          image,
          metadata: options.metadata ?? "",
          context: options.context ?? "",
          originatingChainId: BigInt(chain.chainId),
        },
        vaultConfig: {
          vaultPercentage: options.vaultPercentage ?? 0,
          vaultDuration: options.vaultDurationSeconds ?? 0n,
        },
        poolConfig: { pairedToken: paired, tickIfToken0IsNewToken: tick },
        initialBuyConfig: { pairedTokenPoolFee: LEGACY_POOL_FEE, pairedTokenSwapAmountOutMinimum: 0n },
        rewardsConfig: {
          creatorReward: options.creatorReward ?? 80n,
          creatorAdmin: deployer,
          creatorRewardRecipient: options.creatorRewardRecipient ?? deployer,
          interfaceAdmin: options.interfaceAdmin ?? deployer,
          interfaceRewardRecipient: options.interfaceRewardRecipient ?? deployer,
        },
      },
    ];
  }
  // The SDK is typed against its own copy of viem: its ABIs are plain data at runtime.
  const abi = g.sdk.abi as unknown as Abi;
  const hash = await wallet.writeContract({
    address: g.factory,
    abi,
    functionName: "deployToken",
    args,
    value: options.devBuy ?? 0n,
    gas: 8_000_000n,
  } as never);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`${generation} deployToken reverted`);

  const [created] = parseEventLogs({ abi, eventName: "TokenCreated", logs: receipt.logs }) as unknown as {
    args: Record<string, unknown>;
    address: Address;
    logIndex: number;
  }[];
  if (!created || getAddress(created.address) !== getAddress(g.factory)) throw new Error("no TokenCreated");
  const address = getAddress(created.args.tokenAddress as Address);
  const positionId = (created.args.lpNftId ?? created.args.positionId) as bigint;
  const locker = g.locker ?? getAddress(created.args.lockerAddress as Address);
  // The pool as the indexer learns it: the factory's nearest earlier PoolCreated naming the token, checked by getPool.
  const poolCreated = parseEventLogs({
    abi: artifacts.legacyUniswapV3FactoryAbi,
    eventName: "PoolCreated",
    logs: receipt.logs,
  }).filter(
    (log) =>
      getAddress(log.address) === getAddress(L.uniswapV3Factory) &&
      log.logIndex < created.logIndex &&
      [log.args.token0, log.args.token1].map((t) => getAddress(t)).includes(address),
  );
  const pool = poolCreated.at(-1)?.args.pool;
  const registered = await chain.publicClient.readContract({
    address: L.uniswapV3Factory,
    abi: artifacts.legacyUniswapV3FactoryAbi,
    functionName: "getPool",
    args: [address, paired, fee],
  });
  if (!pool || getAddress(pool) !== getAddress(registered))
    throw new Error(`${generation}: no PoolCreated of ${address}`);
  return {
    generation,
    address,
    txHash: hash,
    blockNumber: receipt.blockNumber,
    factory: g.factory,
    positionId,
    locker,
    pool: getAddress(pool),
    pairedToken: getAddress(paired),
    poolFee: fee,
    deployer,
    sender: wallet.account.address,
    receipt,
  };
}

/** The locker's claim event of each generation: v0/v1 `ClaimedFees`, v2/v3 and v3.1 `ClaimedRewards` (different shapes). */
export function legacyLockerAbi(generation: LegacyGeneration): Abi {
  if (generation === "proxy" || generation === "clanker") return artifacts.legacyLockerV0Abi;
  if (generation === "clanker_v3_1") return artifacts.legacyLockerV3_1Abi;
  return artifacts.legacyLockerV2Abi;
}

export interface LegacyClaim {
  txHash: Hex;
  blockNumber: bigint;
  /** The locker's claim event, decoded with the local locker's ABI. */
  event: { eventName: string; args: Record<string, unknown> };
  receipt: TransactionReceipt;
}

/**
 * Accrues fees on a legacy token's LP position (`paired` in the paired token, wrapped from account `payer`'s ETH
 * when it is WETH; `token` in the launched token, which `payer` must hold), then claims them the way the
 * platform's SDK builds the claim: v2 to v3.1 through the factory's `claimRewards(token)`, v0 and v1 at the
 * token's locker with `collectFees(recipient, positionId)`, sent by the deployer. Returns the locker's event.
 */
export async function claimLegacyFees(
  chain: TestChain,
  deployment: LegacyDeployment,
  options: { paired?: bigint; token?: bigint; payer?: number; claimer?: number; recipient?: Address } = {},
): Promise<LegacyClaim> {
  const payer = chain.wallet(options.payer ?? 5);
  const paired = options.paired ?? 10n ** 18n;
  const tokenFees = options.token ?? 0n;
  const position = await chain.publicClient.readContract({
    address: L.positionManager,
    abi: artifacts.legacyPositionManagerAbi,
    functionName: "positions",
    args: [deployment.positionId],
  });
  const [token0, token1] = [position[2], position[3]];
  const pairedToken = getAddress(token0) === deployment.address ? token1 : token0;
  const send = async (request: Parameters<typeof payer.writeContract>[0]) => {
    const hash = await payer.writeContract(request);
    await chain.publicClient.waitForTransactionReceipt({ hash });
  };
  if (paired > 0n && getAddress(pairedToken) === WETH_ADDRESS) {
    await send({ address: WETH_ADDRESS, abi: artifacts.weth9Abi, functionName: "deposit", value: paired } as never);
  }
  for (const token of [pairedToken, deployment.address]) {
    await send({
      address: token,
      abi: artifacts.weth9Abi,
      functionName: "approve",
      args: [L.positionManager, maxUint256],
    } as never);
  }
  const isToken0 = getAddress(token0) === deployment.address;
  await send({
    address: L.positionManager,
    abi: artifacts.legacyPositionManagerAbi,
    functionName: "addFees",
    args: [deployment.positionId, isToken0 ? tokenFees : paired, isToken0 ? paired : tokenFees],
  } as never);

  const g = LEGACY[deployment.generation];
  const tx =
    g.version === 0 || g.version === 1
      ? getClaimLegacyCreatorFeesTransaction({
          token: deployment.address,
          version: g.version,
          lockerParams: {
            locker: deployment.locker,
            positionId: deployment.positionId,
            recipient: options.recipient ?? deployment.deployer,
          },
        })
      : getClaimLegacyCreatorFeesTransaction({ token: deployment.address, version: g.version });
  // v0/v1 lockers take only their owner (the deployer, account 2 by default); anyone may claim through a factory.
  const claimer = chain.wallet(options.claimer ?? 2);
  const hash = await claimer.writeContract({ ...tx, gas: 1_000_000n } as never);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`${deployment.generation} claim reverted`);
  const abi = legacyLockerAbi(deployment.generation);
  const log = receipt.logs.find((l) => getAddress(l.address) === deployment.locker && l.topics[0]);
  if (!log) throw new Error("the locker emitted nothing");
  const event = decodeEventLog({ abi, data: log.data, topics: log.topics }) as unknown as LegacyClaim["event"];
  return { txHash: hash, blockNumber: receipt.blockNumber, event, receipt };
}
