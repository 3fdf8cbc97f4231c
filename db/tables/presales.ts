// Row types of the presales domain's tables (migration 20261122040100_presales). Allowlist trees live in
// the Merkle store (db/tables/airdrops.ts), owned by `allowlist:<chainId>:<presaleId>`.
import type { ColumnType, Generated, JSONColumnType } from "kysely";

type Wei = ColumnType<string, string | bigint | undefined, string | bigint>;
type NullableWei = ColumnType<string | null, string | bigint | null | undefined, string | bigint | null>;
type Timestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

export interface PresalesTable {
  id: Generated<number>;
  chain_id: number;
  presale_id: number;
  presale_address: string;
  /** The contract's PresaleStatus (lib/platform/chain PRESALE_STATUS). */
  status: Generated<number>;
  owner: string | null;
  allowlist_root: string | null;
  deployment_config: JSONColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  min_eth_goal: NullableWei;
  max_eth_goal: NullableWei;
  eth_raised: Wei;
  end_time: Timestamp;
  lockup_duration: number | null;
  vesting_duration: number | null;
  lockup_end_time: Timestamp;
  vesting_end_time: Timestamp;
  token_address: string | null;
  token_supply: NullableWei;
  started_at: Timestamp;
  start_tx_hash: string | null;
  state_block: Generated<number>;
  state_log_index: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PresalesTables {
  presales: PresalesTable;
}
