// Query schemas of the user endpoints (interface 4.2).
import { z } from "zod";
import { zAddress, zFid, zFidList } from "@/lib/core/input";

/** FIDs per get-multiple-users-by-fid request: one provider bulk call. */
export const MAX_FIDS_PER_REQUEST = 100;

export const userByFidQuery = z.object({ fid: zFid.describe("the Farcaster ID of the profile") });
export const userByAddressQuery = z.object({
  address: zAddress.describe("a verified address of the profile (any case)"),
});
export const userByNameQuery = z.object({
  name: z
    .string()
    .trim()
    .transform((v) => v.replace(/^@/, "").toLowerCase())
    .pipe(z.string().regex(/^[a-z0-9._-]{1,64}$/, "must be a username: 1 to 64 letters, digits, '.', '_' or '-'"))
    .describe("the username, any case; a leading @ is ignored"),
});
export const multipleUsersQuery = z.object({
  fids: zFidList(MAX_FIDS_PER_REQUEST)
    .optional()
    .describe(`comma-separated FIDs, at most ${MAX_FIDS_PER_REQUEST}; duplicates count once; none answers no users`),
});
