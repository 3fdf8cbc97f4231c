// Row types of the airdrops domain's tables: the Merkle tree store (lib/domains/merkle) that airdrops and presale
// allowlists share. Migration: db/migrations/20261122040000_merkle_trees.ts.
import type { Generated } from "kysely";

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

export interface MerkleLeavesTable {
  tree_id: number;
  account: Uint8Array;
  tree_index: number;
  /** numeric(78,0) as a decimal string. */
  amount: string;
}

export interface MerkleStagedLeavesTable {
  tree_id: number;
  chunk: number;
  accounts: Uint8Array[];
  tree_indexes: number[];
  amounts: string[];
}

export interface AirdropsTables {
  merkle_trees: MerkleTreesTable;
  merkle_tiles: MerkleTilesTable;
  merkle_leaves: MerkleLeavesTable;
  merkle_staged_leaves: MerkleStagedLeavesTable;
}
