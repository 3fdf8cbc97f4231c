// The picture a token names (img_url), for the explorer's picture proxy: the page never sees the URL it fetches.
import { db } from "@/db";
import { findBlock } from "./queries/blocks";
import { findTokenImageUrl } from "./queries/images";

/** The stored img_url of the token at this address on this chain; null when there is none or the token is blocked. */
export async function tokenImageUrl(chainId: number, address: string): Promise<string | null> {
  const key = /^0x[0-9a-f]{40}$/i.test(address) ? address.toLowerCase() : address;
  const url = await findTokenImageUrl(db(), key, chainId);
  if (!url || (await findBlock(db(), key, chainId))) return null;
  return url;
}
