// Trust lists (trusted tokens per chain, trusted deployers) and the trustStatus of search-creator rows.
// Trust is decided per token from three facts, each on its own: the token is on the trusted-token list
// (isTrustedClanker), its deployer on the trusted-deployer list (isTrustedDeployer), its requester has
// verified the deployer address (fidMatchesDeployer).
import { db } from "@/db";
import { checksum } from "@/lib/core/evm";
import type { TokenRow } from "@/lib/domains/tokens/serialize";
import {
  deleteTrustedDeployer,
  deleteTrustedToken,
  listTrustedDeployers,
  listTrustedTokens,
  upsertTrustedDeployer,
  upsertTrustedToken,
} from "@/lib/domains/users/queries/trust";

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

/** What a row carries for its status (trustFactColumns): two list lookups and the requester's addresses. */
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
  await upsertTrustedToken(db(), address.toLowerCase(), chainId, note ?? null);
}

export function removeTrustedToken(address: string, chainId: number): Promise<boolean> {
  return deleteTrustedToken(db(), address.toLowerCase(), chainId);
}

export async function addTrustedDeployer(address: string, note?: string): Promise<void> {
  await upsertTrustedDeployer(db(), address.toLowerCase(), note ?? null);
}

export function removeTrustedDeployer(address: string): Promise<boolean> {
  return deleteTrustedDeployer(db(), address.toLowerCase());
}

export async function listTrust() {
  const [tokens, deployers] = await Promise.all([listTrustedTokens(db()), listTrustedDeployers(db())]);
  return { tokens, deployers };
}
