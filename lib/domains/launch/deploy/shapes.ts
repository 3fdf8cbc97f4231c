// The four deploy request shapes (interface 4.10), the rule telling them apart, and their validation:
// field rules in zod, cross-field rules below (4.0.0's in shape-v4.ts), every violation listed in one 400. The same zod schemas are the
// OpenAPI document's request bodies (with a title and a valid example each), so the two cannot drift.
import { z } from "zod";
import {
  address,
  bpsPercent,
  DESCRIPTION_MAX,
  EXAMPLE_ADDRESSES,
  isGiven,
  isNumber,
  isRecord,
  MAX_REWARD_RECIPIENTS,
  marketCap,
  optionalImage,
  requestKey,
  sumBps,
  text,
  tokenName,
  tokenSymbol,
  url,
  urls,
  validateAll,
  type CrossRule,
} from "./fields";
import { quoteTokenBySymbol, quoteTokens } from "./quote-tokens";
import { deployV4Body, v4Rules, type DeployV4Body } from "./shape-v4";
import { percentToBps } from "./units";
import type { DeployShape } from "@/db/tables/deploy";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

export { deployV4Body, type DeployV4Body } from "./shape-v4";

export const LEGACY_VAULT_MIN_SECONDS = 30 * 86_400;

const { requestor: REQUESTOR, group: GROUP } = EXAMPLE_ADDRESSES;

/** "" is no value, as the platform's clients send an unset text field. */
const orEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());
/** A whole number, or its decimal text ("123"), as clients send numeric ids. */
const wholeNumber = (min: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d{1,16}\s*$/.test(v) ? Number(v) : v),
    z.number().int().min(min).max(Number.MAX_SAFE_INTEGER),
  );

const IMAGE_ABOUT = 'the token\'s image, an http(s) or ipfs URL of at most 2048 characters; `""` or none: no image';
const DESCRIPTION_ABOUT = "the token's description, at most 1000 characters (in its metadata)";
const DRY_RUN_ABOUT =
  "true: validate and simulate the deployment, answer what would be sent, store and send nothing (default false)";

const legacyFields = {
  name: tokenName,
  symbol: tokenSymbol,
  image: optionalImage.transform((v) => v ?? "").describe(IMAGE_ABOUT),
  requestorAddress: address.describe(
    "the creator's wallet: the token admin unless creatorRewardsAdmin (or 3.1.0's creatorAdmin) is given, and in 0.3.1 the creator's reward recipient",
  ),
  requestKey,
  creatorRewardsPercentage: bpsPercent(0, 80)
    .optional()
    .describe(
      "the creator's share of the LP fees, percent 0 to 80 (at most 2 decimals: whole basis points); default 40. The interface takes 80 minus this, the platform 20",
    ),
  requestorFid: wholeNumber(1)
    .optional()
    .describe("the creator's Farcaster ID (a number or its decimal text); sets the context's platform to farcaster"),
  requestorId: z
    .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), text(64, 1)])
    .optional()
    .describe("requestorFid's legacy name: the poster's id (a number, or text of at most 64 characters)"),
  tokenPair: orEmpty(text(16, 1)).describe(
    'the paired (quote) token\'s symbol, one the service has configured (DEPLOY_QUOTE_TOKENS); default and `""`: WETH (`ETH` is WETH too)',
  ),
  description: text(DESCRIPTION_MAX).optional().describe(DESCRIPTION_ABOUT),
  socialMediaUrls: urls(url)
    .optional()
    .describe("links of the token, at most 10 http(s) or ipfs URLs; each one's platform is read from its host"),
  platform: text(64)
    .optional()
    .describe("the social platform the request came from (context.platform), e.g. farcaster"),
  castHash: text(256).optional().describe("the message that asked for the token (context.messageId), e.g. a cast hash"),
  messageId: text(256).optional().describe("castHash's other name; give one, or the same value"),
  // 0 with vaultPercentage 0 (or absent) is "no vault", as the platform's clients send it.
  vaultUnlockTimestamp: wholeNumber(0)
    .optional()
    .describe(
      "when the vaulted tokens unlock, unix seconds: at least 30 days after the request; required with vaultPercentage above 0 (0 with vaultPercentage 0 is no vault)",
    ),
  vaultPercentage: bpsPercent(0, 90)
    .optional()
    .describe("percent of the supply locked in the vault for tokenAdmin, 0 to 90 (at most 2 decimals); 0: no vault"),
  creatorRewardsAdmin: address
    .optional()
    .describe("the token admin and the admin of the creator's reward entry; default: requestorAddress"),
  initialMarketCap: marketCap(1)
    .optional()
    .describe("starting market cap in whole WETH, at least 1 (default 10); only for WETH-paired tokens"),
  dryRun: z.boolean().optional().describe(DRY_RUN_ABOUT),
};

const legacyExample = {
  name: "Example Token",
  symbol: "EXMPL",
  image: "https://example.com/token.png",
  requestorAddress: REQUESTOR,
  requestKey: "example-legacy-request-key-00001",
};

/** 0.3.1: flat fields, the requestor's rewards as a percentage. */
export const deployLegacyBody = z.object(legacyFields).meta({
  id: "DeployLegacyBody",
  title: "0.3.1",
  description: "Legacy 0.3.1: flat fields beyond 0.3.0's five (rewards, vault, pair, social context)",
  examples: [
    {
      ...legacyExample,
      requestorFid: 1,
      creatorRewardsPercentage: 80,
      tokenPair: "WETH",
      description: "An example launch",
      socialMediaUrls: ["https://x.com/example"],
      platform: "farcaster",
      initialMarketCap: 10,
    },
  ],
});

/** 0.3.0: the first five fields of 0.3.1 only (and dryRun); recorded as its own shape. */
export const deployV030Body = z
  .object({
    name: legacyFields.name,
    symbol: legacyFields.symbol,
    image: legacyFields.image,
    requestorAddress: legacyFields.requestorAddress,
    requestKey: legacyFields.requestKey,
    dryRun: legacyFields.dryRun,
  })
  .meta({
    id: "DeployV030Body",
    title: "0.3.0",
    description: "Legacy 0.3.0: name, symbol, image, requestorAddress and requestKey only",
    examples: [legacyExample],
  });

const groupMember = z.object({
  address: address.describe("a member of the group: its own reward admin and recipient"),
  allocation: bpsPercent(0, 100, true).describe(
    "its percent of the creator's share, above 0 and at most 100 (the members sum to 100); creator percent × this must be whole basis points",
  ),
});
/** 3.1.0 (POST /api/tokens/deploy/split). `groupAddresses` may also arrive as a JSON string of the array. */
export const deploySplitBody = z
  .object({
    ...legacyFields,
    vaultPercentage: bpsPercent(0, 30)
      .optional()
      .describe("percent of the supply locked in the vault, 0 to 30 (at most 2 decimals); 0: no vault"),
    creatorAdmin: address
      .optional()
      .describe("the token admin; default: creatorRewardsAdmin, else requestorAddress (it takes no reward share)"),
    groupAddresses: z
      .preprocess(
        (v) => {
          if (typeof v !== "string") return v;
          try {
            return JSON.parse(v);
          } catch {
            return v;
          }
        },
        z.array(groupMember).min(1, "at least 1 group address"),
      )
      .describe(
        "who splits the creator's share: 1 to 5 members (6 when creatorRewardsPercentage is 80), no address twice; also taken as a JSON string of the array",
      ),
  })
  .meta({
    id: "DeploySplitBody",
    title: "3.1.0",
    description: "Split 3.1.0: the legacy fields, the creator's rewards split over groupAddresses",
    examples: [
      {
        ...legacyExample,
        requestKey: "example-split-request-key-000001",
        creatorRewardsPercentage: 40,
        groupAddresses: [
          { address: GROUP[0], allocation: 60 },
          { address: GROUP[1], allocation: 40 },
        ],
      },
    ],
  });

/**
 * What POST /api/tokens/deploy accepts: one of its three shapes, told apart by detectShape (never by trying each),
 * each validated by its own schema above. The OpenAPI document shows this union; the route does not run it.
 */
export const deployEndpointBody = z.union([deployV4Body, deployLegacyBody, deployV030Body]);

export type DeployLegacyBody = z.infer<typeof deployLegacyBody>;
export type DeploySplitBody = z.infer<typeof deploySplitBody>;
export type ParsedDeploy =
  | { shape: "4.0.0"; body: DeployV4Body }
  | { shape: "0.3.1" | "0.3.0"; body: DeployLegacyBody }
  | { shape: "3.1.0"; body: DeploySplitBody };

const V030_FIELDS = new Set(Object.keys(deployV030Body.shape));

/**
 * The shape rule: /split takes 3.1.0; on /deploy a body whose `token` member is an object is 4.0.0, any
 * other is legacy 0.3.1, recorded as 0.3.0 when it carries only 0.3.0's five fields (and dryRun).
 */
export function detectShape(endpoint: "deploy" | "split", raw: Record<string, unknown>): DeployShape {
  if (endpoint === "split") return "3.1.0";
  if (isRecord(raw.token)) return "4.0.0";
  return Object.keys(raw).every((k) => V030_FIELDS.has(k)) ? "0.3.0" : "0.3.1";
}

/** The requestKey a body claims, when it is well formed (for the idempotency lookup before validation). */
export function requestKeyOf(shape: DeployShape, raw: Record<string, unknown>): string | null {
  const key = shape === "4.0.0" ? (isRecord(raw.token) ? raw.token.requestKey : undefined) : raw.requestKey;
  return requestKey.safeParse(key).success ? (key as string) : null;
}

function legacyRules(now: number): CrossRule[] {
  const vault: CrossRule = (raw, add) => {
    const hasVault = isNumber(raw.vaultPercentage) && raw.vaultPercentage > 0;
    const unlock = Number(raw.vaultUnlockTimestamp);
    const hasUnlock = isGiven(raw.vaultUnlockTimestamp) && unlock !== 0;
    if (hasVault && !hasUnlock) add("vaultUnlockTimestamp", "is required when vaultPercentage is greater than 0");
    if (hasUnlock && !isGiven(raw.vaultPercentage))
      add("vaultPercentage", "is required when vaultUnlockTimestamp is given");
    const minimum = Math.floor(now / 1000) + LEGACY_VAULT_MIN_SECONDS;
    if (hasVault && hasUnlock && unlock < minimum) {
      add("vaultUnlockTimestamp", `must be at least 30 days after now (>= ${minimum}; 31 days are suggested)`);
    }
  };
  const aliases: CrossRule = (raw, add) => {
    if (isGiven(raw.requestorFid) && isGiven(raw.requestorId) && String(raw.requestorFid) !== String(raw.requestorId)) {
      add("requestorId", "differs from requestorFid (its legacy form); give one, or the same value");
    }
    if (isGiven(raw.castHash) && isGiven(raw.messageId) && raw.castHash !== raw.messageId) {
      add("messageId", "differs from castHash (its legacy form); give one, or the same value");
    }
  };
  const pair: CrossRule = (raw, add) => {
    if (
      typeof raw.tokenPair === "string" &&
      raw.tokenPair.trim() &&
      !quoteTokenBySymbol(DEFAULT_CHAIN_ID, raw.tokenPair)
    ) {
      const known = quoteTokens(DEFAULT_CHAIN_ID)
        .map((t) => t.symbol)
        .join(", ");
      add("tokenPair", `unknown quote token ${raw.tokenPair} (supported: ${known || "none configured"})`);
    }
    const isWeth =
      raw.tokenPair === undefined ||
      (typeof raw.tokenPair === "string" && ["", "WETH", "ETH"].includes(raw.tokenPair.trim().toUpperCase()));
    if (isGiven(raw.initialMarketCap) && !isWeth)
      add("initialMarketCap", "only for WETH-paired tokens (tokenPair WETH)");
  };
  return [vault, aliases, pair];
}

const splitRules: CrossRule = (raw, add) => {
  let group = raw.groupAddresses;
  if (typeof group === "string") {
    try {
      group = JSON.parse(group);
    } catch {
      return;
    }
  }
  if (!Array.isArray(group) || group.length === 0) return;
  const members = group.filter(isRecord);
  const sum = sumBps(members.map((m) => m.allocation));
  if (sum !== null && sum !== 10_000n)
    add("groupAddresses", `allocations must total 100 (they total ${Number(sum) / 100})`);
  const seen = new Set<string>();
  members.forEach((m, i) => {
    const key = typeof m.address === "string" ? m.address.toLowerCase() : "";
    if (key && seen.has(key)) add(`groupAddresses.${i}.address`, "appears twice");
    seen.add(key);
  });
  const creator = raw.creatorRewardsPercentage ?? 40;
  if (!isNumber(creator)) return;
  if (creator === 0)
    add("creatorRewardsPercentage", "must be greater than 0: groupAddresses split the creator's share");
  // The interface and platform entries take up to two of the factory's seven reward slots.
  const max = MAX_REWARD_RECIPIENTS - (creator === 80 ? 1 : 2);
  if (group.length > max)
    add("groupAddresses", `at most ${max} addresses (the interface and platform shares take the other reward slots)`);
  const creatorBps = percentToBps(creator);
  members.forEach((m, i) => {
    const bps = isNumber(m.allocation) ? percentToBps(m.allocation) : null;
    if (creatorBps !== null && bps !== null && (creatorBps * bps) % 10_000n !== 0n) {
      add(
        `groupAddresses.${i}.allocation`,
        `${m.allocation}% of a ${creator}% creator share is not a whole number of basis points`,
      );
    }
  });
};

/** Validates a body of the given shape; throws one 400 listing every violation. `now` in ms. */
export function parseDeployBody(shape: DeployShape, raw: unknown, now = Date.now()): ParsedDeploy {
  switch (shape) {
    case "4.0.0":
      return {
        shape,
        body: validateAll(deployV4Body, raw, v4Rules),
      };
    case "0.3.1":
      return { shape, body: validateAll(deployLegacyBody, raw, legacyRules(now)) };
    case "0.3.0":
      return { shape, body: validateAll(deployV030Body, raw, legacyRules(now)) };
    case "3.1.0":
      return { shape, body: validateAll(deploySplitBody, raw, [...legacyRules(now), splitRules]) };
  }
}
