// Each shape's DeploymentPlan and the factory call it becomes (docs/token-deploy.md "Deploy mapping", field by field).
import { describe, expect, it } from "vitest";
import { decodeAbiParameters, zeroAddress, type Address, type Hex } from "viem";
import { chainSettings } from "@/lib/platform/chain";
import {
  dynamicFeeDataParams,
  lockerFeeConversionDataParams,
  poolInitializationDataParams,
  sniperAuctionDataParams,
  staticFeeDataParams,
  vaultDataParams,
} from "@/lib/platform/chain/abis";
import { buildDeploymentConfig, PROJECT_POSITIONS } from "@/lib/domains/launch/deploy/config";
import { planDeployment, type MappingContext } from "@/lib/domains/launch/deploy/mapping";
import { bodyHash, canonicalJson, deploySalt } from "@/lib/domains/launch/deploy/salt";
import { parseDeployBody } from "@/lib/domains/launch/deploy/shapes";

const A = "0x1111111111111111111111111111111111111111" as Address;
const B = "0x2222222222222222222222222222222222222222" as Address;
const P = "0x3333333333333333333333333333333333333333" as Address; // partner reward address
const F = "0x4444444444444444444444444444444444444444" as Address; // platform
const WETH = "0x4200000000000000000000000000000000000006";
const KEY = "k".repeat(32);
const NOW = Date.UTC(2026, 0, 1);
const SALT = deploySalt(7, KEY);

const ctx = (over: Partial<MappingContext> = {}): MappingContext => ({
  partnerName: "Partner",
  salt: SALT,
  partnerRewardAddress: P,
  platformRewardAddress: F,
  now: NOW,
  ...over,
});
const plan = (shape: "4.0.0" | "0.3.1" | "3.1.0", body: object, c = ctx()) =>
  planDeployment(parseDeployBody(shape, body, NOW), c);
const legacy = (extra: object = {}) => ({
  name: "Legacy",
  symbol: "LEG",
  image: "https://e.com/i.png",
  requestorAddress: A,
  requestKey: KEY,
  ...extra,
});

describe("4.0.0", () => {
  it("defaults: WETH pool at tick -230400 with one position, static 1%/1%, rewards as given, no extensions", async () => {
    const p = await plan("4.0.0", {
      token: { name: "N", symbol: "S", tokenAdmin: A, requestKey: KEY },
      rewards: [{ admin: A, recipient: B, allocation: 100 }],
    });
    expect(p).toEqual({
      chainId: 8453,
      tokenAdmin: A,
      name: "N",
      symbol: "S",
      image: "",
      metadata: { description: "", socialMediaUrls: [], auditUrls: [] },
      context: { interface: "Partner", platform: "", messageId: "", id: "" },
      salt: SALT,
      pairedToken: WETH,
      startingTick: -230_400,
      positions: [{ tickLower: -230_400, tickUpper: -120_000, positionBps: 10_000 }],
      fees: { type: "static", tokenFee: 10_000, pairedFee: 10_000 },
      rewards: [{ admin: A, recipient: B, bps: 10_000, rewardsToken: "Both" }],
      extensions: [],
      sniperFees: { startingFee: 666_777, endingFee: 41_673, secondsToDecay: 15 },
    });
  });

  it("without rewards the token admin takes 100% in both tokens; rewardsToken, context, sniper fees and chainId as given", async () => {
    process.env.RPC_URL_56 = "http://127.0.0.1:1";
    try {
      const p = await plan("4.0.0", {
        token: { name: "N", symbol: "S", tokenAdmin: A, requestKey: KEY },
        context: { interface: "Bot", platform: "farcaster", messageId: "0xcast", id: 42 },
        sniperFees: { endingFee: 30_000 },
        chainId: "56",
      });
      expect(p.rewards).toEqual([{ admin: A, recipient: A, bps: 10_000, rewardsToken: "Both" }]);
      expect(p.context).toEqual({ interface: "Bot", platform: "farcaster", messageId: "0xcast", id: "42" });
      expect(p.sniperFees).toEqual({ startingFee: 666_777, endingFee: 30_000, secondsToDecay: 15 });
      expect(p.chainId).toBe(56);
      expect(p.pairedToken).toBe("0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c");
      const q = await plan("4.0.0", {
        token: { name: "N", symbol: "S", tokenAdmin: A, requestKey: KEY },
        rewards: [
          { admin: A, recipient: A, allocation: 50, rewardsToken: "Paired" },
          { admin: B, recipient: B, allocation: 50, rewardsToken: "Clanker" },
        ],
        context: { platform: "x" },
      });
      expect(q.rewards.map((r) => r.rewardsToken)).toEqual(["Paired", "Clanker"]);
      expect(q.context).toEqual({ interface: "Partner", platform: "x", messageId: "", id: "" });
    } finally {
      delete process.env.RPC_URL_56;
    }
  });

  it("airdrop: whole tokens to basis points rounded up, admin the token admin unless given; vault recipient", async () => {
    const root = `0x${"ab".repeat(32)}` as Hex;
    const p = await plan("4.0.0", {
      token: { name: "N", symbol: "S", tokenAdmin: A, requestKey: KEY },
      vault: { percentage: 10, lockupDuration: 604_800, vestingDuration: 0, recipient: B },
      airdrop: { merkleRoot: root, lockupDuration: 86_400, amount: 250_000_001 },
    });
    expect(p.extensions).toEqual([
      { kind: "vault", bps: 1_000, admin: B, lockupSeconds: 604_800n, vestingSeconds: 0n },
      { kind: "airdrop", bps: 26, admin: A, merkleRoot: root, lockupSeconds: 86_400n, vestingSeconds: 0n },
    ]);
  });

  it("project pool, dynamic fees, vault, allocations and metadata", async () => {
    const p = await plan("4.0.0", {
      token: {
        name: "N",
        symbol: "S",
        tokenAdmin: A,
        requestKey: KEY,
        description: "about",
        socialMediaUrls: ["https://x.com/n"],
        auditUrls: ["https://a.example/r"],
      },
      rewards: [
        { admin: A, recipient: A, allocation: 12.34 },
        { admin: B, recipient: P, allocation: 87.66 },
      ],
      pool: { type: "project" },
      fees: { type: "dynamic", baseFee: 0.25, maxLpFee: 3.0001 },
      vault: { percentage: 12.5, lockupDuration: 604_800, vestingDuration: 86_400 },
    });
    expect(p.positions).toEqual(PROJECT_POSITIONS);
    expect(p.startingTick).toBe(-230_400);
    expect(p.fees).toEqual({ type: "dynamic", baseFee: 2_500, maxLpFee: 30_001 });
    expect(p.rewards.map((r) => r.bps)).toEqual([1_234, 8_766]);
    expect(p.extensions).toEqual([
      { kind: "vault", bps: 1_250, admin: A, lockupSeconds: 604_800n, vestingSeconds: 86_400n },
    ]);
    expect(p.metadata).toEqual({
      description: "about",
      socialMediaUrls: [{ platform: "x", url: "https://x.com/n" }],
      auditUrls: ["https://a.example/r"],
    });
  });

  it("market cap to tick, and the position starts there", async () => {
    const p = await plan("4.0.0", {
      token: { name: "N", symbol: "S", tokenAdmin: A, requestKey: KEY },
      rewards: [{ admin: A, recipient: A, allocation: 100 }],
      pool: { initialMarketCap: 20 },
    });
    expect(p.startingTick).toBe(-223_400);
    expect(p.positions).toEqual([{ tickLower: -223_400, tickUpper: -120_000, positionBps: 10_000 }]);
  });
});

describe("legacy 0.3.x: creator c%, interface 80 - c%, platform 20%", () => {
  it.each([
    [
      "default 40% with a partner reward address",
      {},
      ctx(),
      [
        [A, A, 4_000],
        [P, P, 4_000],
        [F, F, 2_000],
      ],
    ],
    [
      "80% leaves the interface nothing",
      { creatorRewardsPercentage: 80 },
      ctx(),
      [
        [A, A, 8_000],
        [F, F, 2_000],
      ],
    ],
    [
      "a partner without a reward address: its share goes to the platform",
      { creatorRewardsPercentage: 25.5 },
      ctx({ partnerRewardAddress: null }),
      [
        [A, A, 2_550],
        [F, F, 7_450],
      ],
    ],
    [
      "0% creator",
      { creatorRewardsPercentage: 0 },
      ctx(),
      [
        [P, P, 8_000],
        [F, F, 2_000],
      ],
    ],
    [
      "creatorRewardsAdmin administers the creator entry",
      { creatorRewardsAdmin: B },
      ctx(),
      [
        [B, A, 4_000],
        [P, P, 4_000],
        [F, F, 2_000],
      ],
    ],
  ] as const)("%s", async (_name, extra, c, rewards) => {
    const p = await plan("0.3.1", legacy(extra), c);
    expect(p.rewards.map((r) => [r.admin, r.recipient, r.bps])).toEqual(rewards);
    expect(p.rewards.reduce((s, r) => s + r.bps, 0)).toBe(10_000);
    expect(new Set(p.rewards.map((r) => r.rewardsToken))).toEqual(new Set(["Both"]));
    expect(p.sniperFees).toEqual({ startingFee: 666_777, endingFee: 41_673, secondsToDecay: 15 });
  });

  it("vault unlock time to a lockup from the request time, context from fid/castHash, market cap to tick", async () => {
    const unlock = NOW / 1000 + 40 * 86_400;
    const p = await plan(
      "0.3.1",
      legacy({
        vaultPercentage: 25,
        vaultUnlockTimestamp: unlock,
        creatorRewardsAdmin: B,
        requestorFid: 99,
        castHash: "0xcast",
        initialMarketCap: 1,
      }),
    );
    expect(p.tokenAdmin).toBe(B);
    expect(p.extensions).toEqual([
      { kind: "vault", bps: 2_500, admin: B, lockupSeconds: BigInt(40 * 86_400), vestingSeconds: 0n },
    ]);
    expect(p.context).toEqual({ interface: "Partner", platform: "farcaster", messageId: "0xcast", id: "99" });
    expect(p.startingTick).toBe(-253_400);
    expect(p.fees).toEqual({ type: "static", tokenFee: 10_000, pairedFee: 10_000 });
  });
});

describe("3.1.0 split", () => {
  it("splits the creator share over groupAddresses by allocation; creatorAdmin is the token admin", async () => {
    const p = await plan(
      "3.1.0",
      legacy({
        creatorAdmin: B,
        groupAddresses: [
          { address: A, allocation: 60 },
          { address: B, allocation: 40 },
        ],
      }),
    );
    expect(p.tokenAdmin).toBe(B);
    expect(p.rewards.map((r) => [r.admin, r.recipient, r.bps])).toEqual([
      [A, A, 2_400],
      [B, B, 1_600],
      [P, P, 4_000],
      [F, F, 2_000],
    ]);
  });
});

describe("the factory call (v4.1)", () => {
  it("encodes the plan with the chain's contracts; poolData, lockerData and mevModuleData as the V2 hooks, the fee-conversion locker and the sniper auction read them", async () => {
    const p = await plan("4.0.0", {
      token: { name: "N", symbol: "S", tokenAdmin: A, requestKey: KEY },
      rewards: [
        { admin: A, recipient: A, allocation: 70 },
        { admin: B, recipient: B, allocation: 30, rewardsToken: "Clanker" },
      ],
      fees: { tokenFee: 0.5, pairedFee: 2 },
      vault: { percentage: 10, lockupDuration: 700_000, vestingDuration: 5 },
      sniperFees: { startingFee: 500_000, endingFee: 50_000, secondsToDecay: 60 },
    });
    const config = buildDeploymentConfig(p);
    const c = chainSettings(8453).contracts;
    expect(config.poolConfig.hook).toBe("0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC");
    expect(config.lockerConfig.locker).toBe(c.locker);
    expect(config.mevModuleConfig.mevModule).toBe("0xebB25BB797D82CB78E1bc70406b13233c0854413");
    expect(config.extensionConfigs[0]!.extension).toBe(c.vault);
    expect(config.tokenConfig.originatingChainId).toBe(8453n);
    const [pool] = decodeAbiParameters(poolInitializationDataParams, config.poolConfig.poolData);
    expect(pool.extension).toBe(zeroAddress);
    expect(pool.extensionData).toBe("0x");
    expect(decodeAbiParameters(staticFeeDataParams, pool.feeData)).toEqual([5_000, 20_000]);
    expect(decodeAbiParameters(lockerFeeConversionDataParams, config.lockerConfig.lockerData)).toEqual([
      { feePreference: [0, 2] },
    ]);
    expect(decodeAbiParameters(sniperAuctionDataParams, config.mevModuleConfig.mevModuleData)).toEqual([
      { startingFee: 500_000, endingFee: 50_000, secondsToDecay: 60n },
    ]);
    expect(decodeAbiParameters(vaultDataParams, config.extensionConfigs[0]!.extensionData)).toEqual([
      "0x1111111111111111111111111111111111111111",
      700_000n,
      5n,
    ]);
    expect(JSON.parse(config.tokenConfig.context)).toEqual({
      interface: "Partner",
      platform: "",
      messageId: "",
      id: "",
    });
  });

  it("dynamic fees: the dynamic V2 hook, the fee data inside the pool initialization data; a pool extension when the plan has one", async () => {
    const p = await plan("4.0.0", {
      token: { name: "N", symbol: "S", tokenAdmin: A, requestKey: KEY },
      fees: { type: "dynamic", baseFee: 1, maxLpFee: 4 },
    });
    const extension = { address: B, initData: "0x1234" as Hex };
    const config = buildDeploymentConfig({ ...p, poolExtension: extension });
    expect(config.poolConfig.hook).toBe("0xd60D6B218116cFd801E28F78d011a203D2b068Cc");
    const [pool] = decodeAbiParameters(poolInitializationDataParams, config.poolConfig.poolData);
    expect([pool.extension, pool.extensionData]).toEqual([B, "0x1234"]);
    expect(decodeAbiParameters(dynamicFeeDataParams, pool.feeData)).toEqual([
      10_000,
      40_000,
      30n,
      120n,
      200,
      500_000_000n,
      7_500,
    ]);
  });

  it("a chain without a sniper auction (or another contract) configured is a 503 naming the variable", async () => {
    const p = await plan("4.0.0", {
      token: { name: "N", symbol: "S", tokenAdmin: A, requestKey: KEY },
    });
    // Base Sepolia: the platform's table has no sniper auction there.
    expect(() => buildDeploymentConfig({ ...p, chainId: 84532 })).toThrow(
      expect.objectContaining({
        name: "ChainUnavailableError",
        reason: "not_configured",
        message: expect.stringContaining("MEV_MODULE_ADDRESS_84532"),
      }),
    );
    expect(() => buildDeploymentConfig({ ...p, chainId: 42161 })).toThrow(/STATIC_FEE_HOOK_ADDRESS_42161/);
  });
});

describe("salt and body hash", () => {
  it("depend on the partner and key only, and on the body content not its key order", () => {
    expect(deploySalt(7, KEY)).toBe(SALT);
    expect(deploySalt(8, KEY)).not.toBe(SALT);
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    expect(bodyHash("deploy", { a: 1, b: 2 })).toBe(bodyHash("deploy", { b: 2, a: 1 }));
    expect(bodyHash("deploy", { a: 1 })).not.toBe(bodyHash("split", { a: 1 }));
  });
});
