// Each request shape to one DeploymentPlan (docs/token-deploy.md "Deploy mapping" lists it field by field): percents to
// bps and fee millionths exactly, market cap to tick, pool type to positions, vault and airdrop to extensions, and
// the legacy reward split (creator c%, interface 80 - c%, platform 20%) to reward recipients.
import type { Address, Hex } from "viem";
import { badRequest } from "@/lib/core/errors";
import type { DeploymentPlan, ExtensionPlan, FeePlan, Position, RewardEntry } from "./config";
import { PROJECT_POSITIONS, SNIPER_FEE_DEFAULTS, socialLink } from "./config";
import { pairedTokenInfo, quoteTokenBySymbol, wethOf } from "./quote-tokens";
import type { DeployLegacyBody, DeploySplitBody, DeployV4Body, ParsedDeploy } from "./shapes";
import { DEFAULT_TICK, DEFAULT_UPPER_TICK, marketCapToTick, standardUpperTick } from "./tick";
import { airdropBps, percentToBps, percentToMillionths } from "./units";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

export type MappingContext = {
  partnerName: string;
  salt: Hex;
  /** Interface share of legacy shapes; null: it goes to the platform recipient. */
  partnerRewardAddress: Address | null;
  /** Platform share of legacy shapes (unused by 4.0.0, whose rewards are given in full). */
  platformRewardAddress: Address | null;
  /** ms; legacy vault unlock timestamps become lockups relative to it. */
  now: number;
};

const bps = (percent: number) => Number(percentToBps(percent)!);
const millionths = (percent: number) => Number(percentToMillionths(percent)!);
const fail = (path: string, message: string) => badRequest(`${path}: ${message}`, [{ in: "body", path, message }]);

export type PoolRequest = {
  type: "standard" | "project";
  pairedToken?: Address;
  marketCap?: number;
  paths: { pairedToken: string; marketCap: string };
};
export type PoolPlan = { pairedToken: Address; startingTick: number; positions: Position[] };

/** Pool type to positions; market cap (in whole paired tokens) to the spaced starting tick. */
export async function planPool(chainId: number, request: PoolRequest): Promise<PoolPlan> {
  const weth = wethOf(chainId);
  if (request.type === "project") {
    if (!weth)
      throw fail(request.paths.pairedToken, `no WETH is configured on chain ${chainId} (set WETH_ADDRESS_${chainId})`);
    return { pairedToken: weth, startingTick: DEFAULT_TICK, positions: PROJECT_POSITIONS };
  }
  const paired = request.pairedToken ?? weth;
  if (!paired) throw fail(request.paths.pairedToken, `is required: no WETH is configured on chain ${chainId}`);
  const info = await pairedTokenInfo(chainId, paired);
  if (!info) throw fail(request.paths.pairedToken, `${paired} is not an ERC-20 token on chain ${chainId}`);
  const cap = request.marketCap ?? info.defaultMarketCap;
  // The platform's SDK and API start any paired token without a market cap at its WETH default, in one
  // position up to -120000 whatever the paired token's decimals.
  if (cap === null)
    return {
      pairedToken: paired,
      startingTick: DEFAULT_TICK,
      positions: [{ tickLower: DEFAULT_TICK, tickUpper: DEFAULT_UPPER_TICK, positionBps: 10_000 }],
    };
  const tick = marketCapToTick(cap, info.decimals);
  const upper = standardUpperTick(info.decimals);
  if (tick === null) throw fail(request.paths.marketCap, "is outside what a pool can price");
  if (tick >= upper)
    throw fail(
      request.paths.marketCap,
      `is too high: the starting tick ${tick} must be below the position's upper tick ${upper}`,
    );
  return {
    pairedToken: paired,
    startingTick: tick,
    positions: [{ tickLower: tick, tickUpper: upper, positionBps: 10_000 }],
  };
}

export function planV4Fees(fees: DeployV4Body["fees"]): FeePlan {
  if (fees?.type === "dynamic")
    return { type: "dynamic", baseFee: millionths(fees.baseFee ?? 0.5), maxLpFee: millionths(fees.maxLpFee ?? 5) };
  return { type: "static", tokenFee: millionths(fees?.tokenFee ?? 1), pairedFee: millionths(fees?.pairedFee ?? 1) };
}

/** Same (admin, recipient, rewardsToken) entries merged, zero entries dropped, order kept. */
export function mergeRewards(entries: RewardEntry[]): RewardEntry[] {
  const out: RewardEntry[] = [];
  for (const e of entries) {
    if (e.bps === 0) continue;
    const same = out.find(
      (o) => o.admin === e.admin && o.recipient === e.recipient && o.rewardsToken === e.rewardsToken,
    );
    if (same) same.bps += e.bps;
    else out.push({ ...e });
  }
  return out;
}

function v4Extensions(body: DeployV4Body): ExtensionPlan[] {
  const admin = body.token.tokenAdmin;
  const extensions: ExtensionPlan[] = [];
  if (body.vault?.percentage) {
    extensions.push({
      kind: "vault",
      bps: bps(body.vault.percentage),
      admin: body.vault.recipient ?? admin,
      lockupSeconds: BigInt(body.vault.lockupDuration!),
      vestingSeconds: BigInt(body.vault.vestingDuration ?? 0),
    });
  }
  if (body.airdrop) {
    extensions.push({
      kind: "airdrop",
      bps: Number(airdropBps(body.airdrop.amount)),
      admin: body.airdrop.admin ?? admin,
      merkleRoot: body.airdrop.merkleRoot,
      lockupSeconds: BigInt(body.airdrop.lockupDuration),
      vestingSeconds: BigInt(body.airdrop.vestingDuration ?? 0),
    });
  }
  return extensions;
}

async function mapV4(body: DeployV4Body, ctx: MappingContext): Promise<DeploymentPlan> {
  const chainId = body.chainId ?? DEFAULT_CHAIN_ID;
  const t = body.token;
  const pool = await planPool(chainId, {
    type: body.pool?.type ?? "standard",
    pairedToken: body.pool?.pairedToken,
    marketCap: body.pool?.initialMarketCap,
    paths: { pairedToken: "pool.pairedToken", marketCap: "pool.initialMarketCap" },
  });
  const rewards = body.rewards ?? [{ admin: t.tokenAdmin, recipient: t.tokenAdmin, allocation: 100 }];
  const context = body.context ?? {};
  return {
    chainId,
    tokenAdmin: t.tokenAdmin,
    name: t.name,
    symbol: t.symbol,
    image: t.image ?? "",
    metadata: {
      description: t.description ?? "",
      socialMediaUrls: (t.socialMediaUrls ?? []).map(socialLink),
      auditUrls: t.auditUrls ?? [],
    },
    context: {
      interface: context.interface || ctx.partnerName,
      platform: context.platform ?? "",
      messageId: context.messageId ?? "",
      id: context.id === undefined ? "" : String(context.id),
    },
    salt: ctx.salt,
    ...pool,
    fees: planV4Fees(body.fees),
    rewards: rewards.map((r) => ({
      admin: r.admin,
      recipient: r.recipient,
      bps: bps(r.allocation),
      rewardsToken: r.rewardsToken ?? "Both",
    })),
    extensions: v4Extensions(body),
    sniperFees: { ...SNIPER_FEE_DEFAULTS, ...body.sniperFees },
  };
}

/** 0.3.x and 3.1.0: creator c% (split over the group on /split), interface 80 - c%, platform 20%. */
function legacyRewards(
  body: DeployLegacyBody | DeploySplitBody,
  ctx: MappingContext,
  rewardAdmin: Address,
): RewardEntry[] {
  const creatorBps = bps(body.creatorRewardsPercentage ?? 40);
  const group = "groupAddresses" in body ? body.groupAddresses : null;
  const creator: RewardEntry[] = group
    ? group.map((m) => ({
        admin: m.address,
        recipient: m.address,
        bps: (creatorBps * bps(m.allocation)) / 10_000,
        rewardsToken: "Both" as const,
      }))
    : [{ admin: rewardAdmin, recipient: body.requestorAddress, bps: creatorBps, rewardsToken: "Both" as const }];
  const platform = ctx.platformRewardAddress;
  if (!platform) throw new Error("legacy deployments need the platform reward address");
  const iface = ctx.partnerRewardAddress ?? platform;
  return mergeRewards([
    ...creator,
    { admin: iface, recipient: iface, bps: 8_000 - creatorBps, rewardsToken: "Both" },
    { admin: platform, recipient: platform, bps: 2_000, rewardsToken: "Both" },
  ]);
}

async function mapLegacy(body: DeployLegacyBody | DeploySplitBody, ctx: MappingContext): Promise<DeploymentPlan> {
  const chainId = DEFAULT_CHAIN_ID;
  const rewardAdmin = body.creatorRewardsAdmin ?? body.requestorAddress;
  const tokenAdmin = ("creatorAdmin" in body ? body.creatorAdmin : undefined) ?? rewardAdmin;
  const quote = body.tokenPair ? quoteTokenBySymbol(chainId, body.tokenPair) : undefined;
  const pool = await planPool(chainId, {
    type: "standard",
    pairedToken: quote?.address,
    marketCap: body.initialMarketCap,
    paths: { pairedToken: "tokenPair", marketCap: "initialMarketCap" },
  });
  const nowSeconds = Math.floor(ctx.now / 1000);
  const extensions: ExtensionPlan[] =
    body.vaultPercentage && body.vaultUnlockTimestamp
      ? [
          {
            kind: "vault",
            bps: bps(body.vaultPercentage),
            admin: tokenAdmin,
            lockupSeconds: BigInt(body.vaultUnlockTimestamp - nowSeconds),
            vestingSeconds: 0n,
          },
        ]
      : [];
  const fid = body.requestorFid;
  const id = body.requestorId ?? fid;
  return {
    chainId,
    tokenAdmin,
    name: body.name,
    symbol: body.symbol,
    image: body.image,
    metadata: {
      description: body.description ?? "",
      socialMediaUrls: (body.socialMediaUrls ?? []).map(socialLink),
      auditUrls: [],
    },
    context: {
      interface: ctx.partnerName,
      platform: body.platform ?? (fid !== undefined ? "farcaster" : ""),
      messageId: body.messageId ?? body.castHash ?? "",
      id: id === undefined ? "" : String(id),
    },
    salt: ctx.salt,
    ...pool,
    // The legacy API's pools charged a flat 1%: the nearest current fee is static 1% on both inputs.
    fees: { type: "static", tokenFee: 10_000, pairedFee: 10_000 },
    rewards: legacyRewards(body, ctx, rewardAdmin),
    extensions,
    sniperFees: SNIPER_FEE_DEFAULTS,
  };
}

export function planDeployment(parsed: ParsedDeploy, ctx: MappingContext): Promise<DeploymentPlan> {
  return parsed.shape === "4.0.0" ? mapV4(parsed.body, ctx) : mapLegacy(parsed.body, ctx);
}
