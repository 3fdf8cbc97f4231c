// Request schemas of the airdrop endpoints (interface 4.5).
import { z } from "zod";
import { zAddress, zBool, zBytes32, zIntLike, zLimit } from "@/lib/core/input";
import { zAllocationCursor } from "@/lib/domains/merkle/read";

/** Longest delay an enqueued save may ask for. */
export const MAX_DELAY_SECONDS = 3600;
export const DEFAULT_PAGE = 1000;
export const MAX_PAGE = 10_000;

/** Members of the POST body besides `tree` (read from the stream; numbers arrive as their text). */
export const airdropUploadFields = z.object({
  tokenAddress: zAddress,
  merkleRoot: zBytes32,
  enqueue: z.union([z.boolean(), zBool]).default(false),
  delaySeconds: zIntLike(0, MAX_DELAY_SECONDS).default(10),
});

export const claimerQuery = z.object({ tokenAddress: zAddress, claimerAddress: zAddress });

export const allocationsQuery = z.object({
  tokenAddress: zAddress,
  limit: zLimit(MAX_PAGE, DEFAULT_PAGE),
  cursor: zAllocationCursor.optional(),
});
