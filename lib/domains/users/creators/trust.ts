// Trust lists (trusted tokens per chain, trusted deployers) and the trustStatus of search-creator rows.
// Trust is decided per token from three facts, each on its own: the token is on the trusted-token list
// (isTrustedClanker), its deployer on the trusted-deployer list (isTrustedDeployer), its requester has
// verified the deployer address (fidMatchesDeployer).
import { db } from "@/db";
import { checksum } from "@/lib/core/input";
import type { TokenRow } from "@/lib/domains/tokens/serialize";

export type TrustStatus = {
  /** The deployer (msg_sender) is on the trusted-deployer list. */
  isTrustedDeployer: boolean;
  /** The token itself is on the trusted-token list for its chain. */
  isTrustedClanker: boolean;
  /** One of the requester's (requestor_fid's) verified addresses is the deployer. */
  fidMatchesDeployer: boolean;
  /** The requester's verified addresses, checksummed; empty when the requester is unknown. */
  verifiedAddresses: string[];
};

/** What a page row carries for its status (see creatorTokensQueries): two list lookups and the requester's addresses. */
export type TrustFacts = { trusted_token: boolean; trusted_deployer: boolean; requester_verified: string[] | null };

export function trustStatusOf(row: Pick<TokenRow, "msg_sender"> & TrustFacts): TrustStatus {
  const verified = row.requester_verified ?? [];
  return {
    isTrustedDeployer: row.trusted_deployer,
    isTrustedClanker: row.trusted_token,
    fidMatchesDeployer: verified.includes(row.msg_sender),
    verifiedAddresses: verified.map((a) => checksum(a)!),
  };
}

/** Adding an entry again only replaces its note. */
export async function addTrustedToken(address: string, chainId: number, note?: string): Promise<void> {
  await db()
    .insertInto("trusted_tokens")
    .values({ address: address.toLowerCase(), chain_id: chainId, note: note ?? null })
    .onConflict((oc) => oc.columns(["address", "chain_id"]).doUpdateSet({ note: note ?? null }))
    .execute();
}

export async function removeTrustedToken(address: string, chainId: number): Promise<boolean> {
  const result = await db()
    .deleteFrom("trusted_tokens")
    .where("address", "=", address.toLowerCase())
    .where("chain_id", "=", chainId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function addTrustedDeployer(address: string, note?: string): Promise<void> {
  await db()
    .insertInto("trusted_deployers")
    .values({ address: address.toLowerCase(), note: note ?? null })
    .onConflict((oc) => oc.column("address").doUpdateSet({ note: note ?? null }))
    .execute();
}

export async function removeTrustedDeployer(address: string): Promise<boolean> {
  const result = await db().deleteFrom("trusted_deployers").where("address", "=", address.toLowerCase()).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listTrust() {
  const [tokens, deployers] = await Promise.all([
    db().selectFrom("trusted_tokens").selectAll().orderBy("chain_id").orderBy("address").execute(),
    db().selectFrom("trusted_deployers").selectAll().orderBy("address").execute(),
  ]);
  return { tokens, deployers };
}
