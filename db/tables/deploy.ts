// Row types of the deploy domain's tables (20261122060000_deploy, 20261122060200_deploy_signed_tx,
// 20261122060300_deploy_quota, 20261122060400_deploy_tx_from): deploy requests, each partner's daily count of them,
// UI token submissions, and the reward address in api_keys.
import type { ColumnType, Generated, JSONColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type DeployShape = "4.0.0" | "0.3.1" | "0.3.0" | "3.1.0";
export type DeployStatus = "queued" | "submitted" | "deployed" | "failed";

declare module "./core" {
  interface ApiKeysTable {
    /** Lowercase address receiving a partner's interface share of legacy deployments; null: the platform. */
    reward_address: string | null;
  }
}

export interface DeployRequestsTable {
  id: Generated<number>;
  partner_id: number;
  request_key: string;
  /** sha256 of the canonical JSON of the path and body: a retry must match it. */
  body_hash: string;
  shape: DeployShape;
  chain_id: number;
  /** The DeploymentConfig sent to the factory, bigints as decimal strings (lib/domains/launch/deploy/stored.ts). */
  config: JSONColumnType<Record<string, unknown>, Record<string, unknown> | string, Record<string, unknown> | string>;
  expected_address: string;
  status: ColumnType<DeployStatus, DeployStatus | undefined, DeployStatus>;
  /** Hash of the signed transaction, set when it is signed (before it is broadcast). */
  tx_hash: string | null;
  /** Nonce and serialized form of the signed transaction (20261122060200_deploy_signed_tx): a retry rebroadcasts it. */
  tx_nonce: number | null;
  signed_tx: string | null;
  /**
   * Lowercase signer of the stored transaction (null for rows signed before 20261122060400_deploy_tx_from).
   * Rows `queued` or `submitted` with a nonce are the deployer's transactions in flight: the next nonce is
   * past the highest of them (lib/domains/launch/deploy/sender.ts); `deployed` and `failed` ones are settled.
   */
  tx_from: string | null;
  failure_reason: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  submitted_at: Timestamp | null;
  finished_at: Timestamp | null;
}

/** Deployments an API key claimed on a UTC day (DEPLOY_DAILY_LIMIT). */
export interface DeployQuotaTable {
  partner_id: number;
  /** The UTC day, written as YYYY-MM-DD. */
  day: ColumnType<Date, string, string>;
  used: number;
}

export interface TokenSubmissionsTable {
  id: Generated<number>;
  chain_id: number;
  address: string;
  tx_hash: string;
  user_id: string;
  fid: number | null;
  created_at: Generated<Date>;
}

export interface DeployTables {
  deploy_requests: DeployRequestsTable;
  deploy_quota: DeployQuotaTable;
  token_submissions: TokenSubmissionsTable;
}
