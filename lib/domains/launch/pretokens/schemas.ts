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
    keyword: text(64, 1),
    chain_id: zIntLike(1, 2 ** 31 - 1),
    token_settings: z
      .object({
        name: tokenName,
        symbol: tokenSymbol,
        image_url: optionalImage,
        description: text(DESCRIPTION_MAX).optional(),
        /** Reward recipients; the first entry's admin is also the token admin. */
        admins: z
          .array(z.object({ admin: address, recipient: address, allocation: bpsPercent(0, 100, true) }).strict())
          .min(1, "at least 1 admin entry")
          .max(MAX_REWARD_RECIPIENTS, `at most ${MAX_REWARD_RECIPIENTS} admin entries`),
        paired_token: pairedTokenAddress,
        pool_config_type: z.enum(["standard", "project"]).optional(),
        starting_market_cap: marketCap().optional(),
        fee_config_type: z.enum(["static", "dynamic"]).optional(),
        metadata: z
          .object({
            description: text(DESCRIPTION_MAX).optional(),
            socialMediaUrls: z.array(socialLink).max(URLS_MAX, `at most ${URLS_MAX} URLs`).optional(),
            auditUrls: z.array(url).max(URLS_MAX, `at most ${URLS_MAX} URLs`).optional(),
          })
          .strict()
          .optional(),
        social_context: socialContext.optional(),
      })
      .strict(),
    vault_settings: z
      .object({
        percentage: bpsPercent(0, 90, true),
        lockup_duration: seconds(VAULT_MIN_LOCKUP_SECONDS),
        vesting_duration: seconds(0).optional(),
      })
      .strict()
      .optional(),
    airdrop: z
      .object({
        merkle_root: zBytes32,
        percentage: bpsPercent(0, 90, true),
        lockup_duration: seconds(AIRDROP_MIN_LOCKUP_SECONDS),
        vesting_duration: seconds(0).optional(),
        admin: address.optional(),
      })
      .strict()
      .optional(),
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
