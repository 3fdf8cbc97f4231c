// Each shape's DeploymentPlan and the factory call it becomes (docs/token-deploy.md "Deploy mapping", field by field).
import { describe, expect, it } from "vitest";
import { decodeAbiParameters, type Address, type Hex } from "viem";
import { chainSettings } from "@/lib/platform/chain";
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
      rewards: [{ admin: A, recipient: B, bps: 10_000 }],
      extensions: [],
    });
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

describe("the factory call", () => {
  it("encodes the plan with the chain's contracts; fee data and vault data as the hooks and extension read them", async () => {
    const p = await plan("4.0.0", {
      token: { name: "N", symbol: "S", tokenAdmin: A, requestKey: KEY },
      rewards: [{ admin: A, recipient: A, allocation: 100 }],
      fees: { tokenFee: 0.5, pairedFee: 2 },
      vault: { percentage: 10, lockupDuration: 700_000, vestingDuration: 5 },
    });
    const config = buildDeploymentConfig(p);
    const c = chainSettings(8453).contracts;
    expect(config.poolConfig.hook).toBe(c.staticFeeHook);
    expect(config.lockerConfig.locker).toBe(c.locker);
    expect(config.extensionConfigs[0]!.extension).toBe(c.vault);
    expect(config.tokenConfig.originatingChainId).toBe(8453n);
    expect(decodeAbiParameters([{ type: "uint24" }, { type: "uint24" }], config.poolConfig.poolData as Hex)).toEqual([
      5_000, 20_000,
    ]);
    expect(
      decodeAbiParameters(
        [{ type: "address" }, { type: "uint256" }, { type: "uint256" }],
        config.extensionConfigs[0]!.extensionData as Hex,
      ),
    ).toEqual(["0x1111111111111111111111111111111111111111", 700_000n, 5n]);
    expect(JSON.parse(config.tokenConfig.context)).toEqual({
      interface: "Partner",
      platform: "",
      messageId: "",
      id: "",
    });
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
