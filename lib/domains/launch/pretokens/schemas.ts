// POST /api/pretoken/v4 body: the types of token_settings, vault_settings and airdrop members are this
// service's (the interface leaves them open); docs/token-deploy.md "Pretokens" lists them.
import { z } from "zod";
import { configuredChainIds, chainSettings } from "@/lib/platform/chain";
import {
  address,
  AIRDROP_MIN_LOCKUP_SECONDS,
  bpsPercent,
  DESCRIPTION_MAX,
  isRecord,
  MAX_REWARD_RECIPIENTS,
  marketCap,
  optionalImage,
  pairedTokenAddress,
  seconds,
  socialContext,
  socialLink,
  sumBps,
  text,
  tokenName,
  tokenSymbol,
  url,
  URLS_MAX,
  VAULT_MIN_LOCKUP_SECONDS,
  WETH_WORD,
  type CrossRule,
} from "@/lib/domains/launch/deploy/fields";
import { zBytes32, zIntLike } from "@/lib/core/input";

export const pretokenBody = z
  .object({
    keyword: text(64, 1).describe("the pretoken's keyword, 1 to 64 characters (stored and listed with it)"),
    chain_id: zIntLike(1, 2 ** 31 - 1).describe(
      "the chain to deploy on, one the service has configured (a number or its decimal text), e.g. 8453",
    ),
    token_settings: z
      .object({
        name: tokenName,
        symbol: tokenSymbol,
        image_url: optionalImage.describe(
          'the token\'s image, an http(s) or ipfs URL of at most 2048 characters; `""` or none: no image',
        ),
        description: text(DESCRIPTION_MAX)
          .optional()
          .describe(
            `the token's description, at most ${DESCRIPTION_MAX} characters (or metadata.description, not both)`,
          ),
        /** Reward recipients; the first entry's admin is also the token admin. */
        admins: z
          .array(
            z
              .object({
                admin: address.describe(
                  "may change this entry's admin and recipient (the first one is the token admin)",
                ),
                recipient: address.describe("receives this entry's share of the LP fees, in both tokens"),
                allocation: bpsPercent(0, 100, true).describe(
                  "percent of the LP fees, above 0 and at most 100 (at most 2 decimals); the entries sum to 100",
                ),
              })
              .strict(),
          )
          .min(1, "at least 1 admin entry")
          .max(MAX_REWARD_RECIPIENTS, `at most ${MAX_REWARD_RECIPIENTS} admin entries`)
          .describe(`the reward recipients, 1 to ${MAX_REWARD_RECIPIENTS}; admins[0].admin is the token admin`),
        paired_token: pairedTokenAddress.describe(
          "the token to pair with: an ERC-20 address, or `WETH` (the default) for the chain's WETH (standard pools)",
        ),
        pool_config_type: z
          .enum(["standard", "project"])
          .optional()
          .describe(
            "standard (default): one position from the starting market cap; project: five preset positions, WETH",
          ),
        starting_market_cap: marketCap()
          .optional()
          .describe("starting market cap in whole paired tokens, above 0 (standard pools); default 10 for WETH"),
        fee_config_type: z
          .enum(["static", "dynamic"])
          .optional()
          .describe("static (default): 1% on each side; dynamic: 0.5% to 5%"),
        metadata: z
          .object({
            description: text(DESCRIPTION_MAX)
              .optional()
              .describe(`the token's description, at most ${DESCRIPTION_MAX} characters`),
            socialMediaUrls: z
              .array(socialLink)
              .max(URLS_MAX, `at most ${URLS_MAX} URLs`)
              .optional()
              .describe(`at most ${URLS_MAX} links: a URL (its platform read from the host) or \`{ platform, url }\``),
            auditUrls: z
              .array(url)
              .max(URLS_MAX, `at most ${URLS_MAX} URLs`)
              .optional()
              .describe(`at most ${URLS_MAX} http(s) or ipfs URLs of audits`),
          })
          .strict()
          .optional()
          .describe("the token's metadata: description, links and audits"),
        social_context: socialContext
          .optional()
          .describe("the token's social context: interface, platform, messageId and id, all optional"),
      })
      .strict()
      .describe("the token: name, symbol, image, reward recipients, pool and fees"),
    vault_settings: z
      .object({
        percentage: bpsPercent(0, 90, true).describe(
          "percent of the supply locked in the vault, above 0 and at most 90 (at most 2 decimals)",
        ),
        lockup_duration: seconds(VAULT_MIN_LOCKUP_SECONDS).describe(
          `seconds before the vaulted tokens start to unlock, at least ${VAULT_MIN_LOCKUP_SECONDS} (7 days)`,
        ),
        vesting_duration: seconds(0).optional().describe("seconds of linear vesting after the lockup; default 0"),
      })
      .strict()
      .optional()
      .describe("part of the supply locked for the token admin, then vested; with airdrop at most 90% in all"),
    airdrop: z
      .object({
        merkle_root: zBytes32.describe("root of the airdrop's Merkle tree, 0x + 64 hex digits"),
        percentage: bpsPercent(0, 90, true).describe(
          "percent of the supply set aside for the airdrop, above 0 and at most 90 (at most 2 decimals)",
        ),
        lockup_duration: seconds(AIRDROP_MIN_LOCKUP_SECONDS).describe(
          `seconds before claims open, at least ${AIRDROP_MIN_LOCKUP_SECONDS} (a day)`,
        ),
        vesting_duration: seconds(0).optional().describe("seconds of linear vesting after the lockup; default 0"),
        admin: address.optional().describe("may update the airdrop's Merkle root; default: the token admin"),
      })
      .strict()
      .optional()
      .describe("an airdrop of part of the supply through the airdrop extension"),
  })
  .strict()
  .meta({
    examples: [
      {
        keyword: "example",
        chain_id: 8453,
        token_settings: {
          name: "Example Token",
          symbol: "EXMPL",
          image_url: "https://example.com/token.png",
          description: "An example launch",
          admins: [
            {
              admin: "0x1111111111111111111111111111111111111111",
              recipient: "0x1111111111111111111111111111111111111111",
              allocation: 100,
            },
          ],
          pool_config_type: "standard",
          starting_market_cap: 10,
          fee_config_type: "static",
          metadata: { socialMediaUrls: [{ platform: "x", url: "https://x.com/example" }] },
          social_context: { interface: "example", platform: "farcaster" },
        },
        vault_settings: { percentage: 10, lockup_duration: VAULT_MIN_LOCKUP_SECONDS, vesting_duration: 0 },
        airdrop: {
          merkle_root: "0x1f0b8ea7c3a8b8a3f5c9b7d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1",
          percentage: 5,
          lockup_duration: AIRDROP_MIN_LOCKUP_SECONDS,
        },
      },
    ],
  });

export type PretokenBody = z.infer<typeof pretokenBody>;

const settingsOf = (raw: Record<string, unknown>) => (isRecord(raw.token_settings) ? raw.token_settings : {});

export const pretokenRules: CrossRule[] = [
  (raw, add) => {
    const admins = settingsOf(raw).admins;
    if (!Array.isArray(admins) || admins.length === 0) return;
    const sum = sumBps(admins.map((a) => (isRecord(a) ? a.allocation : undefined)));
    if (sum !== null && sum !== 10_000n)
      add("token_settings.admins", `allocations must sum to 100 (they sum to ${Number(sum) / 100})`);
  },
  (raw, add) => {
    const s = settingsOf(raw);
    if (s.pool_config_type !== "project") return;
    if (s.paired_token !== undefined && !WETH_WORD.test(String(s.paired_token)))
      add("token_settings.paired_token", "only for pool_config_type standard (project pools pair with WETH)");
    if (s.starting_market_cap !== undefined)
      add("token_settings.starting_market_cap", "only for pool_config_type standard");
  },
  (raw, add) => {
    const s = settingsOf(raw);
    if (s.description !== undefined && isRecord(s.metadata) && s.metadata.description !== undefined) {
      add(
        "token_settings.metadata.description",
        "give the description once (token_settings.description or metadata.description)",
      );
    }
  },
  (raw, add) => {
    const shares = [raw.vault_settings, raw.airdrop].filter(isRecord).map((e) => e.percentage);
    const sum = shares.length > 1 ? sumBps(shares) : null;
    if (sum !== null && sum > 9_000n)
      add(
        "airdrop.percentage",
        `vault and airdrop together take at most 90% of the supply (they take ${Number(sum) / 100}%)`,
      );
  },
  (raw, add) => {
    const chainId =
      typeof raw.chain_id === "string" && /^\d+$/.test(raw.chain_id) ? Number(raw.chain_id) : raw.chain_id;
    if (typeof chainId !== "number" || !Number.isInteger(chainId)) return;
    if (!configuredChainIds().includes(chainId) || !chainSettings(chainId).contracts.factory) {
      add("chain_id", `chain ${chainId} is not configured for deployments`);
    }
  },
];
