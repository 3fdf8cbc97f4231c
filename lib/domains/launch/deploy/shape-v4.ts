// The 4.0.0 deploy body: token, reward recipients, pool, fees, vault, and the platform API's airdrop, context,
// sniper fees and chainId (the SDK's names and units), with its cross-field rules. shapes.ts tells the shapes
// apart and validates each; this schema is also the OpenAPI document's 4.0.0 body.
import { z } from "zod";
import { configuredChainIds, chainSettings } from "@/lib/platform/chain";
import { zBytes32, zIntLike } from "@/lib/core/input";
import {
  REWARDS_TOKENS,
  SNIPER_DECAY_MAX_SECONDS,
  SNIPER_FEE_DEFAULTS,
  SNIPER_FEE_MAX,
  SNIPER_FEE_MIN,
} from "./config";
import {
  address,
  AIRDROP_MAX_TOKENS,
  AIRDROP_MIN_LOCKUP_SECONDS,
  AIRDROP_MIN_TOKENS,
  bpsPercent,
  DESCRIPTION_MAX,
  EXAMPLE_ADDRESSES,
  feePercent,
  isGiven,
  isNumber,
  isRecord,
  MAX_REWARD_RECIPIENTS,
  marketCap,
  optionalImage,
  pairedTokenAddress,
  requestKey,
  seconds,
  socialContext,
  socialLink,
  sumBps,
  text,
  tokenName,
  tokenSymbol,
  url,
  urls,
  WETH_WORD,
  VAULT_MIN_LOCKUP_SECONDS,
  type CrossRule,
} from "./fields";
import { airdropBps, percentToBps } from "./units";

const { admin: ADMIN, requestor: REQUESTOR } = EXAMPLE_ADDRESSES;

const rewardEntry = z.object({
  admin: address.describe("may change this entry's admin and recipient"),
  recipient: address.describe("receives this entry's share of the LP fees"),
  allocation: bpsPercent(0, 100, true).describe("percent of the LP fees (at most 2 decimals); the entries sum to 100"),
  rewardsToken: z
    .enum(REWARDS_TOKENS)
    .optional()
    .describe(
      "the token this recipient takes its fees in: Both (default), Paired (the paired token) or Clanker (the new token)",
    ),
});

/** The SDK's airdrop: amount in whole tokens (of 100 billion), lockup at least a day. */
const airdrop = z.object({
  admin: address.optional().describe("may update the airdrop's Merkle root; default: token.tokenAdmin"),
  merkleRoot: zBytes32.describe(
    "root of the airdrop's Merkle tree (upload the tree with POST /api/airdrops once the token exists)",
  ),
  lockupDuration: seconds(AIRDROP_MIN_LOCKUP_SECONDS).describe("seconds before claims open; at least 86,400"),
  vestingDuration: seconds(0).optional().describe("seconds of linear vesting after the lockup; default 0"),
  amount: z
    .number()
    .int("must be a whole number of tokens")
    .min(AIRDROP_MIN_TOKENS, `must be at least ${AIRDROP_MIN_TOKENS} (25 basis points of the supply)`)
    .max(AIRDROP_MAX_TOKENS, `must be at most ${AIRDROP_MAX_TOKENS} (90% of the supply)`)
    .describe(
      "whole tokens (of 100,000,000,000) set aside for the airdrop; the extension takes the basis points rounded up",
    ),
});

const sniperFee = z
  .number()
  .int("must be a whole number of millionths")
  .min(SNIPER_FEE_MIN, `must be at least ${SNIPER_FEE_MIN}`)
  .max(SNIPER_FEE_MAX, `must be at most ${SNIPER_FEE_MAX}`);

/** The SDK's sniperFees, in its units: fee millionths (1,000,000 = 100%) and seconds. */
const sniperFees = z.object({
  startingFee: sniperFee
    .optional()
    .describe(
      `the fee when the pool opens, millionths (666,777 = 66.6777%); default ${SNIPER_FEE_DEFAULTS.startingFee}`,
    ),
  endingFee: sniperFee
    .optional()
    .describe(`the fee it descends to, below startingFee; default ${SNIPER_FEE_DEFAULTS.endingFee}`),
  secondsToDecay: z
    .number()
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1")
    .max(SNIPER_DECAY_MAX_SECONDS, `must be at most ${SNIPER_DECAY_MAX_SECONDS}`)
    .optional()
    .describe(`seconds from startingFee to endingFee; default ${SNIPER_FEE_DEFAULTS.secondsToDecay}`),
});

export const deployV4Body = z
  .object({
    token: z
      .object({
        name: tokenName,
        symbol: tokenSymbol,
        image: optionalImage.describe(
          'the token\'s image, an http(s) or ipfs URL of at most 2048 characters; `""` or none: no image',
        ),
        tokenAdmin: address.describe(
          "the token's admin (may update its image and metadata), and the default reward and vault recipient",
        ),
        description: text(DESCRIPTION_MAX)
          .optional()
          .describe(`the token's description, at most ${DESCRIPTION_MAX} characters (in its metadata)`),
        socialMediaUrls: urls(socialLink)
          .optional()
          .describe("at most 10 links: a URL (its platform read from the host) or `{ platform, url }`"),
        auditUrls: urls(url).optional().describe("at most 10 http(s) or ipfs URLs of audits (in its metadata)"),
        requestKey,
      })
      .describe("the token itself; an object here is what makes a body 4.0.0"),
    rewards: z
      .array(rewardEntry)
      .min(1, "at least 1 reward recipient")
      .max(MAX_REWARD_RECIPIENTS, `at most ${MAX_REWARD_RECIPIENTS} reward recipients`)
      .optional()
      .describe("1 to 7 reward recipients; default: token.tokenAdmin takes 100% in both tokens"),
    pool: z
      .object({
        type: z
          .enum(["standard", "project"])
          .optional()
          .describe(
            "standard (default): one position from the starting tick; project: five preset positions, paired with WETH at tick -230400",
          ),
        pairedToken: pairedTokenAddress.describe(
          "the token to pair with: an ERC-20 address, or `WETH` (the default) for the chain's WETH",
        ),
        initialMarketCap: marketCap()
          .optional()
          .describe(
            "starting market cap in whole paired tokens (standard pools); default: 10 for WETH, a configured quote token's own default, else tick -230400 as the platform's SDK",
          ),
      })
      .optional()
      .describe("the Uniswap v4 pool the token opens in; default: standard, paired with WETH, market cap 10 WETH"),
    fees: z
      .object({
        type: z
          .enum(["static", "dynamic"])
          .optional()
          .describe("static (default): tokenFee and pairedFee; dynamic: a fee between baseFee and maxLpFee"),
        tokenFee: feePercent(0, 5)
          .optional()
          .describe(
            "static: the swap fee on the token's side, percent 0 to 5 (not bps; at most 4 decimals, 1% = 10,000 millionths on chain); default 1 (the platform's clankerFee)",
          ),
        pairedFee: feePercent(0, 5)
          .optional()
          .describe(
            "static: the swap fee on the paired token's side, percent 0 to 5 (not bps; at most 4 decimals); default 1",
          ),
        baseFee: feePercent(0.25, 5)
          .optional()
          .describe("dynamic: the lowest fee, percent 0.25 to 5 (at most 4 decimals), at most maxLpFee; default 0.5"),
        maxLpFee: feePercent(0.25, 5)
          .optional()
          .describe("dynamic: the highest fee, percent 0.25 to 5 (at most 4 decimals); default 5"),
      })
      .optional()
      .describe("the pool's LP fees, in percent; default: static, 1% on each side"),
    vault: z
      .object({
        percentage: bpsPercent(0, 90)
          .optional()
          .describe("percent of the supply vaulted, at most 90; 0 is no vault (as the SDK allows it)"),
        lockupDuration: seconds(VAULT_MIN_LOCKUP_SECONDS)
          .optional()
          .describe(
            `seconds before the vaulted tokens start to unlock, at least ${VAULT_MIN_LOCKUP_SECONDS} (7 days); required with a percentage above 0`,
          ),
        vestingDuration: seconds(0).optional().describe("seconds of linear vesting after the lockup; default 0"),
        recipient: address.optional().describe("receives the vaulted tokens; default: token.tokenAdmin"),
      })
      .optional()
      .describe("part of the supply locked in the vault extension, then vested; default: none"),
    airdrop: airdrop
      .optional()
      .describe("an airdrop of part of the supply through the airdrop extension (the SDK's names and units)"),
    context: socialContext
      .optional()
      .describe(
        "the token's social context (its `context` JSON); interface defaults to the API key's partner name, the others to empty",
      ),
    sniperFees: sniperFees
      .optional()
      .describe("the sniper auction's fees at launch (the SDK's sniperFees); defaults 666777, 41673 and 15 s"),
    chainId: zIntLike(1, 2 ** 31 - 1)
      .optional()
      .describe(
        "the chain to deploy on, one with an RPC and a factory configured (a number or its text); default 8453",
      ),
    dryRun: z
      .boolean()
      .optional()
      .describe(
        "true: validate and simulate the deployment, answer what would be sent, store and send nothing (default false)",
      ),
  })
  .meta({
    id: "DeployV4Body",
    title: "4.0.0",
    description:
      "Version 4: token, reward recipients, pool, fees, vault, airdrop, context and sniper fees as objects (told apart by `token`)",
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
          { admin: ADMIN, recipient: ADMIN, allocation: 80, rewardsToken: "Both" },
          { admin: ADMIN, recipient: REQUESTOR, allocation: 20, rewardsToken: "Paired" },
        ],
        pool: { type: "standard", initialMarketCap: 10 },
        fees: { type: "static", tokenFee: 1, pairedFee: 1 },
        vault: { percentage: 10, lockupDuration: VAULT_MIN_LOCKUP_SECONDS, vestingDuration: 0 },
        airdrop: {
          merkleRoot: "0x1f0b8ea7c3a8b8a3f5c9b7d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1",
          lockupDuration: AIRDROP_MIN_LOCKUP_SECONDS,
          vestingDuration: 0,
          amount: 5_000_000_000,
        },
        context: { interface: "Example", platform: "farcaster", messageId: "0xcafe", id: "1" },
        sniperFees: { startingFee: 666_777, endingFee: 41_673, secondsToDecay: 15 },
        dryRun: true,
      },
    ],
  });

export type DeployV4Body = z.infer<typeof deployV4Body>;

const rewardsSum: CrossRule = (raw, add) => {
  if (!Array.isArray(raw.rewards) || raw.rewards.length === 0) return;
  const sum = sumBps(raw.rewards.map((r) => (isRecord(r) ? r.allocation : undefined)));
  if (sum !== null && sum !== 10_000n) add("rewards", `allocations must sum to 100 (they sum to ${Number(sum) / 100})`);
};

const v4Pool: CrossRule = (raw, add) => {
  const pool = isRecord(raw.pool) ? raw.pool : {};
  if (pool.type !== "project") return;
  if (isGiven(pool.pairedToken) && !WETH_WORD.test(String(pool.pairedToken)))
    add("pool.pairedToken", "only for pool.type standard (project pools pair with WETH)");
  if (isGiven(pool.initialMarketCap))
    add("pool.initialMarketCap", "only for pool.type standard (project pools start at the default tick)");
};

const v4Fees: CrossRule = (raw, add) => {
  if (!isRecord(raw.fees)) return;
  const f = raw.fees;
  // The platform's name of tokenFee (the interface renamed it). Ignored as an unknown member, it would deploy with
  // the default fee instead of the one asked for: a fee on chain cannot be taken back, so it is refused.
  if (isGiven(f.clankerFee)) add("fees.clankerFee", "is named fees.tokenFee here (a percent, as on the platform)");
  const type = f.type ?? "static";
  if (type === "static") {
    for (const k of ["baseFee", "maxLpFee"]) if (isGiven(f[k])) add(`fees.${k}`, "only with fees.type dynamic");
  } else if (type === "dynamic") {
    for (const k of ["tokenFee", "pairedFee"]) if (isGiven(f[k])) add(`fees.${k}`, "only with fees.type static");
    const base = isGiven(f.baseFee) ? f.baseFee : 0.5;
    const max = isGiven(f.maxLpFee) ? f.maxLpFee : 5;
    if (isNumber(base) && isNumber(max) && base > max) add("fees.baseFee", "must not exceed fees.maxLpFee");
  }
};

const v4Vault: CrossRule = (raw, add) => {
  if (!isRecord(raw.vault)) return;
  const v = raw.vault;
  if (!isGiven(v.percentage)) {
    add("vault.percentage", "is required when vault is given");
    return;
  }
  if (v.percentage !== 0 && !isGiven(v.lockupDuration))
    add("vault.lockupDuration", "is required when vault.percentage is given");
};

/** The factory takes at most 90% of the supply for extensions: vault and airdrop together (each alone is bounded above). */
const v4Extensions: CrossRule = (raw, add) => {
  const percentage = isRecord(raw.vault) ? raw.vault.percentage : undefined;
  const tokens = isRecord(raw.airdrop) ? raw.airdrop.amount : undefined;
  if (!isNumber(percentage) || percentage <= 0 || percentage > 90 || !isNumber(tokens) || !Number.isInteger(tokens))
    return;
  const vault = percentToBps(percentage);
  const airdrop = tokens > 0 && tokens <= AIRDROP_MAX_TOKENS ? airdropBps(tokens) : null;
  if (vault === null || airdrop === null || vault + airdrop <= 9_000n) return;
  add(
    "airdrop.amount",
    `vault and airdrop together take at most 90% of the supply (they take ${Number(vault + airdrop) / 100}%)`,
  );
};

const v4SniperFees: CrossRule = (raw, add) => {
  if (!isRecord(raw.sniperFees)) return;
  const starting = raw.sniperFees.startingFee ?? SNIPER_FEE_DEFAULTS.startingFee;
  const ending = raw.sniperFees.endingFee ?? SNIPER_FEE_DEFAULTS.endingFee;
  if (isNumber(starting) && isNumber(ending) && ending >= starting)
    add("sniperFees.endingFee", `must be below sniperFees.startingFee (${starting})`);
};

const v4Chain: CrossRule = (raw, add) => {
  const chainId =
    typeof raw.chainId === "string" && /^\d{1,10}$/.test(raw.chainId.trim()) ? Number(raw.chainId) : raw.chainId;
  if (!isNumber(chainId) || !Number.isInteger(chainId)) return;
  if (!configuredChainIds().includes(chainId) || !chainSettings(chainId).contracts.factory) {
    add(
      "chainId",
      `chain ${chainId} is not configured for deployments (configured: ${configuredChainIds().join(", ") || "none"})`,
    );
  }
};

export const v4Rules: CrossRule[] = [rewardsSum, v4Pool, v4Fees, v4Vault, v4Extensions, v4SniperFees, v4Chain];
