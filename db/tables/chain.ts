// Row types of the chain tables that no domain's data lives in (their migrations in db/migrations/).
import type { Generated } from "kysely";

/** A chain event the indexer could not decode or store: set aside with its reason, retried on request. */
export interface QuarantinedEventsTable {
  id: Generated<number>;
  /** Which indexer set it aside: "token-created". */
  stream: string;
  chain_id: number;
  /** The emitting contract, lowercase. */
  address: string;
  block_number: number;
  log_index: number;
  tx_hash: string;
  /** "undecodable" (the log is not the event its topic names) or "unstorable" (the row was refused). */
  reason: string;
  first_error: string;
  last_error: string;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  resolved_at: Date | null;
}

/** How far a chain event stream was read: the last block covered per (stream, chain, followed contract). */
export interface ChainCheckpointsTable {
  /** The stream: "token-created", "fee-claims", "airdrop-claims", "presales", or a backfill's "<stream>:backfill". */
  stream: string;
  chain_id: number;
  /** The followed contract (a factory, the fee locker, …), lowercase. */
  address: string;
  block: number;
  updated_at: Generated<Date>;
}

export interface ChainTables {
  quarantined_events: QuarantinedEventsTable;
  chain_checkpoints: ChainCheckpointsTable;
}
