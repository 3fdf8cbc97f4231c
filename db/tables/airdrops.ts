// Row types of the airdrops domain's tables: the Merkle tree store (lib/domains/merkle) that airdrops and presale
// allowlists share. Migration: db/migrations/20261122040000_merkle_trees.ts.
import type { Generated } from "kysely";

// airdrop_claims: migration db/migrations/20261125120000_airdrop_claims.ts.

export type MerkleTreeState = "staged" | "queued" | "current" | "retired";

export interface MerkleTreesTable {
  id: Generated<number>;
  /** `airdrop:<token>` or `allowlist:<chainId>:<presaleId>`: at most one tree per owner is current. */
  owner: string;
  root: Uint8Array;
  leaf_count: number;
  node_count: number;
  tile_height: number;
  state: Generated<MerkleTreeState>;
  created_at: Generated<Date>;
  published_at: Date | null;
}

export interface MerkleTilesTable {
  tree_id: number;
  tile: number;
  nodes: Uint8Array;
}

/**
 * The leaves of up to 32 consecutive accounts of a tree, in (account, treeIndex) order, keyed by the first
 * account: an account's leaves are all in one chunk. Migration: db/migrations/20261125140000_merkle_leaf_chunks.ts.
 */
export interface MerkleLeafChunksTable {
  tree_id: number;
  first_account: Uint8Array;
  accounts: Uint8Array[];
  tree_indexes: number[];
  /** numeric(78,0)[]: decimal strings. */
  amounts: string[];
}

/** One AirdropClaimed event of an airdrop extension (lib/domains/airdrops/indexer.ts). Addresses in lower case. */
export interface AirdropClaimsTable {
  id: Generated<number>;
  chain_id: number;
  /** The airdrop extension's contract. */
  airdrop: string;
  token: string;
  account: string;
  /** numeric(78,0) as a decimal string: the account's claimed total after this claim (the event's totalUserAmountClaimed). */
  total_claimed: string;
  /** numeric(78,0) as a decimal string: the account's allocation still to claim (userAmountStillLocked). */
  still_locked: string;
  tx_hash: string;
  log_index: number;
  block_number: number;
  indexed_at: Generated<Date>;
}

export interface AirdropsTables {
  airdrop_claims: AirdropClaimsTable;
  merkle_trees: MerkleTreesTable;
  merkle_tiles: MerkleTilesTable;
  merkle_leaf_chunks: MerkleLeafChunksTable;
}
