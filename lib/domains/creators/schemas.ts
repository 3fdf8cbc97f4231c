// Query and path schemas of the creator endpoints (interface 4.3).
import { z } from "zod";
import { zAddress, zBool, zChainId, zFid, zInt, zLimit, zSort, zText, zWord } from "@/lib/core/input";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

/** Deepest offset search-creator pages to: every list is bounded. */
export const MAX_OFFSET = 10_000;

export const searchCreatorQuery = z.object({
  q: zText(100)
    .pipe(z.string().trim().min(1, "must not be empty"))
    .describe("the start of a username, display name or handle, or an address (verified or deployer)"),
  trustedOnly: zBool.default(false).describe("only tokens on the trusted lists"),
  sort: zSort.default("desc").describe("tokens by launch time (newest first with desc)"),
  platform: zWord(["farcaster", "twitter"], "must be farcaster or twitter")
    .optional()
    .describe("only creators of this platform"),
  limit: zLimit(50, 20),
  offset: zInt(0, MAX_OFFSET).default(0).describe("results to skip"),
});

export const creatorParams = z.object({ address: zAddress.describe("the creator's wallet (any case)") });

export const creatorEarningsParams = z.object({ tokenAddress: zAddress.describe("the token's contract address") });
export const creatorEarningsQuery = z.object({
  chainId: zChainId.default(DEFAULT_CHAIN_ID).describe("the token's chain"),
});

export const byFollowingQuery = z.object({
  fid: zFid.describe("the FID whose followed accounts' tokens are listed"),
  includeUser: zBool.default(false).describe("add each token's creator profile"),
  /** Not in the interface: a bound on the answer (default 50). */
  limit: zLimit(100, 50),
});
