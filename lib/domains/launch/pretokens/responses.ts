// Answer shapes of the pretoken endpoints (COMPAT: `{ success: true }`, `{ pendingPretokens: [...] }`), for the OpenAPI document.
import { z } from "zod";
import { bytes32Hex, checksummedAddress } from "@/lib/core/answers";
import { STORED_ADDRESS } from "@/lib/core/evm";

const storedAddress = z.string().regex(STORED_ADDRESS).describe("0x address, lowercase as stored");
const isoTime = z.iso.datetime().describe("ISO 8601, UTC");
const expectedAddress = checksummedAddress.describe(
  "where the token will be deployed (the simulated deployment's address)",
);
const seconds = z.number().int().describe("seconds");
const percent = z.number().describe("percent");

/** The create body's settings as validated and stored (strings trimmed, addresses lowercased). */
const storedTokenSettings = z.object({
  name: z.string(),
  symbol: z.string(),
  image_url: z.string().optional(),
  description: z.string().optional(),
  admins: z.array(z.object({ admin: storedAddress, recipient: storedAddress, allocation: percent })),
  paired_token: storedAddress.optional(),
  pool_config_type: z.enum(["standard", "project"]).optional(),
  starting_market_cap: z.number().optional().describe("whole paired tokens"),
  fee_config_type: z.enum(["static", "dynamic"]).optional(),
  metadata: z
    .object({
      description: z.string().optional(),
      socialMediaUrls: z.array(z.union([z.string(), z.object({ platform: z.string(), url: z.string() })])).optional(),
      auditUrls: z.array(z.string()).optional(),
    })
    .optional(),
  social_context: z
    .object({
      interface: z.string().optional(),
      platform: z.string().optional(),
      messageId: z.string().optional(),
      id: z.union([z.string(), z.number().int()]).optional(),
    })
    .optional(),
});

const storedVaultSettings = z.object({
  percentage: percent,
  lockup_duration: seconds,
  vesting_duration: seconds.optional(),
});
const storedAirdrop = z.object({
  merkle_root: bytes32Hex,
  percentage: percent,
  lockup_duration: seconds,
  vesting_duration: seconds.optional(),
  admin: storedAddress.optional(),
});

export const pretokenObject = z.object({
  id: z.uuid(),
  keyword: z.string(),
  chain_id: z.number().int(),
  token_settings: storedTokenSettings,
  vault_settings: storedVaultSettings.nullable(),
  airdrop: storedAirdrop.nullable(),
  expected_address: expectedAddress,
  created_at: isoTime,
  expires_at: isoTime.describe("ISO 8601, UTC: created_at + 7 days"),
});

export const createPretokenResponse = z.object({
  success: z.literal(true),
  id: z.uuid().describe("the pretoken's id (DELETE /api/pretoken/{id})"),
  expectedAddress,
});
export const pendingPretokensResponse = z.object({
  pendingPretokens: z.array(pretokenObject).describe("newest first"),
});
export const deletePretokenResponse = z.object({ success: z.literal(true) });
