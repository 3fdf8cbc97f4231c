// The trustStatus of search-creator rows, from the trust lists of lib/domains/users/trust.ts.
// Trust is decided per token from three facts, each on its own: the token is on the trusted-token list
// (isTrustedClanker), its deployer on the trusted-deployer list (isTrustedDeployer), its requester has
// verified the deployer address (fidMatchesDeployer).
import { checksum } from "@/lib/core/evm";
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
