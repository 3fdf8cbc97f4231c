// One DeploymentConfig builder for every shape and for pretokens: a chain-independent plan (what the
// request means, in the chain's units) becomes the factory call, with the chain's contract addresses. The call
// is the v4.1 generation, encoded as the platform's SDK encodes it: the V2 fee hooks' pool initialization data,
// the fee-conversion locker's fee preferences and the sniper auction's fees.
import { encodeAbiParameters, getAddress, zeroAddress, type Address, type Hex } from "viem";
import { chainSettings, ChainUnavailableError, type ChainContracts, type DeploymentConfig } from "@/lib/platform/chain";
import {
  airdropDataParams,
  dynamicFeeDataParams,
  lockerFeeConversionDataParams,
  poolInitializationDataParams,
  sniperAuctionDataParams,
  staticFeeDataParams,
  vaultDataParams,
} from "@/lib/platform/chain/abis";
import { CONTRACT_ENV } from "@/lib/platform/chain/settings";
import { TICK_SPACING } from "./tick";

export type Position = { tickLower: number; tickUpper: number; positionBps: number };
/** Which token a reward recipient takes its fees in: the fee-conversion locker's preference, 0, 1 or 2. */
export const REWARDS_TOKENS = ["Both", "Paired", "Clanker"] as const;
export type RewardsToken = (typeof REWARDS_TOKENS)[number];
export type RewardEntry = { admin: Address; recipient: Address; bps: number; rewardsToken: RewardsToken };
export type FeePlan =
  | { type: "static"; tokenFee: number; pairedFee: number }
  | { type: "dynamic"; baseFee: number; maxLpFee: number };
export type ExtensionPlan =
  | { kind: "vault"; bps: number; admin: Address; lockupSeconds: bigint; vestingSeconds: bigint }
  | { kind: "airdrop"; bps: number; admin: Address; merkleRoot: Hex; lockupSeconds: bigint; vestingSeconds: bigint };
export type TokenMetadata = {
  description: string;
  socialMediaUrls: { platform: string; url: string }[];
  auditUrls: string[];
};
export type TokenContext = { interface: string; platform: string; messageId: string; id: string };
/** The sniper auction's fee: millionths (1,000,000 = 100%), descending from startingFee to endingFee. */
export type SniperFees = { startingFee: number; endingFee: number; secondsToDecay: number };
/** A V2 fee hook's pool extension and its initialization data. */
export type PoolExtension = { address: Address; initData: Hex };

export type DeploymentPlan = {
  chainId: number;
  tokenAdmin: Address;
  name: string;
  symbol: string;
  image: string;
  metadata: TokenMetadata;
  context: TokenContext;
  salt: Hex;
  pairedToken: Address;
  startingTick: number;
  positions: Position[];
  fees: FeePlan;
  rewards: RewardEntry[];
  extensions: ExtensionPlan[];
  sniperFees: SniperFees;
  /** None (the zero address with empty data) unless given. */
  poolExtension?: PoolExtension;
};

/** The platform SDK's position presets; both assume the default starting tick (-230400). */
export const PROJECT_POSITIONS: Position[] = [
  { tickLower: -230_400, tickUpper: -214_000, positionBps: 1_000 },
  { tickLower: -214_000, tickUpper: -155_000, positionBps: 5_000 },
  { tickLower: -202_000, tickUpper: -155_000, positionBps: 1_500 },
  { tickLower: -155_000, tickUpper: -120_000, positionBps: 2_000 },
  { tickLower: -141_000, tickUpper: -120_000, positionBps: 500 },
];

/** Defaults of the dynamic fee hook's volatility settings (the platform SDK's DynamicBasic preset). */
export const DYNAMIC_FEE_DEFAULTS = {
  referenceTickFilterPeriod: 30n,
  resetPeriod: 120n,
  resetTickFilter: 200,
  feeControlNumerator: 500_000_000n,
  decayFilterBps: 7_500,
} as const;

/** The platform SDK's sniper fee defaults, and the sniper auction's bounds. */
export const SNIPER_FEE_DEFAULTS: SniperFees = { startingFee: 666_777, endingFee: 41_673, secondsToDecay: 15 };
export const SNIPER_FEE_MIN = 30_000;
export const SNIPER_FEE_MAX = 800_000;
export const SNIPER_DECAY_MAX_SECONDS = 120;

export const NO_POOL_EXTENSION: PoolExtension = { address: zeroAddress, initData: "0x" };

/** The fee hook's own data (inside the V2 hooks' pool initialization data). */
export function encodeFeeData(fees: FeePlan): Hex {
  if (fees.type === "static") return encodeAbiParameters(staticFeeDataParams, [fees.tokenFee, fees.pairedFee]);
  const d = DYNAMIC_FEE_DEFAULTS;
  return encodeAbiParameters(dynamicFeeDataParams, [
    fees.baseFee,
    fees.maxLpFee,
    d.referenceTickFilterPeriod,
    d.resetPeriod,
    d.resetTickFilter,
    d.feeControlNumerator,
    d.decayFilterBps,
  ]);
}

/** V2 fee hooks: `abi.encode(PoolInitializationData(extension, extensionData, feeData))`. */
export function encodePoolData(fees: FeePlan, extension: PoolExtension = NO_POOL_EXTENSION): Hex {
  return encodeAbiParameters(poolInitializationDataParams, [
    { extension: getAddress(extension.address), extensionData: extension.initData, feeData: encodeFeeData(fees) },
  ]);
}

/** Fee-conversion locker: `abi.encode(LpFeeConversionInfo(uint8[] feePreference))`, one per reward recipient. */
export function encodeLockerData(rewards: RewardEntry[]): Hex {
  return encodeAbiParameters(lockerFeeConversionDataParams, [
    { feePreference: rewards.map((r) => REWARDS_TOKENS.indexOf(r.rewardsToken)) },
  ]);
}

/** Sniper auction V2: `abi.encode(FeeConfig(uint24 startingFee, uint24 endingFee, uint256 secondsToDecay))`. */
export function encodeMevModuleData(fees: SniperFees): Hex {
  return encodeAbiParameters(sniperAuctionDataParams, [
    { startingFee: fees.startingFee, endingFee: fees.endingFee, secondsToDecay: BigInt(fees.secondsToDecay) },
  ]);
}

function contract(chainId: number, contracts: ChainContracts, key: keyof ChainContracts): Address {
  const address = contracts[key];
  if (!address) {
    const variable = `${CONTRACT_ENV[key]}_${chainId}`;
    throw new ChainUnavailableError(chainId, "not_configured", `no ${key} configured (set ${variable})`);
  }
  return address;
}

function extensionConfig(
  chainId: number,
  contracts: ChainContracts,
  e: ExtensionPlan,
): DeploymentConfig["extensionConfigs"][number] {
  if (e.kind === "vault") {
    return {
      extension: contract(chainId, contracts, "vault"),
      msgValue: 0n,
      extensionBps: e.bps,
      extensionData: encodeAbiParameters(vaultDataParams, [getAddress(e.admin), e.lockupSeconds, e.vestingSeconds]),
    };
  }
  return {
    extension: contract(chainId, contracts, "airdrop"),
    msgValue: 0n,
    extensionBps: e.bps,
    extensionData: encodeAbiParameters(airdropDataParams, [
      getAddress(e.admin),
      e.merkleRoot,
      e.lockupSeconds,
      e.vestingSeconds,
    ]),
  };
}

/** The factory call for a plan on its chain. Missing contract addresses are a 503 (not configured). */
export function buildDeploymentConfig(plan: DeploymentPlan): DeploymentConfig {
  const { contracts } = chainSettings(plan.chainId);
  const hook =
    plan.fees.type === "static"
      ? contract(plan.chainId, contracts, "staticFeeHook")
      : contract(plan.chainId, contracts, "dynamicFeeHook");
  return {
    tokenConfig: {
      tokenAdmin: getAddress(plan.tokenAdmin),
      name: plan.name,
      symbol: plan.symbol,
      salt: plan.salt,
      image: plan.image,
      metadata: JSON.stringify(plan.metadata),
      context: JSON.stringify(plan.context),
      originatingChainId: BigInt(plan.chainId),
    },
    poolConfig: {
      hook,
      pairedToken: getAddress(plan.pairedToken),
      tickIfToken0IsClanker: plan.startingTick,
      tickSpacing: TICK_SPACING,
      poolData: encodePoolData(plan.fees, plan.poolExtension),
    },
    lockerConfig: {
      locker: contract(plan.chainId, contracts, "locker"),
      rewardAdmins: plan.rewards.map((r) => getAddress(r.admin)),
      rewardRecipients: plan.rewards.map((r) => getAddress(r.recipient)),
      rewardBps: plan.rewards.map((r) => r.bps),
      tickLower: plan.positions.map((p) => p.tickLower),
      tickUpper: plan.positions.map((p) => p.tickUpper),
      positionBps: plan.positions.map((p) => p.positionBps),
      lockerData: encodeLockerData(plan.rewards),
    },
    mevModuleConfig: {
      mevModule: contract(plan.chainId, contracts, "mevModule"),
      mevModuleData: encodeMevModuleData(plan.sniperFees),
    },
    extensionConfigs: plan.extensions.map((e) => extensionConfig(plan.chainId, contracts, e)),
  };
}

/** Platform names for plain social URLs (metadata's socialMediaUrls are {platform, url} objects). */
export function socialLink(entry: string | { platform: string; url: string }): { platform: string; url: string } {
  if (typeof entry !== "string") return entry;
  let host = "";
  try {
    host = new URL(entry).hostname.replace(/^www\./, "").toLowerCase();
  } catch {
    // validated upstream; an unparsable URL simply gets no platform name
  }
  const known: Record<string, string> = {
    "x.com": "x",
    "twitter.com": "x",
    "t.me": "telegram",
    "warpcast.com": "farcaster",
    "farcaster.xyz": "farcaster",
    "discord.gg": "discord",
    "discord.com": "discord",
    "github.com": "github",
  };
  return { platform: known[host] ?? "website", url: entry };
}
