// Query and path schemas of the creator endpoints (interface 4.3).
import { z } from "zod";
import { zAddress, zBool, zChainId, zFid, zInt, zLimit, zSort, zText } from "@/lib/core/input";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

/** Deepest offset search-creator pages to: every list is bounded. */
export const MAX_OFFSET = 10_000;

export const searchCreatorQuery = z.object({
  q: zText(100).pipe(z.string().trim().min(1, "must not be empty")),
  trustedOnly: zBool.default(false),
  sort: zSort.default("desc"),
  platform: z.enum(["farcaster", "twitter"], { message: "must be farcaster or twitter" }).optional(),
  limit: zLimit(50, 20),
  offset: zInt(0, MAX_OFFSET).default(0),
});

export const creatorParams = z.object({ address: zAddress });

export const creatorEarningsParams = z.object({ tokenAddress: zAddress });
export const creatorEarningsQuery = z.object({ chainId: zChainId.default(DEFAULT_CHAIN_ID) });

export const byFollowingQuery = z.object({
  fid: zFid,
  includeUser: zBool.default(false),
  /** Not in the interface: a bound on the answer (default 50). */
  limit: zLimit(100, 50),
});
