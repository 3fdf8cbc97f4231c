// A token's `extensions` from its TokenCreated and the call that deployed it: the fee hook always; the fee type,
// values and reward split when the call is the factory's deployToken, with the V2 hooks' wrapped pool data or the
// first hooks' bare fee data.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { encodeFunctionData, zeroAddress, type Address, type Hex } from "viem";
import { deploymentOf, tokenExtensions } from "@/lib/domains/launch/indexer/extensions";
import { encodeFeeData, encodePoolData } from "@/lib/domains/launch/deploy/config";
import { tokenFactoryAbi, type DeploymentConfig, type V4TokenCreatedEvent } from "@/lib/platform/chain";
import { jsonSchema } from "@/app/_openapi/document";
import { tokenObject } from "@/lib/domains/tokens/responses";

const FACTORY: Address = "0xE85A59c628F7d27878ACeB4bf3b35733630083a9";
const HOOK: Address = "0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC";
const [A, B, C] = [
  "0x1111111111111111111111111111111111111111",
  "0x2222222222222222222222222222222222222222",
  "0x3333333333333333333333333333333333333333",
] as const;

const event = {
  address: FACTORY,
  poolHook: HOOK.toLowerCase(),
  tokenAdmin: A,
  tokenName: "N",
  tokenSymbol: "S",
  pairedToken: "0x4200000000000000000000000000000000000006",
  locker: C,
} as unknown as V4TokenCreatedEvent;
/** The extensions of the token of `event` deployed by `call`, on a chain whose fee hooks are not configured. */
const extensionsOf = (call: { to: Address | null; input: Hex } | null) =>
  tokenExtensions(31337, event, deploymentOf(event, call));

function deployCall(poolData: Hex, to: Address = FACTORY) {
  const config: DeploymentConfig = {
    tokenConfig: {
      tokenAdmin: A,
      name: "N",
      symbol: "S",
      salt: `0x${"0".repeat(64)}`,
      image: "",
      metadata: "",
      context: "",
      originatingChainId: 8453n,
    },
    poolConfig: {
      hook: HOOK,
      pairedToken: "0x4200000000000000000000000000000000000006",
      tickIfToken0IsClanker: -230_400,
      tickSpacing: 200,
      poolData,
    },
    lockerConfig: {
      locker: C,
      rewardAdmins: [A, B],
      rewardRecipients: [B, C],
      rewardBps: [7_000, 3_000],
      tickLower: [-230_400],
      tickUpper: [-120_000],
      positionBps: [10_000],
      lockerData: "0x",
    },
    mevModuleConfig: { mevModule: zeroAddress, mevModuleData: "0x" },
    extensionConfigs: [],
  };
  return { to, input: encodeFunctionData({ abi: tokenFactoryAbi, functionName: "deployToken", args: [config] }) };
}

const recipients = [
  { bps: 7_000, admin: A, recipient: B },
  { bps: 3_000, admin: B, recipient: C },
];

describe("tokenExtensions", () => {
  it("reads a static fee hook's fees and the reward split from the factory's deployToken (V2 pool data)", () => {
    const call = deployCall(encodePoolData({ type: "static", tokenFee: 10_000, pairedFee: 5_000 }));
    expect(extensionsOf(call)).toEqual({
      fees: { hook_address: HOOK, type: "static", tokenFee: 10_000, pairedFee: 5_000, recipients },
    });
  });

  it("reads a dynamic fee hook's base and maximum fee", () => {
    const call = deployCall(encodePoolData({ type: "dynamic", baseFee: 5_000, maxLpFee: 50_000 }));
    expect(extensionsOf(call).fees).toMatchObject({ type: "dynamic", baseFee: 5_000, maxFee: 50_000 });
  });

  it("reads the first hooks' bare fee data too", () => {
    const call = deployCall(encodeFeeData({ type: "static", tokenFee: 20_000, pairedFee: 20_000 }));
    expect(extensionsOf(call).fees).toMatchObject({ type: "static", tokenFee: 20_000, pairedFee: 20_000 });
  });

  it("reads a chain's configured fee hook as the V2 hook of its type: its data must be wrapped", () => {
    // HOOK is Base's configured static fee hook.
    const on8453 = (poolData: Hex) => tokenExtensions(8453, event, deploymentOf(event, deployCall(poolData)));
    const fees = { type: "static", tokenFee: 10_000, pairedFee: 10_000 } as const;
    expect(on8453(encodePoolData(fees)).fees).toMatchObject(fees);
    expect(on8453(encodeFeeData(fees))).toEqual({ fees: { hook_address: HOOK, recipients } });
  });

  it("keeps the hook alone when the configuration is not the event's token's", () => {
    const call = deployCall(encodePoolData({ type: "static", tokenFee: 10_000, pairedFee: 10_000 }));
    const other = { ...event, tokenName: "Another" } as V4TokenCreatedEvent;
    expect(tokenExtensions(31337, other, deploymentOf(other, call))).toEqual({ fees: { hook_address: HOOK } });
  });

  it("keeps the hook alone for a call through another contract, an undecodable call, or none", () => {
    const hookOnly = { fees: { hook_address: HOOK } };
    const fees = encodePoolData({ type: "static", tokenFee: 10_000, pairedFee: 10_000 });
    expect(extensionsOf(deployCall(fees, C))).toEqual(hookOnly);
    expect(extensionsOf({ to: FACTORY, input: "0xdeadbeef" })).toEqual(hookOnly);
    expect(extensionsOf(null)).toEqual(hookOnly);
    // Pool data that is no fee hook's: the split is still read, the fees are not.
    expect(extensionsOf(deployCall("0x1234"))).toEqual({ fees: { hook_address: HOOK, recipients } });
  });
});

describe("the documented extensions", () => {
  const published = z.fromJSONSchema(jsonSchema(tokenObject.shape.extensions, "output"));
  it("admit each shape tokenExtensions writes, and no fee member without its type", () => {
    const written = [
      extensionsOf(deployCall(encodePoolData({ type: "static", tokenFee: 10_000, pairedFee: 5_000 }))),
      extensionsOf(deployCall(encodePoolData({ type: "dynamic", baseFee: 5_000, maxLpFee: 50_000 }))),
      extensionsOf(deployCall("0x1234")),
      extensionsOf(null),
    ];
    for (const extensions of [...written, null]) expect(published.safeParse(extensions).success).toBe(true);
    for (const mixed of [
      { fees: { hook_address: HOOK, tokenFee: 10_000 } },
      { fees: { hook_address: HOOK, type: "static", baseFee: 1, maxFee: 2 } },
      { fees: { hook_address: HOOK, type: "dynamic", baseFee: 1 } },
    ])
      expect(published.safeParse(mixed).success).toBe(false);
  });
});
