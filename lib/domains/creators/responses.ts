// Answer shapes of the creator endpoints (interface 4.3, COMPAT), for the OpenAPI document.
import { z } from "zod";
import { checksummedAddress as address } from "@/lib/core/answers";
import { marketObject, tokenObject } from "@/lib/domains/tokens/responses";
import { userObject } from "@/lib/domains/users/responses";

const isoDate = z.string().describe("ISO 8601");

export const trustStatusObject = z.object({
  isTrustedDeployer: z.boolean().describe("the deployer (msg_sender) is on the trusted-deployer list"),
  isTrustedClanker: z.boolean().describe("the token is on the trusted-token list of its chain"),
  fidMatchesDeployer: z.boolean().describe("one of the requester's verified addresses is the deployer"),
  verifiedAddresses: z
    .array(address)
    .describe("the requester's (requestor_fid) verified addresses; empty when the requester is unknown"),
});

export const searchCreatorResponse = z.object({
  tokens: z.array(tokenObject.extend({ trustStatus: trustStatusObject })),
  users: z
    .array(
      userObject.extend({
        platform: z.literal("farcaster").describe("the profile's network: every profile here is a Farcaster one"),
        displayName: z.string().nullable().describe("display_name, as the platform's rows name it"),
        pfpUrl: z.string().nullable().describe("pfp_url, as the platform's rows name it"),
        verifiedAddresses: z.array(address).describe("verified_addresses.eth_addresses, EIP-55 checksummed"),
      }),
    )
    .describe("the matched profiles (at most 25) whose tokens were searched, with the platform's row members"),
  total: z
    .number()
    .int()
    .describe("exact when up to 1,000 are expected or on the last page; the planner's estimate above"),
  hasMore: z.boolean().describe("exact: another page follows"),
});

export const creatorProfileResponse = z.object({
  user: userObject
    .nullable()
    .describe("the profile holding the wallet; null when none is known (or the provider failed with none stored)"),
  address,
  stats: z.object({
    tokensLaunched: z.number().int().describe("tokens the wallet deployed or the profile requested"),
    firstLaunchAt: isoDate.nullable(),
    latestLaunchAt: isoDate.nullable(),
    tokensByChain: z
      .record(z.string().describe("chain id"), z.number().int())
      .describe("of the newest sampleSize tokens"),
    totalMarketCapUsd: z.number().describe("USD, sum of the stored market caps of the newest sampleSize tokens"),
    complete: z
      .boolean()
      .describe(
        "false: more than sampleSize tokens, so tokensByChain and totalMarketCapUsd cover the newest sampleSize",
      ),
    sampleSize: z.number().int(),
  }),
  recentTokens: z
    .array(
      tokenObject.extend({
        related: z.object({ market: marketObject.nullable().describe("stored market data; null when none") }),
      }),
    )
    .describe("the newest 5, newest first"),
});

export const byFollowingResponse = z.object({
  tokens: z
    .array(tokenObject)
    .describe("newest first; related.user (the creator's stored profile, or null) with includeUser"),
  followers: z
    .array(userObject)
    .describe("the followed accounts that launched at least one of the tokens (stored profiles)"),
  followingCount: z.number().int().describe("accounts the FID follows (at most FOLLOWING_MAX_ACCOUNTS are read)"),
});
