// Row types of the creators domain's tables (migration 20261122030000_creators).
import type { ColumnType, Generated } from "kysely";

/** numeric(78,0): wei travels as a decimal string. */
type Wei = ColumnType<string, string | bigint, string | bigint>;

export interface TrustedTokensTable {
  address: string;
  chain_id: number;
  note: string | null;
  created_at: Generated<Date>;
}

export interface TrustedDeployersTable {
  address: string;
  note: string | null;
  created_at: Generated<Date>;
}

export interface FeeClaimsTable {
  id: Generated<number>;
  chain_id: number;
  fee_locker: string;
  tx_hash: string;
  log_index: number;
  block_number: number;
  fee_owner: string;
  token: string;
  amount: Wei;
  indexed_at: Generated<Date>;
}

/** A legacy LP locker's claim, one row per recipient paid (db/migrations/20261129190000_legacy_fee_claims.ts). */
export interface LegacyFeeClaimsTable {
  id: Generated<number>;
  chain_id: number;
  locker: string;
  tx_hash: string;
  log_index: number;
  block_number: number;
  /** v3.1's position (decimal string); null for ClaimedFees, which does not name it. */
  lp_nft_id: string | null;
  token0: string;
  token1: string;
  role: "creator" | "interface" | "team";
  recipient: string;
  amount0: Wei;
  amount1: Wei;
  indexed_at: Generated<Date>;
}

export interface CreatorsTables {
  trusted_tokens: TrustedTokensTable;
  trusted_deployers: TrustedDeployersTable;
  fee_claims: FeeClaimsTable;
  legacy_fee_claims: LegacyFeeClaimsTable;
}
