// Zod shapes of the Neynar v2 answers we read. Only what the service uses is required; everything else
// the provider sends is kept (passthrough) because the stored object is served back as the user object
// (lib/domains/users/responses.ts documents the answers with neynarUser itself).
import { z } from "zod";
import { EVM_ADDRESS } from "@/lib/core/evm";

const ethAddress = z.string().regex(EVM_ADDRESS);

export const neynarUser = z
  .object({
    object: z.string().optional().describe('"user"'),
    fid: z.number().int().positive().describe("Farcaster ID"),
    username: z.string().nullish(),
    display_name: z.string().nullish(),
    pfp_url: z.string().nullish(),
    custody_address: ethAddress.nullish().describe("as the provider sent it; EIP-55 when built from stored columns"),
    follower_count: z.number().int().nonnegative().optional(),
    following_count: z.number().int().nonnegative().optional(),
    verifications: z.array(z.string()).optional().describe("verified addresses (legacy member)"),
    verified_addresses: z
      .object({
        eth_addresses: z.array(z.string()).default([]).describe("verified EVM addresses, as the provider sends them"),
        sol_addresses: z.array(z.string()).optional().describe("verified Solana addresses (base58)"),
      })
      .passthrough()
      .optional(),
    verified_accounts: z
      .array(z.object({ platform: z.string().optional(), username: z.string().optional() }).passthrough())
      .nullish()
      .describe('linked accounts, e.g. { platform: "x", username }'),
    score: z.number().nullish().describe("Neynar user score, 0 to 1"),
    experimental: z.object({ neynar_user_score: z.number().nullish() }).passthrough().nullish(),
  })
  .passthrough();

export type NeynarUser = z.infer<typeof neynarUser>;

/** GET /v2/farcaster/user/bulk */
export const bulkUsersResponse = z.object({ users: z.array(neynarUser) });

/** GET /v2/farcaster/user/by_username */
export const userResponse = z.object({ user: neynarUser });

/** GET /v2/farcaster/user/bulk-by-address: lowercase address → users holding it (custody or verified). */
export const usersByAddressResponse = z.record(z.string(), z.array(neynarUser));

/** GET /v2/farcaster/following */
export const followingResponse = z.object({
  users: z.array(z.object({ object: z.string().optional(), user: neynarUser }).passthrough()),
  next: z.object({ cursor: z.string().nullish() }).passthrough().nullish(),
});
