// get-tokens-deployed/by-following: tokens launched by the accounts a FID follows, newest first.
import type { z } from "zod";
import { toTokenObject } from "@/lib/domains/tokens/serialize";
import { followedFids } from "@/lib/domains/users/following";
import { addressesOfFids, storedUserObjects } from "@/lib/domains/users/service";
import type { byFollowingResponse } from "./responses";
import { newestCreatorTokens } from "./tokens";

export type ByFollowingParams = { fid: number; includeUser: boolean; limit: number };

/**
 * A followed account's tokens are those it requested (requestor_fid) or deployed from one of its
 * stored addresses. `followers` are the followed accounts that launched at least one returned token.
 */
export async function tokensByFollowing(params: ByFollowingParams): Promise<z.input<typeof byFollowingResponse>> {
  const fids = await followedFids(params.fid);
  if (!fids.length) return { tokens: [], followers: [], followingCount: 0 };
  const holders = await addressesOfFids(fids);
  const rows = await newestCreatorTokens(
    { fids, addresses: [...new Set(holders.map((h) => h.address))] },
    params.limit,
  );
  const ownerOf = new Map(holders.map((h) => [h.address, h.fid]));
  const followed = new Set(fids);
  const launchers = [
    ...new Set(
      rows.flatMap((r) => {
        const byRequest = r.requestor_fid && followed.has(r.requestor_fid) ? [r.requestor_fid] : [];
        const byWallet = ownerOf.get(r.msg_sender);
        return byWallet ? [...byRequest, byWallet] : byRequest;
      }),
    ),
  ];
  // includeUser: the requester's profile, else the profile holding the deployer wallet.
  const creatorOf = (r: (typeof rows)[number]) => r.requestor_fid ?? ownerOf.get(r.msg_sender) ?? null;
  const users = await storedUserObjects([
    ...launchers,
    ...(params.includeUser ? rows.flatMap((r) => creatorOf(r) ?? []) : []),
  ]);
  return {
    tokens: rows.map((row) =>
      params.includeUser ? toTokenObject(row, { user: users.get(creatorOf(row) ?? 0) ?? null }) : toTokenObject(row),
    ),
    followers: launchers.flatMap((fid) => (users.has(fid) ? [users.get(fid)!] : [])),
    followingCount: fids.length,
  };
}
