// search-creator: who matches `q` (a username, display name, X handle, or an address), then their
// tokens with trustStatus, a total and hasMore.
import type { z } from "zod";
import { tokenJson } from "@/lib/domains/tokens/service";
import { toUserObject, type UserObject, userJson } from "@/lib/domains/users/serialize";
import { lookupUserByAddress, matchCreatorsByName } from "@/lib/domains/users/service";
import { pageCreatorTokens, type Platform } from "./tokens";
import { trustStatusOf } from "./trust";
import { isEvmAddress } from "@/lib/core/evm";
import { JsonText, jsonObject, toJson, withMembers } from "@/lib/core/json";
import type { searchCreatorResponse } from "./responses";

/** Matched profiles whose tokens are searched (and returned as `users`). */
export const MAX_CREATORS = 25;

export type SearchCreatorParams = {
  q: string;
  trustedOnly: boolean;
  sort: "asc" | "desc";
  platform?: Platform;
  limit: number;
  offset: number;
};

type ProviderUser = {
  display_name?: string | null;
  pfp_url?: string | null;
  verified_addresses?: { eth_addresses?: string[] };
};

/**
 * A matched profile as the platform's rows: `platform`, `displayName`, `pfpUrl` and `verifiedAddresses` (bots keep
 * the rows whose platform is farcaster and that have a fid), beside the provider's members, which clients read too.
 */
function creatorRow(json: JsonText<UserObject>) {
  const user = JSON.parse(json.text) as ProviderUser;
  return withMembers(json, {
    platform: "farcaster" as const,
    displayName: user.display_name ?? null,
    pfpUrl: user.pfp_url ?? null,
    verifiedAddresses: user.verified_addresses?.eth_addresses ?? [],
  });
}

/** The profiles `q` names (as JSON text), and the FIDs and addresses whose tokens count as theirs. */
async function resolveCreators(raw: string) {
  const q = raw.normalize("NFKC").trim(); // as token search reads q: a fullwidth address or ＠ reads as plain
  const address = isEvmAddress(q) ? q.toLowerCase() : null;
  let found: Array<{ fid: number; verified_addresses: string[]; json: JsonText<UserObject> }>;
  if (address) {
    // A provider failure here only costs the profile: the deployer's tokens are still found.
    const holder = await lookupUserByAddress(address, false);
    found = holder ? [{ ...holder, json: new JsonText(toJson(toUserObject(holder))) }] : [];
  } else {
    const name = q.replace(/^@/, "").trim(); // its case is folded by SQL (searchFold)
    const matched = name ? await matchCreatorsByName(name, MAX_CREATORS) : [];
    found = matched.map((m) => ({ ...m, json: userJson(m) }));
  }
  const addresses = new Set(found.flatMap((u) => u.verified_addresses));
  if (address) addresses.add(address);
  return {
    users: found.map((u) => creatorRow(u.json)),
    creators: { fids: found.map((u) => u.fid), addresses: [...addresses] },
  };
}

export async function searchCreators(
  params: SearchCreatorParams,
): Promise<JsonText<z.input<typeof searchCreatorResponse>>> {
  const { users, creators } = await resolveCreators(params.q);
  const { rows, total, hasMore } = await pageCreatorTokens(
    creators,
    { platform: params.platform, trustedOnly: params.trustedOnly },
    { sort: params.sort, limit: params.limit, offset: params.offset },
  );
  return jsonObject({
    tokens: rows.map((row) => withMembers(tokenJson(row), { trustStatus: trustStatusOf(row) })),
    users,
    total,
    hasMore,
  });
}
