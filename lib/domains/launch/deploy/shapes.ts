// The four deploy request shapes (interface 4.10), the rule telling them apart, and their validation:
// field rules in zod, cross-field rules below, every violation listed in one 400. The same zod schemas are the
// OpenAPI document's request bodies (with a title and a valid example each), so the two cannot drift.
import { z } from "zod";
import { configuredChainIds, chainSettings } from "@/lib/platform/chain";
import {
  address,
  bpsPercent,
  DESCRIPTION_MAX,
  feePercent,
  isRecord,
  marketCap,
  requestKey,
  seconds,
  sumBps,
  text,
  tokenName,
  tokenSymbol,
  url,
  URLS_MAX,
  validateAll,
  type CrossRule,
} from "./fields";
import { quoteTokenBySymbol, quoteTokens } from "./quote-tokens";
import { percentToBps } from "./units";
import type { DeployShape } from "@/db/tables/deploy";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

export const MAX_REWARD_RECIPIENTS = 7;
export const VAULT_MIN_LOCKUP_SECONDS = 604_800;
export const LEGACY_VAULT_MIN_SECONDS = 30 * 86_400;

const socialLink = z.union([url, z.object({ platform: text(32, 1), url }).strict()]);

/** The examples' addresses and keys (any address will do; a requestKey is 32 URL-safe characters). */
const ADMIN = "0x1111111111111111111111111111111111111111";
const REQUESTOR = "0x2222222222222222222222222222222222222222";
const GROUP = ["0x3333333333333333333333333333333333333333", "0x4444444444444444444444444444444444444444"];
const urls = <T extends z.ZodType>(item: T) => z.array(item).max(URLS_MAX, `at most ${URLS_MAX} URLs`);

export const deployV4Body = z
  .object({
    token: z
      .object({
        name: tokenName,
        symbol: tokenSymbol,
        image: url.optional(),
        tokenAdmin: address,
        description: text(DESCRIPTION_MAX).optional(),
        socialMediaUrls: urls(socialLink).optional(),
        auditUrls: urls(url).optional(),
        requestKey,
      })
      .strict(),
    rewards: z
      .array(z.object({ admin: address, recipient: address, allocation: bpsPercent(0, 100, true) }).strict())
      .min(1, "at least 1 reward recipient")
      .max(MAX_REWARD_RECIPIENTS, `at most ${MAX_REWARD_RECIPIENTS} reward recipients`),
    pool: z
      .object({
        type: z.enum(["standard", "project"]).optional(),
        pairedToken: address.optional(),
        initialMarketCap: marketCap().optional(),
      })
      .strict()
      .optional(),
    fees: z
      .object({
        type: z.enum(["static", "dynamic"]).optional(),
        tokenFee: feePercent(0, 5).optional(),
        pairedFee: feePercent(0, 5).optional(),
        baseFee: feePercent(0.25, 5).optional(),
        maxLpFee: feePercent(0.25, 5).optional(),
      })
      .strict()
      .optional(),
    vault: z
      .object({
        percentage: bpsPercent(0, 90, true).optional(),
        lockupDuration: seconds(VAULT_MIN_LOCKUP_SECONDS).optional(),
        vestingDuration: seconds(0).optional(),
      })
      .strict()
      .optional(),
    /** Beyond the interface: a chain with an RPC and a factory configured; default 8453. */
    chainId: z.number().int().positive().optional(),
    dryRun: z.boolean().optional(),
  })
  .strict()
  .meta({
    title: "4.0.0",
    description: "Version 4: token, reward recipients, pool, fees and vault as objects (told apart by `token`)",
    examples: [
      {
        token: {
          name: "Example Token",
          symbol: "EXMPL",
          tokenAdmin: ADMIN,
          image: "https://example.com/token.png",
          description: "An example launch",
          socialMediaUrls: [{ platform: "x", url: "https://x.com/example" }],
          requestKey: "example-v4-request-key-000000001",
        },
        rewards: [
          { admin: ADMIN, recipient: ADMIN, allocation: 80 },
          { admin: ADMIN, recipient: REQUESTOR, allocation: 20 },
        ],
        pool: { type: "standard", initialMarketCap: 10 },
        fees: { type: "static", tokenFee: 1, pairedFee: 1 },
        vault: { percentage: 10, lockupDuration: VAULT_MIN_LOCKUP_SECONDS, vestingDuration: 0 },
        dryRun: true,
      },
    ],
  });

const legacyFields = {
  name: tokenName,
  symbol: tokenSymbol,
  image: url,
  requestorAddress: address,
  requestKey,
  creatorRewardsPercentage: bpsPercent(0, 80).optional(),
  requestorFid: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  requestorId: z.union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), text(64, 1)]).optional(),
  tokenPair: text(16, 1).optional(),
  description: text(DESCRIPTION_MAX).optional(),
  socialMediaUrls: urls(url).optional(),
  platform: text(64).optional(),
  castHash: text(256).optional(),
  messageId: text(256).optional(),
  vaultUnlockTimestamp: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  vaultPercentage: bpsPercent(0, 90).optional(),
  creatorRewardsAdmin: address.optional(),
  initialMarketCap: marketCap(1).optional(),
  dryRun: z.boolean().optional(),
};

const legacyExample = {
  name: "Example Token",
  symbol: "EXMPL",
  image: "https://example.com/token.png",
  requestorAddress: REQUESTOR,
  requestKey: "example-legacy-request-key-00001",
};

/** 0.3.1: flat fields, the requestor's rewards as a percentage. */
export const deployLegacyBody = z
  .object(legacyFields)
  .strict()
  .meta({
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
  .strict()
  .meta({
    title: "0.3.0",
    description: "Legacy 0.3.0: name, symbol, image, requestorAddress and requestKey only",
    examples: [legacyExample],
  });

const groupMember = z.object({ address, allocation: bpsPercent(0, 100, true) }).strict();
/** 3.1.0 (POST /api/tokens/deploy/split). `groupAddresses` may also arrive as a JSON string of the array. */
export const deploySplitBody = z
  .object({
    ...legacyFields,
    vaultPercentage: bpsPercent(0, 30).optional(),
    creatorAdmin: address.optional(),
    groupAddresses: z.preprocess(
      (v) => {
        if (typeof v !== "string") return v;
        try {
          return JSON.parse(v);
        } catch {
          return v;
        }
      },
      z.array(groupMember).min(1, "at least 1 group address"),
    ),
  })
  .strict()
  .meta({
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

export type DeployV4Body = z.infer<typeof deployV4Body>;
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

const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const given = (v: unknown) => v !== undefined;

const rewardsSum: CrossRule = (raw, add) => {
  if (!Array.isArray(raw.rewards) || raw.rewards.length === 0) return;
  const sum = sumBps(raw.rewards.map((r) => (isRecord(r) ? r.allocation : undefined)));
  if (sum !== null && sum !== 10_000n) add("rewards", `allocations must sum to 100 (they sum to ${Number(sum) / 100})`);
};

const v4Pool: CrossRule = (raw, add) => {
  const pool = isRecord(raw.pool) ? raw.pool : {};
  if (pool.type !== "project") return;
  if (given(pool.pairedToken)) add("pool.pairedToken", "only for pool.type standard (project pools pair with WETH)");
  if (given(pool.initialMarketCap))
    add("pool.initialMarketCap", "only for pool.type standard (project pools start at the default tick)");
};

const v4Fees: CrossRule = (raw, add) => {
  if (!isRecord(raw.fees)) return;
  const f = raw.fees;
  const type = f.type ?? "static";
  if (type === "static") {
    for (const k of ["baseFee", "maxLpFee"]) if (given(f[k])) add(`fees.${k}`, "only with fees.type dynamic");
  } else if (type === "dynamic") {
    for (const k of ["tokenFee", "pairedFee"]) if (given(f[k])) add(`fees.${k}`, "only with fees.type static");
    const base = given(f.baseFee) ? f.baseFee : 0.5;
    const max = given(f.maxLpFee) ? f.maxLpFee : 5;
    if (num(base) && num(max) && base > max) add("fees.baseFee", "must not exceed fees.maxLpFee");
  }
};

const v4Vault: CrossRule = (raw, add) => {
  if (!isRecord(raw.vault)) return;
  const v = raw.vault;
  if (!given(v.percentage)) {
    add("vault.percentage", "is required when vault is given");
    return;
  }
  if (!given(v.lockupDuration)) add("vault.lockupDuration", "is required when vault.percentage is given");
  if (!given(v.vestingDuration)) add("vault.vestingDuration", "is required when vault.percentage is given");
};

const v4Chain: CrossRule = (raw, add) => {
  if (!num(raw.chainId)) return;
  if (!configuredChainIds().includes(raw.chainId) || !chainSettings(raw.chainId).contracts.factory) {
    add(
      "chainId",
      `chain ${raw.chainId} is not configured for deployments (configured: ${configuredChainIds().join(", ") || "none"})`,
    );
  }
};

function legacyRules(now: number): CrossRule[] {
  const vault: CrossRule = (raw, add) => {
    const hasVault = num(raw.vaultPercentage) && raw.vaultPercentage > 0;
    if (hasVault && !given(raw.vaultUnlockTimestamp))
      add("vaultUnlockTimestamp", "is required when vaultPercentage is greater than 0");
    if (given(raw.vaultUnlockTimestamp) && !given(raw.vaultPercentage))
      add("vaultPercentage", "is required when vaultUnlockTimestamp is given");
    const minimum = Math.floor(now / 1000) + LEGACY_VAULT_MIN_SECONDS;
    if (hasVault && num(raw.vaultUnlockTimestamp) && raw.vaultUnlockTimestamp < minimum) {
      add("vaultUnlockTimestamp", `must be at least 30 days after now (>= ${minimum}; 31 days are suggested)`);
    }
  };
  const aliases: CrossRule = (raw, add) => {
    if (given(raw.requestorFid) && given(raw.requestorId) && String(raw.requestorFid) !== String(raw.requestorId)) {
      add("requestorId", "differs from requestorFid (its legacy form); give one, or the same value");
    }
    if (given(raw.castHash) && given(raw.messageId) && raw.castHash !== raw.messageId) {
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
      (typeof raw.tokenPair === "string" && raw.tokenPair.trim().toUpperCase() === "WETH");
    if (given(raw.initialMarketCap) && !isWeth) add("initialMarketCap", "only for WETH-paired tokens (tokenPair WETH)");
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
  if (!num(creator)) return;
  if (creator === 0)
    add("creatorRewardsPercentage", "must be greater than 0: groupAddresses split the creator's share");
  // The interface and platform entries take up to two of the factory's seven reward slots.
  const max = MAX_REWARD_RECIPIENTS - (creator === 80 ? 1 : 2);
  if (group.length > max)
    add("groupAddresses", `at most ${max} addresses (the interface and platform shares take the other reward slots)`);
  const creatorBps = percentToBps(creator);
  members.forEach((m, i) => {
    const bps = num(m.allocation) ? percentToBps(m.allocation) : null;
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
      return { shape, body: validateAll(deployV4Body, raw, [rewardsSum, v4Pool, v4Fees, v4Vault, v4Chain]) };
    case "0.3.1":
      return { shape, body: validateAll(deployLegacyBody, raw, legacyRules(now)) };
    case "0.3.0":
      return { shape, body: validateAll(deployV030Body, raw, legacyRules(now)) };
    case "3.1.0":
      return { shape, body: validateAll(deploySplitBody, raw, [...legacyRules(now), splitRules]) };
  }
}
