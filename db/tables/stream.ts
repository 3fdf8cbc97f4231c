// Row types of the stream domain's tables (its migration: db/migrations/20261129130000_token_events.ts).
import type { Generated } from "kysely";

export interface TokenEventsTable {
  seq: Generated<number>;
  /** xid8, read as text: the writing transaction, the first key of a position. */
  xid: Generated<string>;
  token_id: number;
  chain_id: number;
  contract_address: string;
  created_at: Generated<Date>;
}

/** One row: the newest position pruned (token_events kept for STREAM_RETENTION_HOURS). */
export interface TokenEventHorizonTable {
  id: Generated<boolean>;
  xid: string;
  seq: number;
}

export interface StreamTables {
  token_events: TokenEventsTable;
  token_event_horizon: TokenEventHorizonTable;
}
