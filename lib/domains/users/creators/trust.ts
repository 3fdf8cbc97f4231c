// Trust lists (trusted tokens per chain, trusted deployers) and the trustStatus of search-creator rows.
// Trust is decided per token from three facts, each on its own: the token is on the trusted-token list
// (isTrustedClanker), its deployer on the trusted-deployer list (isTrustedDeployer), its requester has
// verified the deployer address (fidMatchesDeployer).
import { db, type Database } from "@/db";
import { checksum } from "@/lib/core/evm";
import type { TokenRow } from "@/lib/domains/tokens/serialize";
import {
  deleteTrustedDeployer,
  deleteTrustedToken,
  findTrustFacts,
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

/** What a row carries for its status (trustFactsOf): two list lookups and the requester's addresses. */
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

/** The trust facts of each token, in one statement: the two lists and the requesters' verified addresses. */
export async function trustFactsOf<
  T extends Pick<TokenRow, "contract_address" | "chain_id" | "msg_sender" | "requestor_fid">,
>(conn: Database, rows: T[]): Promise<Array<T & TrustFacts>> {
  if (!rows.length) return [];
  const { tokens, deployers, verified } = await findTrustFacts(conn, {
    tokens: rows.map((r) => ({ address: r.contract_address, chainId: r.chain_id })),
    deployers: [...new Set(rows.map((r) => r.msg_sender))],
    fids: [...new Set(rows.flatMap((r) => (r.requestor_fid === null ? [] : [r.requestor_fid])))],
  });
  return rows.map((r) => ({
    ...r,
    trusted_token: tokens.has(`${r.chain_id}:${r.contract_address}`),
    trusted_deployer: deployers.has(r.msg_sender),
    requester_verified: (r.requestor_fid !== null && verified.get(r.requestor_fid)) || null,
  }));
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
