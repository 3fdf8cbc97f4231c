// The deploy call equals the platform's own SDK's (clanker-sdk's getDeployTransaction, run offline with an explicit
// salt) for the equivalent SDK configuration, field by field: every shape, every option a body can express, on
// each chain whose SDK entry is the v4.1 generation. The bytes members are compared decoded too, so a difference
// reads as the member that differs.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Clanker } from "clanker-sdk/v4";
import { decodeAbiParameters, getAddress, zeroAddress, type Address, type Hex } from "viem";
import { resetConfig } from "@/lib/core/config";
import type { DeploymentConfig } from "@/lib/platform/chain";
import {
  airdropDataParams,
  dynamicFeeDataParams,
  lockerFeeConversionDataParams,
  poolInitializationDataParams,
  sniperAuctionDataParams,
  staticFeeDataParams,
  vaultDataParams,
} from "@/lib/platform/chain/abis";
import { CONTRACT_ENV, PRODUCTION_DEFAULTS } from "@/lib/platform/chain/settings";
import { buildDeploymentConfig, PROJECT_POSITIONS, type PoolExtension } from "@/lib/domains/launch/deploy/config";
import { planDeployment, type MappingContext } from "@/lib/domains/launch/deploy/mapping";
import { deploySalt } from "@/lib/domains/launch/deploy/salt";
import { parseDeployBody } from "@/lib/domains/launch/deploy/shapes";
import type { DeployShape } from "@/db/tables/deploy";

const A = getAddress("0x1111111111111111111111111111111111111111");
const B = getAddress("0x2222222222222222222222222222222222222222");
const C = getAddress("0x3333333333333333333333333333333333333333");
const P = getAddress("0x5555555555555555555555555555555555555555"); // the partner's reward address
const F = getAddress("0x6666666666666666666666666666666666666666"); // the platform's reward address
const USDC = getAddress("0x833589fcd6edb6e08f4c7c32d4f71b54bda02913");
const ROOT: Hex = `0x${"ab".repeat(32)}`;
const KEY = "sdk-parity-request-key-000000001";
const NOW = Date.UTC(2026, 0, 1);
const SALT = deploySalt(7, KEY);
const DAY = 86_400;
const CHAINS = [8453, 56, 1, 143, 4663];

const ctx: MappingContext = {
  partnerName: "Partner",
  salt: SALT,
  partnerRewardAddress: P,
  platformRewardAddress: F,
  now: NOW,
};

/** What the service writes for a body without metadata or context: the same, spelled out for the SDK. */
const EMPTY_METADATA = { description: "", socialMediaUrls: [], auditUrls: [] };
const partnerContext = (over: Record<string, string> = {}) => ({
  interface: "Partner",
  platform: "",
  messageId: "",
  id: "",
  ...over,
});
const token = (extra: Record<string, unknown> = {}) => ({
  name: "Parity",
  symbol: "PAR",
  tokenAdmin: A,
  requestKey: KEY,
  ...extra,
});
/** The SDK's configuration for the same token: name, symbol, admin, salt, metadata and context as the service fills them. */
const sdkToken = (extra: Record<string, unknown> = {}) => ({
  name: "Parity",
  symbol: "PAR",
  tokenAdmin: A,
  salt: SALT,
  image: "",
  metadata: EMPTY_METADATA,
  context: partnerContext(),
  ...extra,
});
const recipients = (...entries: (readonly [Address, Address, number, "Both" | "Paired" | "Clanker"])[]) => ({
  recipients: entries.map(([admin, recipient, bps, token]) => ({ admin, recipient, bps, token })),
});
/** A standard pool's starting tick from its market cap (float; away from tick boundaries it is exact). */
const floatTick = (marketCap: number, decimals: number) =>
  Math.floor(Math.log((marketCap * 10 ** decimals) / 1e29) / Math.log(1.0001) / 200) * 200;
const upperTick = (decimals: number) =>
  -120_000 + Math.round(((decimals - 18) * Math.log(10)) / Math.log(1.0001) / 200) * 200;
const standardPool = (tick: number, pairedToken: string = "WETH", decimals = 18) => ({
  pairedToken,
  tickIfToken0IsClanker: tick,
  positions: [{ tickLower: tick, tickUpper: upperTick(decimals), positionBps: 10_000 }],
});

type Case = {
  name: string;
  shape: DeployShape;
  body: Record<string, unknown>;
  sdk: Record<string, unknown>;
  /** Set on the plan (no body member carries one). */
  poolExtension?: PoolExtension;
};

const v4 = (name: string, body: Record<string, unknown>, sdk: Record<string, unknown>, extra: Partial<Case> = {}) => ({
  name,
  shape: "4.0.0" as const,
  body: { token: token(), ...body },
  sdk: sdkToken(sdk),
  ...extra,
});

const legacyBody = (extra: Record<string, unknown> = {}) => ({
  name: "Parity",
  symbol: "PAR",
  image: "https://example.com/p.png",
  requestorAddress: B,
  requestKey: KEY,
  ...extra,
});

const CASES: Case[] = [
  v4("defaults: no rewards (the admin takes all, both tokens), static 1%, WETH at -230400", {}, {}),
  v4(
    "token metadata and image",
    {
      token: token({
        image: "ipfs://bafy/p.png",
        description: "about",
        socialMediaUrls: ["https://x.com/p", { platform: "telegram", url: "https://t.me/p" }],
        auditUrls: ["https://audit.example/p"],
      }),
    },
    {
      image: "ipfs://bafy/p.png",
      metadata: {
        description: "about",
        socialMediaUrls: [
          { platform: "x", url: "https://x.com/p" },
          { platform: "telegram", url: "https://t.me/p" },
        ],
        auditUrls: ["https://audit.example/p"],
      },
    },
  ),
  v4(
    "static fees 0.5% / 2.25%",
    { fees: { type: "static", tokenFee: 0.5, pairedFee: 2.25 } },
    { fees: { type: "static", clankerFee: 50, pairedFee: 225 } },
  ),
  v4(
    "static fees 0% / 5%",
    { fees: { tokenFee: 0, pairedFee: 5 } },
    { fees: { type: "static", clankerFee: 0, pairedFee: 500 } },
  ),
  v4("dynamic fees, defaults 0.5% to 5%", { fees: { type: "dynamic" } }, { fees: dynamic(50, 500) }),
  v4("dynamic fees 0.25% to 3%", { fees: { type: "dynamic", baseFee: 0.25, maxLpFee: 3 } }, { fees: dynamic(25, 300) }),
  v4(
    "vault 15%, a week's lockup, a day's vesting",
    { vault: { percentage: 15, lockupDuration: 604_800, vestingDuration: DAY } },
    { vault: { percentage: 15, lockupDuration: 604_800, vestingDuration: DAY } },
  ),
  v4(
    'the SDK\'s own spellings of its defaults: image "", pairedToken "WETH", a vault without vestingDuration',
    {
      token: token({ image: "" }),
      pool: { pairedToken: "weth" },
      vault: { percentage: 15, lockupDuration: 604_800 },
    },
    { image: "", vault: { percentage: 15, lockupDuration: 604_800 } }, // the SDK pairs with WETH by default
  ),
  v4("a vault of 0%: no vault", { vault: { percentage: 0 } }, {}),
  v4(
    "vault with its own recipient",
    { vault: { percentage: 90, lockupDuration: 30 * DAY, vestingDuration: 0, recipient: C } },
    { vault: { percentage: 90, lockupDuration: 30 * DAY, vestingDuration: 0, recipient: C } },
  ),
  v4(
    "airdrop of the minimum (25 bps) with its own admin",
    { airdrop: { admin: B, merkleRoot: ROOT, lockupDuration: DAY, amount: 250_000_000 } },
    { airdrop: { admin: B, merkleRoot: ROOT, lockupDuration: DAY, amount: 250_000_000 } },
  ),
  v4(
    "airdrop of an amount between basis points (rounded up), with vesting",
    { airdrop: { merkleRoot: ROOT, lockupDuration: 2 * DAY, vestingDuration: 7 * DAY, amount: 1_234_567_890 } },
    { airdrop: { merkleRoot: ROOT, lockupDuration: 2 * DAY, vestingDuration: 7 * DAY, amount: 1_234_567_890 } },
  ),
  v4(
    "vault and airdrop together",
    {
      vault: { percentage: 40, lockupDuration: 604_800, vestingDuration: 0 },
      airdrop: { merkleRoot: ROOT, lockupDuration: DAY, amount: 50_000_000_000 },
    },
    {
      vault: { percentage: 40, lockupDuration: 604_800, vestingDuration: 0 },
      airdrop: { merkleRoot: ROOT, lockupDuration: DAY, amount: 50_000_000_000 },
    },
  ),
  v4(
    "one recipient taking the paired token",
    { rewards: [{ admin: A, recipient: B, allocation: 100, rewardsToken: "Paired" }] },
    { rewards: recipients([A, B, 10_000, "Paired"]) },
  ),
  v4(
    "three recipients, one of each rewardsToken",
    {
      rewards: [
        { admin: A, recipient: A, allocation: 50 },
        { admin: B, recipient: B, allocation: 30, rewardsToken: "Paired" },
        { admin: A, recipient: C, allocation: 20, rewardsToken: "Clanker" },
      ],
    },
    { rewards: recipients([A, A, 5_000, "Both"], [B, B, 3_000, "Paired"], [A, C, 2_000, "Clanker"]) },
  ),
  v4(
    "seven recipients",
    {
      rewards: [A, B, C, P, F, A, B].map((r, i) => ({
        admin: A,
        recipient: r,
        allocation: i === 0 ? 40 : 10,
        rewardsToken: (["Both", "Paired", "Clanker"] as const)[i % 3],
      })),
    },
    {
      rewards: recipients(
        ...[A, B, C, P, F, A, B].map(
          (r, i) => [A, r, i === 0 ? 4_000 : 1_000, (["Both", "Paired", "Clanker"] as const)[i % 3]!] as const,
        ),
      ),
    },
  ),
  v4("20 WETH market cap", { pool: { initialMarketCap: 20 } }, { pool: standardPool(-223_400) }),
  v4(
    "project pool: the five preset positions",
    { pool: { type: "project" } },
    { pool: { pairedToken: "WETH", tickIfToken0IsClanker: -230_400, positions: PROJECT_POSITIONS } },
  ),
  v4(
    "custom paired token (6 decimals) at 30,000",
    { pool: { pairedToken: USDC, initialMarketCap: 30_000 } },
    { pool: standardPool(floatTick(30_000, 6), USDC, 6) },
  ),
  v4(
    "sniper fees",
    { sniperFees: { startingFee: 800_000, endingFee: 30_000, secondsToDecay: 120 } },
    { sniperFees: { startingFee: 800_000, endingFee: 30_000, secondsToDecay: 120 } },
  ),
  v4(
    "sniper fees in part",
    { sniperFees: { secondsToDecay: 1 } },
    { sniperFees: { startingFee: 666_777, endingFee: 41_673, secondsToDecay: 1 } },
  ),
  v4(
    "social context",
    { context: { interface: "Bot", platform: "farcaster", messageId: "0xcafe", id: 99 } },
    { context: { interface: "Bot", platform: "farcaster", messageId: "0xcafe", id: "99" } },
  ),
  v4(
    "every option at once",
    {
      token: token({ image: "https://example.com/p.png", description: "all" }),
      rewards: [
        { admin: A, recipient: A, allocation: 75, rewardsToken: "Clanker" },
        { admin: B, recipient: C, allocation: 25, rewardsToken: "Paired" },
      ],
      pool: { type: "standard", initialMarketCap: 1 },
      fees: { type: "dynamic", baseFee: 1, maxLpFee: 5 },
      vault: { percentage: 10, lockupDuration: 604_800, vestingDuration: 604_800 },
      airdrop: { admin: C, merkleRoot: ROOT, lockupDuration: DAY, amount: 10_000_000_000 },
      context: { platform: "x", messageId: "123", id: "abc" },
      sniperFees: { startingFee: 500_000, endingFee: 100_000, secondsToDecay: 30 },
      chainId: 8453,
    },
    {
      image: "https://example.com/p.png",
      metadata: { ...EMPTY_METADATA, description: "all" },
      context: partnerContext({ platform: "x", messageId: "123", id: "abc" }),
      rewards: recipients([A, A, 7_500, "Clanker"], [B, C, 2_500, "Paired"]),
      pool: standardPool(-253_400),
      fees: dynamic(100, 500),
      vault: { percentage: 10, lockupDuration: 604_800, vestingDuration: 604_800 },
      airdrop: { admin: C, merkleRoot: ROOT, lockupDuration: DAY, amount: 10_000_000_000 },
      sniperFees: { startingFee: 500_000, endingFee: 100_000, secondsToDecay: 30 },
      chainId: 8453,
    },
  ),
  v4(
    "a pool extension (set on the plan: no body member carries one)",
    {},
    { poolExtension: { address: C, initData: "0xdeadbeef" } },
    { poolExtension: { address: C, initData: "0xdeadbeef" } },
  ),
  v4(
    "BNB Smart Chain, dynamic fees (paired with WBNB)",
    { chainId: 56, fees: { type: "dynamic" } },
    {
      chainId: 56,
      fees: dynamic(50, 500),
    },
  ),
  v4(
    "Ethereum, static fees, vault",
    { chainId: 1, vault: { percentage: 5, lockupDuration: 604_800, vestingDuration: 0 } },
    {
      chainId: 1,
      vault: { percentage: 5, lockupDuration: 604_800, vestingDuration: 0 },
    },
  ),
  v4(
    "Monad (paired with WMON), airdrop",
    { chainId: 143, airdrop: { merkleRoot: ROOT, lockupDuration: DAY, amount: 1e9 } },
    {
      chainId: 143,
      airdrop: { merkleRoot: ROOT, lockupDuration: DAY, amount: 1e9 },
    },
  ),
  v4(
    "Robinhood Chain (descending-fees MEV module), dynamic fees, sniper fees",
    {
      chainId: 4663,
      fees: { type: "dynamic", baseFee: 2 },
      sniperFees: { startingFee: 300_000, endingFee: 50_000, secondsToDecay: 60 },
    },
    {
      chainId: 4663,
      fees: dynamic(200, 500),
      sniperFees: { startingFee: 300_000, endingFee: 50_000, secondsToDecay: 60 },
    },
  ),
  {
    name: "0.3.0: creator 40%, interface 40%, platform 20%",
    shape: "0.3.0",
    body: legacyBody(),
    sdk: sdkToken({
      tokenAdmin: B,
      image: "https://example.com/p.png",
      metadata: EMPTY_METADATA,
      rewards: recipients([B, B, 4_000, "Both"], [P, P, 4_000, "Both"], [F, F, 2_000, "Both"]),
    }),
  },
  {
    name: "0.3.1: every field (vault from its unlock time, social context, 1 WETH market cap)",
    shape: "0.3.1",
    body: legacyBody({
      creatorRewardsPercentage: 80,
      creatorRewardsAdmin: C,
      requestorFid: 42,
      castHash: "0xcast",
      description: "legacy",
      socialMediaUrls: ["https://x.com/legacy"],
      vaultPercentage: 20,
      vaultUnlockTimestamp: NOW / 1000 + 31 * DAY,
      initialMarketCap: 1,
    }),
    sdk: sdkToken({
      tokenAdmin: C,
      image: "https://example.com/p.png",
      metadata: {
        description: "legacy",
        socialMediaUrls: [{ platform: "x", url: "https://x.com/legacy" }],
        auditUrls: [],
      },
      context: partnerContext({ platform: "farcaster", messageId: "0xcast", id: "42" }),
      rewards: recipients([C, B, 8_000, "Both"], [F, F, 2_000, "Both"]),
      pool: standardPool(-253_400),
      vault: { percentage: 20, lockupDuration: 31 * DAY, vestingDuration: 0 },
    }),
  },
  {
    name: "0.3.1: paired with a configured quote token at its default market cap",
    shape: "0.3.1",
    body: legacyBody({ tokenPair: "USDC", creatorRewardsPercentage: 0 }),
    sdk: sdkToken({
      tokenAdmin: B,
      image: "https://example.com/p.png",
      rewards: recipients([P, P, 8_000, "Both"], [F, F, 2_000, "Both"]),
      pool: standardPool(floatTick(30_000, 6), USDC, 6),
    }),
  },
  {
    name: "3.1.0: the creator share split over the group",
    shape: "3.1.0",
    body: legacyBody({
      creatorAdmin: A,
      creatorRewardsPercentage: 50,
      groupAddresses: [
        { address: A, allocation: 60 },
        { address: C, allocation: 40 },
      ],
    }),
    sdk: sdkToken({
      tokenAdmin: A,
      image: "https://example.com/p.png",
      rewards: recipients([A, A, 3_000, "Both"], [C, C, 2_000, "Both"], [P, P, 3_000, "Both"], [F, F, 2_000, "Both"]),
    }),
  },
];

function dynamic(baseFee: number, maxFee: number) {
  return {
    type: "dynamic",
    baseFee,
    maxFee,
    referenceTickFilterPeriod: 30,
    resetPeriod: 120,
    resetTickFilter: 200,
    feeControlNumerator: 500_000_000,
    decayFilterBps: 7_500,
  };
}

/** Every address checksummed (the SDK's table spells some in lowercase), so the comparison is of values. */
function normalized<T>(value: T): T {
  if (typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value)) return getAddress(value) as T;
  if (Array.isArray(value)) return value.map(normalized) as T;
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalized(v)])) as T;
  return value;
}

/** The bytes members decoded, by the contract that reads each. */
function decoded(config: DeploymentConfig, dynamicFees: boolean) {
  const [pool] = decodeAbiParameters(poolInitializationDataParams, config.poolConfig.poolData);
  return normalized({
    pool: {
      ...pool,
      feeData: decodeAbiParameters(dynamicFees ? dynamicFeeDataParams : staticFeeDataParams, pool.feeData),
    },
    locker: decodeAbiParameters(lockerFeeConversionDataParams, config.lockerConfig.lockerData),
    mevModule: decodeAbiParameters(sniperAuctionDataParams, config.mevModuleConfig.mevModuleData),
    extensions: config.extensionConfigs.map((e) =>
      decodeAbiParameters(e.extensionData.length === 2 + 64 * 4 ? airdropDataParams : vaultDataParams, e.extensionData),
    ),
  });
}

beforeAll(() => {
  // The production table, whatever the environment says; the chains' RPCs "configured" so chainId validates.
  for (const chainId of CHAINS) {
    for (const prefix of Object.values(CONTRACT_ENV)) vi.stubEnv(`${prefix}_${chainId}`, "");
    vi.stubEnv(`RPC_URL_${chainId}`, "http://127.0.0.1:9");
  }
  vi.stubEnv("DEPLOY_QUOTE_TOKENS", `8453:USDC:${USDC}:6:30000`);
  resetConfig();
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

describe("the deploy call equals the platform SDK's for the same configuration", () => {
  it("covers at least 20 configurations, every chain of the table with a sniper auction", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    expect(new Set(CASES.map((c) => (c.body.chainId as number | undefined) ?? 8453))).toEqual(new Set(CHAINS));
    for (const chainId of CHAINS) expect(PRODUCTION_DEFAULTS[chainId]?.mevModule).toBeDefined();
  });

  it.each(CASES)("$shape: $name", async ({ shape, body, sdk, poolExtension }) => {
    const plan = await planDeployment(parseDeployBody(shape, body, NOW), ctx);
    const service = buildDeploymentConfig({ ...plan, poolExtension });
    const reference = await new Clanker().getDeployTransaction(sdk as never);
    const theirs = normalized(reference.args[0] as DeploymentConfig);
    const ours = normalized(service);

    expect(reference.value).toBe(0n);
    expect(ours.tokenConfig).toEqual(theirs.tokenConfig);
    expect(ours.poolConfig).toEqual(theirs.poolConfig);
    expect(ours.mevModuleConfig.mevModule).toBe(theirs.mevModuleConfig.mevModule);
    const dynamicFees = plan.fees.type === "dynamic";
    expect(decoded(service, dynamicFees)).toEqual(decoded(theirs, dynamicFees));
    expect(ours).toEqual(theirs);
    // What it is, not only that both agree: the v4.1 contracts of the chain.
    expect(ours.poolConfig.hook).toBe(
      PRODUCTION_DEFAULTS[plan.chainId]![dynamicFees ? "dynamicFeeHook" : "staticFeeHook"],
    );
    expect(ours.lockerConfig.locker).toBe(PRODUCTION_DEFAULTS[plan.chainId]!.locker);
    expect(ours.mevModuleConfig.mevModule).toBe(PRODUCTION_DEFAULTS[plan.chainId]!.mevModule);
    expect(decoded(service, dynamicFees).pool.extension).toBe(poolExtension?.address ?? zeroAddress);
  });
});
