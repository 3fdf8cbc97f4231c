// One DeploymentConfig builder for every shape and for pretokens: a chain-independent plan (what the
// request means, in the chain's units) becomes the factory call, with the chain's contract addresses.
import { encodeAbiParameters, getAddress, type Address, type Hex } from "viem";
import { chainSettings, ChainUnavailableError, type ChainContracts, type DeploymentConfig } from "@/lib/platform/chain";
import { TICK_SPACING } from "./tick";

export type Position = { tickLower: number; tickUpper: number; positionBps: number };
export type RewardEntry = { admin: Address; recipient: Address; bps: number };
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

export function encodeFeeData(fees: FeePlan): Hex {
  if (fees.type === "static") {
    return encodeAbiParameters([{ type: "uint24" }, { type: "uint24" }], [fees.tokenFee, fees.pairedFee]);
  }
  const d = DYNAMIC_FEE_DEFAULTS;
  return encodeAbiParameters(
    [
      { type: "uint24" },
      { type: "uint24" },
      { type: "uint256" },
      { type: "uint256" },
      { type: "int24" },
      { type: "uint256" },
      { type: "uint24" },
    ],
    [
      fees.baseFee,
      fees.maxLpFee,
      d.referenceTickFilterPeriod,
      d.resetPeriod,
      d.resetTickFilter,
      d.feeControlNumerator,
      d.decayFilterBps,
    ],
  );
}

function contract(chainId: number, contracts: ChainContracts, key: keyof ChainContracts, env: string): Address {
  const address = contracts[key];
  if (!address)
    throw new ChainUnavailableError(chainId, "not_configured", `no ${key} configured (set ${env}_${chainId})`);
  return address;
}

function extensionConfig(
  chainId: number,
  contracts: ChainContracts,
  e: ExtensionPlan,
): DeploymentConfig["extensionConfigs"][number] {
  if (e.kind === "vault") {
    return {
      extension: contract(chainId, contracts, "vault", "VAULT_ADDRESS"),
      msgValue: 0n,
      extensionBps: e.bps,
      extensionData: encodeAbiParameters(
        [{ type: "address" }, { type: "uint256" }, { type: "uint256" }],
        [getAddress(e.admin), e.lockupSeconds, e.vestingSeconds],
      ),
    };
  }
  return {
    extension: contract(chainId, contracts, "airdrop", "AIRDROP_ADDRESS"),
    msgValue: 0n,
    extensionBps: e.bps,
    extensionData: encodeAbiParameters(
      [{ type: "address" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint256" }],
      [getAddress(e.admin), e.merkleRoot, e.lockupSeconds, e.vestingSeconds],
    ),
  };
}

/** The factory call for a plan on its chain. Missing contract addresses are a 503 (not configured). */
export function buildDeploymentConfig(plan: DeploymentPlan): DeploymentConfig {
  const { contracts } = chainSettings(plan.chainId);
  const hook =
    plan.fees.type === "static"
      ? contract(plan.chainId, contracts, "staticFeeHook", "STATIC_FEE_HOOK_ADDRESS")
      : contract(plan.chainId, contracts, "dynamicFeeHook", "DYNAMIC_FEE_HOOK_ADDRESS");
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
      poolData: encodeFeeData(plan.fees),
    },
    lockerConfig: {
      locker: contract(plan.chainId, contracts, "locker", "LOCKER_ADDRESS"),
      rewardAdmins: plan.rewards.map((r) => getAddress(r.admin)),
      rewardRecipients: plan.rewards.map((r) => getAddress(r.recipient)),
      rewardBps: plan.rewards.map((r) => r.bps),
      tickLower: plan.positions.map((p) => p.tickLower),
      tickUpper: plan.positions.map((p) => p.tickUpper),
      positionBps: plan.positions.map((p) => p.positionBps),
      lockerData: "0x",
    },
    // No MEV module configured: the factory accepts the zero address (no sniper protection).
    mevModuleConfig: {
      mevModule: contracts.mevModule ?? "0x0000000000000000000000000000000000000000",
      mevModuleData: "0x",
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
