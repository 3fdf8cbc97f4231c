// Row types of the pretokens domain's tables (20261122060100_pretokens).
import type { ColumnType, Generated, JSONColumnType } from "kysely";

type Json = JSONColumnType<Record<string, unknown>, Record<string, unknown> | string, Record<string, unknown> | string>;

export interface PretokensTable {
  id: string;
  user_id: string;
  fid: number | null;
  keyword: string;
  chain_id: number;
  token_settings: Json;
  vault_settings: Json | null;
  airdrop: Json | null;
  /** The DeploymentConfig the settings map to, as simulated (lib/domains/launch/deploy/stored.ts). */
  deployment_config: Json;
  expected_address: string;
  created_at: Generated<Date>;
  deleted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface PretokensTables {
  pretokens: PretokensTable;
}
