// Validation of every deploy shape, table-driven: the shape rule, each field rule of the interface's tables,
// and that one 400 lists every violation of a body.
import { describe, expect, it } from "vitest";
import { HttpError } from "@/lib/core/errors";
import { detectShape, parseDeployBody, requestKeyOf } from "@/lib/domains/launch/deploy/shapes";
import type { DeployShape } from "@/db/tables/deploy";

const A = "0x1111111111111111111111111111111111111111";
const B = "0x2222222222222222222222222222222222222222";
const KEY = "k".repeat(32);
const NOW = Date.UTC(2026, 0, 1);
const DAY = 86_400;
const ROOT = `0x${"ab".repeat(32)}`;

const v4 = () => ({
  token: { name: "Token", symbol: "TKN", tokenAdmin: A, requestKey: KEY, image: "https://example.com/t.png" },
  rewards: [{ admin: A, recipient: A, allocation: 100 }],
});
const legacy = () => ({
  name: "Token",
  symbol: "TKN",
  image: "https://example.com/t.png",
  requestorAddress: A,
  requestKey: KEY,
});
const split = () => ({
  ...legacy(),
  groupAddresses: [
    { address: A, allocation: 60 },
    { address: B, allocation: 40 },
  ],
});

/** The paths of the violations a body has (empty when it is valid). */
function violations(shape: DeployShape, body: unknown): string[] {
  try {
    parseDeployBody(shape, body, NOW);
    return [];
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 400) throw error;
    return (error.details as { path: string }[]).map((d) => d.path);
  }
}

type Case = [string, (b: any) => void, string[]];
const set = (path: string, value: unknown) => (b: any) => {
  const keys = path.split(".");
  const last = keys.pop()!;
  let target = b;
  for (const k of keys) target = target[k] ??= {};
  if (value === undefined) delete target[last];
  else target[last] = value;
};

describe("the shape rule", () => {
  it("a token object means 4.0.0; otherwise legacy 0.3.1, or 0.3.0 when only its five fields are there; /split is 3.1.0", () => {
    expect(detectShape("deploy", v4())).toBe("4.0.0");
    expect(detectShape("deploy", legacy())).toBe("0.3.0");
    expect(detectShape("deploy", { ...legacy(), dryRun: true })).toBe("0.3.0");
    expect(detectShape("deploy", { ...legacy(), creatorRewardsPercentage: 40 })).toBe("0.3.1");
    expect(detectShape("deploy", { ...legacy(), token: "x" })).toBe("0.3.1");
    expect(detectShape("split", legacy())).toBe("3.1.0");
    expect(requestKeyOf("4.0.0", v4())).toBe(KEY);
    expect(requestKeyOf("0.3.1", { requestKey: "short" })).toBeNull();
  });
});

describe("4.0.0", () => {
  const cases: Case[] = [
    ["valid minimal body", () => {}, []],
    [
      "valid full body",
      (b) => {
        Object.assign(b.token, {
          description: "d",
          socialMediaUrls: ["https://x.com/t", { platform: "telegram", url: "https://t.me/t" }],
          auditUrls: ["https://audit.example"],
        });
        b.rewards = [
          { admin: A, recipient: A, allocation: 33.33 },
          { admin: B, recipient: B, allocation: 66.67 },
        ];
        b.pool = { type: "standard", pairedToken: B, initialMarketCap: 12.5 };
        b.fees = { type: "static", tokenFee: 0.3, pairedFee: 5 };
        b.vault = { percentage: 90, lockupDuration: 604_800, vestingDuration: 0 };
      },
      [],
    ],
    [
      "missing token fields",
      (b) => {
        b.token = { requestKey: KEY };
      },
      ["token.name", "token.symbol", "token.tokenAdmin"],
    ],
    ["requestKey not 32 characters", set("token.requestKey", "k".repeat(31)), ["token.requestKey"]],
    ["requestKey with a slash", set("token.requestKey", `${"k".repeat(31)}/`), ["token.requestKey"]],
    ["bad admin address", set("token.tokenAdmin", "0x123"), ["token.tokenAdmin"]],
    [
      "empty name, spaced symbol",
      (b) => {
        b.token.name = " ";
        b.token.symbol = "A B";
      },
      ["token.name", "token.symbol"],
    ],
    ["symbol over 20 characters", set("token.symbol", "S".repeat(21)), ["token.symbol"]],
    ["image not a URL", set("token.image", "javascript:alert(1)"), ["token.image"]],
    ["11 social URLs", set("token.socialMediaUrls", Array(11).fill("https://x.com/a")), ["token.socialMediaUrls"]],
    // Unknown members are ignored (logged, never stored), as the platform does.
    ["unknown token field", set("token.supply", 1), []],
    ["unknown top-level field", set("fee", {}), []],
    ["no rewards", set("rewards", []), ["rewards"]],
    ["8 rewards", set("rewards", Array(8).fill({ admin: A, recipient: A, allocation: 12.5 })), ["rewards"]],
    ["rewards summing to 99", set("rewards", [{ admin: A, recipient: A, allocation: 99 }]), ["rewards"]],
    [
      "allocation finer than a basis point",
      set("rewards", [
        { admin: A, recipient: A, allocation: 99.995 },
        { admin: B, recipient: B, allocation: 0.005 },
      ]),
      ["rewards.0.allocation", "rewards.1.allocation"],
    ],
    [
      "zero allocation",
      set("rewards", [
        { admin: A, recipient: A, allocation: 100 },
        { admin: B, recipient: B, allocation: 0 },
      ]),
      ["rewards.1.allocation"],
    ],
    ["unknown pool type", set("pool", { type: "deep" }), ["pool.type"]],
    [
      "project pool with a paired token and market cap",
      set("pool", { type: "project", pairedToken: B, initialMarketCap: 20 }),
      ["pool.pairedToken", "pool.initialMarketCap"],
    ],
    ["market cap not positive", set("pool", { initialMarketCap: 0 }), ["pool.initialMarketCap"]],
    ["static fee above 5", set("fees", { tokenFee: 5.01 }), ["fees.tokenFee"]],
    ["fee finer than a millionth", set("fees", { pairedFee: 1.00001 }), ["fees.pairedFee"]],
    ["dynamic fields on a static fee", set("fees", { type: "static", baseFee: 1 }), ["fees.baseFee"]],
    ["dynamic fields without a type (static is the default)", set("fees", { maxLpFee: 3 }), ["fees.maxLpFee"]],
    [
      "static fields on a dynamic fee",
      set("fees", { type: "dynamic", tokenFee: 1, pairedFee: 1 }),
      ["fees.tokenFee", "fees.pairedFee"],
    ],
    ["dynamic base below 0.25", set("fees", { type: "dynamic", baseFee: 0.2 }), ["fees.baseFee"]],
    ["dynamic max above 5", set("fees", { type: "dynamic", maxLpFee: 6 }), ["fees.maxLpFee"]],
    ["dynamic base above max", set("fees", { type: "dynamic", baseFee: 2, maxLpFee: 1 }), ["fees.baseFee"]],
    ["both fee types", set("fees", { type: "both" }), ["fees.type"]],
    [
      "the platform's name of tokenFee (not ignored: the fee would differ)",
      set("fees", { clankerFee: 2 }),
      ["fees.clankerFee"],
    ],
    [
      "vault over 90",
      set("vault", { percentage: 91, lockupDuration: 604_800, vestingDuration: 0 }),
      ["vault.percentage"],
    ],
    [
      "vault lockup under 7 days",
      set("vault", { percentage: 10, lockupDuration: 604_799, vestingDuration: 0 }),
      ["vault.lockupDuration"],
    ],
    ["vault without durations (vesting defaults to 0)", set("vault", { percentage: 10 }), ["vault.lockupDuration"]],
    ["vault of 0% (no vault) without durations", set("vault", { percentage: 0 }), []],
    ["vault below 0", set("vault", { percentage: -1, lockupDuration: 604_800 }), ["vault.percentage"]],
    ["pairedToken WETH on a project pool", set("pool", { type: "project", pairedToken: "WETH" }), []],
    ["pairedToken neither an address nor WETH", set("pool", { pairedToken: "USDC" }), ["pool.pairedToken"]],
    ["image left empty (the SDK's default)", set("token.image", ""), []],
    [
      "vault durations without percentage",
      set("vault", { lockupDuration: 604_800, vestingDuration: 0 }),
      ["vault.percentage"],
    ],
    [
      "negative vesting, fractional lockup",
      set("vault", { percentage: 10, lockupDuration: 604_800.5, vestingDuration: -1 }),
      ["vault.lockupDuration", "vault.vestingDuration"],
    ],
    ["an unconfigured chain", set("chainId", 1), ["chainId"]],
    ["dryRun not a boolean", set("dryRun", "yes"), ["dryRun"]],
    ["rewards left out (the token admin takes all)", set("rewards", undefined), []],
    [
      "every rewardsToken",
      set("rewards", [
        { admin: A, recipient: A, allocation: 50, rewardsToken: "Both" },
        { admin: A, recipient: B, allocation: 25, rewardsToken: "Paired" },
        { admin: B, recipient: B, allocation: 25, rewardsToken: "Clanker" },
      ]),
      [],
    ],
    [
      "unknown rewardsToken",
      set("rewards", [{ admin: A, recipient: A, allocation: 100, rewardsToken: "WETH" }]),
      ["rewards.0.rewardsToken"],
    ],
    ["valid airdrop", set("airdrop", { merkleRoot: ROOT, lockupDuration: DAY, amount: 250_000_000 }), []],
    [
      "airdrop below 25 bps, lockup under a day, bad root",
      set("airdrop", { merkleRoot: "0x12", lockupDuration: DAY - 1, amount: 249_999_999 }),
      ["airdrop.merkleRoot", "airdrop.lockupDuration", "airdrop.amount"],
    ],
    [
      "airdrop of a fraction of a token, without its root",
      set("airdrop", { lockupDuration: DAY, amount: 300_000_000.5 }),
      ["airdrop.merkleRoot", "airdrop.amount"],
    ],
    [
      "airdrop above 90%",
      set("airdrop", { merkleRoot: ROOT, lockupDuration: DAY, amount: 90_000_000_001 }),
      ["airdrop.amount"],
    ],
    [
      "vault and airdrop above 90% together",
      (b) => {
        b.vault = { percentage: 50, lockupDuration: 604_800, vestingDuration: 0 };
        b.airdrop = { merkleRoot: ROOT, lockupDuration: DAY, amount: 40_000_000_001 };
      },
      ["airdrop.amount"],
    ],
    [
      "unknown airdrop field",
      set("airdrop", { merkleRoot: ROOT, lockupDuration: DAY, amount: 1e9, percentage: 5 }),
      [],
    ],
    ["context", set("context", { interface: "Bot", platform: "farcaster", messageId: "0xabc", id: 7 }), []],
    ["context with an unknown field", set("context", { interface: "Bot", fid: 7 }), []],
    ["context id negative", set("context", { id: -1 }), ["context.id"]],
    ["sniper fees", set("sniperFees", { startingFee: 800_000, endingFee: 30_000, secondsToDecay: 120 }), []],
    ["sniper fees in part (defaults for the rest)", set("sniperFees", { secondsToDecay: 1 }), []],
    [
      "sniper fees out of bounds",
      set("sniperFees", { startingFee: 800_001, endingFee: 29_999, secondsToDecay: 121 }),
      ["sniperFees.startingFee", "sniperFees.endingFee", "sniperFees.secondsToDecay"],
    ],
    [
      "sniper fees fractional, no decay",
      set("sniperFees", { startingFee: 100_000.5, secondsToDecay: 0 }),
      ["sniperFees.startingFee", "sniperFees.secondsToDecay"],
    ],
    [
      "sniper ending fee not below the starting fee",
      set("sniperFees", { startingFee: 40_000, endingFee: 41_673 }),
      ["sniperFees.endingFee"],
    ],
    [
      "sniper ending fee above the default starting fee",
      set("sniperFees", { endingFee: 700_000 }),
      ["sniperFees.endingFee"],
    ],
    [
      "vault recipient",
      set("vault", { percentage: 10, lockupDuration: 604_800, vestingDuration: 0, recipient: B }),
      [],
    ],
    ["chainId not an integer", set("chainId", 8453.5), ["chainId"]],
    ["chainId as the text of an unconfigured chain", set("chainId", "1"), ["chainId"]],
    ["chainId text that is no number", set("chainId", "base"), ["chainId"]],
  ];
  it.each(cases)("%s", (_name, mutate, expected) => {
    const body = v4();
    mutate(body);
    expect(violations("4.0.0", body).sort()).toEqual([...expected].sort());
  });

  it("lists every violation in one 400 with a readable first message", () => {
    const body: any = v4();
    body.token.symbol = "";
    body.rewards = [{ admin: A, recipient: A, allocation: 50 }];
    body.fees = { type: "dynamic", tokenFee: 1 };
    body.vault = { percentage: 95 };
    try {
      parseDeployBody("4.0.0", body, NOW);
      expect.unreachable();
    } catch (error) {
      const e = error as HttpError;
      expect(e.status).toBe(400);
      expect(e.code).toBe("invalid_request");
      expect((e.details as unknown[]).length).toBe(5);
      expect(e.message).toMatch(/^token\.symbol: .*\(and 4 more: see details\)$/);
    }
  });
});

describe("0.3.1 and 0.3.0", () => {
  const cases: Case[] = [
    ["valid 0.3.0 body", () => {}, []],
    [
      "valid full 0.3.1 body",
      (b) =>
        Object.assign(b, {
          creatorRewardsPercentage: 80,
          requestorFid: 3,
          tokenPair: "weth",
          description: "d",
          socialMediaUrls: ["https://x.com/a"],
          platform: "farcaster",
          castHash: "0xabc",
          vaultUnlockTimestamp: NOW / 1000 + 31 * DAY,
          vaultPercentage: 30,
          creatorRewardsAdmin: B,
          initialMarketCap: 1,
        }),
      [],
    ],
    [
      "missing required fields",
      (b) => {
        delete b.image;
        delete b.requestorAddress;
        delete b.requestKey;
      },
      ["requestorAddress", "requestKey"],
    ],
    ["creator rewards above 80", set("creatorRewardsPercentage", 81), ["creatorRewardsPercentage"]],
    ["creator rewards negative", set("creatorRewardsPercentage", -1), ["creatorRewardsPercentage"]],
    ["market cap below 1", set("initialMarketCap", 0.99), ["initialMarketCap"]],
    [
      "market cap on a non-WETH pair",
      (b) => Object.assign(b, { tokenPair: "USDC", initialMarketCap: 5 }),
      ["tokenPair", "initialMarketCap"],
    ],
    ["vault percentage without an unlock time", set("vaultPercentage", 10), ["vaultUnlockTimestamp"]],
    ["unlock time without a vault percentage", set("vaultUnlockTimestamp", NOW / 1000 + 31 * DAY), ["vaultPercentage"]],
    [
      "unlock 29 days out",
      (b) => Object.assign(b, { vaultPercentage: 10, vaultUnlockTimestamp: NOW / 1000 + 29 * DAY }),
      ["vaultUnlockTimestamp"],
    ],
    [
      "unlock exactly 30 days out is allowed",
      (b) => Object.assign(b, { vaultPercentage: 10, vaultUnlockTimestamp: NOW / 1000 + 30 * DAY }),
      [],
    ],
    [
      "requestorFid and requestorId disagree",
      (b) => Object.assign(b, { requestorFid: 1, requestorId: 2 }),
      ["requestorId"],
    ],
    ["castHash and messageId disagree", (b) => Object.assign(b, { castHash: "a", messageId: "b" }), ["messageId"]],
    ["image as a plain word", set("image", "picture"), ["image"]],
    ["a 4.0.0 field on a legacy body (ignored, as any unknown member)", set("rewards", []), []],
    // What the platform's clients send: a numeric string FID, "no vault" as zeros, "" for no image or pair.
    ["requestorFid as a numeric string", set("requestorFid", "12345"), []],
    ["requestorFid not a number", set("requestorFid", "12a"), ["requestorFid"]],
    ["no vault as zeros", (b) => Object.assign(b, { vaultPercentage: 0, vaultUnlockTimestamp: 0 }), []],
    ["image empty", set("image", ""), []],
    [
      "tokenPair ETH (the chain's WETH), with a market cap",
      (b) => Object.assign(b, { tokenPair: "eth", initialMarketCap: 5 }),
      [],
    ],
    ["tokenPair empty", (b) => Object.assign(b, { tokenPair: "", initialMarketCap: 5 }), []],
  ];
  it.each(cases)("%s", (_name, mutate, expected) => {
    const body = legacy();
    mutate(body);
    expect(violations(detectShape("deploy", body), body).sort()).toEqual([...expected].sort());
  });
});

describe("3.1.0 (split)", () => {
  const cases: Case[] = [
    ["valid body", () => {}, []],
    [
      "groupAddresses as a JSON string",
      (b) => {
        b.groupAddresses = JSON.stringify(b.groupAddresses);
      },
      [],
    ],
    ["creatorAdmin and requestorId string", (b) => Object.assign(b, { creatorAdmin: B, requestorId: "user-9" }), []],
    ["missing groupAddresses", set("groupAddresses", undefined), ["groupAddresses"]],
    ["group not totalling 100", set("groupAddresses", [{ address: A, allocation: 50 }]), ["groupAddresses"]],
    [
      "duplicate group member",
      set("groupAddresses", [
        { address: A, allocation: 50 },
        { address: A, allocation: 50 },
      ]),
      ["groupAddresses.1.address"],
    ],
    [
      "6 members with the default 40% (at most 5)",
      set(
        "groupAddresses",
        Array.from({ length: 6 }, (_, i) => ({
          address: `0x${String(i + 1).repeat(40)}`,
          allocation: i < 4 ? 16 : 18,
        })),
      ),
      ["groupAddresses"],
    ],
    [
      "a share finer than a basis point of the creator share",
      set("groupAddresses", [
        { address: A, allocation: 33.33 },
        { address: B, allocation: 66.67 },
      ]),
      ["groupAddresses.0.allocation", "groupAddresses.1.allocation"],
    ],
    [
      "vault above 30",
      (b) => Object.assign(b, { vaultPercentage: 31, vaultUnlockTimestamp: NOW / 1000 + 31 * DAY }),
      ["vaultPercentage"],
    ],
    ["zero creator share", set("creatorRewardsPercentage", 0), ["creatorRewardsPercentage"]],
  ];
  it.each(cases)("%s", (_name, mutate, expected) => {
    const body = split();
    mutate(body);
    expect(violations("3.1.0", body).sort()).toEqual([...expected].sort());
  });
});
