// Row types of the core migration (20261122000000_core).
import type { ColumnType, Generated, JSONColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T extends object | null = Record<string, unknown>> = JSONColumnType<T, T | string | undefined, T | string>;
/** numeric(78,0): wei and supplies travel as decimal strings. */
type Wei = ColumnType<string, string | bigint | undefined, string | bigint>;

export interface TokensTable {
  id: Generated<number>;
  created_at: Generated<Date>;
  deployed_at: Timestamp;
  tx_hash: string | null;
  contract_address: string;
  chain_id: Generated<number>;
  name: string;
  symbol: string;
  img_url: string | null;
  pool_address: string | null;
  requestor_fid: number | null;
  msg_sender: string;
  admin: string;
  cast_hash: string | null;
  type: Generated<string>;
  pair: string | null;
  presale_id: number | null;
  factory_address: string | null;
  locker_address: string | null;
  /** The Uniswap V3 LP position NFT the locker holds, as a decimal string (tokens before v4; null for v4). */
  lp_nft_id: string | null;
  metadata: Json;
  social_context: Json;
  deploy_config: Json | null;
  pool_config: Json | null;
  /** The platform's `extensions`: fee hook, fee type and values, reward split (null: hook unknown). */
  extensions: Json | null;
  starting_market_cap: number | null;
  warnings: ColumnType<string[], string[] | undefined, string[]>;
  tags: Json<{ champagne: boolean; verified: boolean; knownInterfaceDeployer: boolean }>;
  supply: Wei;
  block_number: number | null;
  log_index: number | null;
}

export interface TokenMarketTable {
  token_id: number;
  market_cap_usd: number | null;
  price_usd: number | null;
  volume_24h_usd: number | null;
  tx_count_24h: number | null;
  price_change_1h: number | null;
  price_change_24h: number | null;
  updated_at: Generated<Date>;
}

export interface UsersTable {
  fid: number;
  username: string | null;
  display_name: string | null;
  pfp_url: string | null;
  custody_address: string | null;
  verified_addresses: ColumnType<string[], string[] | undefined, string[]>;
  twitter_username: string | null;
  neynar_score: number | null;
  follower_count: Generated<number>;
  following_count: Generated<number>;
  profile: Json;
  fetched_at: Generated<Date>;
  following_fetched_at: Date | null;
}

export interface UserAddressesTable {
  address: string;
  fid: number;
}

export interface FollowsTable {
  follower_fid: number;
  followed_fid: number;
}

export interface BlockedTokensTable {
  id: Generated<number>;
  address: string;
  chain_id: number | null;
  reason: string | null;
  created_at: Generated<Date>;
}

export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: Generated<Date>;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export type JobStatus = "pending" | "running" | "done" | "failed" | "dispatched";

export interface JobsTable {
  id: Generated<number>;
  name: string;
  payload: Json<object>;
  status: ColumnType<JobStatus, JobStatus | undefined, JobStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: Timestamp;
  locked_until: Date | null;
  dedupe_key: string | null;
  /** A JobLane (lib/platform/jobs/define.ts). */
  lane: Generated<string>;
  concurrency_key: string | null;
  last_error: string | null;
  result: Json<object> | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** When the operator view first listed this failed row; the prune keeps failed rows nobody has seen. */
  seen_at: Date | null;
}

export interface KvCacheTable {
  key: string;
  value: Json<object>;
  expires_at: Date | null;
}

/** Counters kept in hashes (usage per key and day); the Postgres backend buffers increments (lib/platform/kv/postgres.ts). */
export interface KvCountersTable {
  key: string;
  field: string;
  count: ColumnType<string, number | string, number | string>;
  expires_at: Date;
}

export interface RateLimitsTable {
  key: string;
  window_start: Timestamp;
  window_end: Timestamp;
  count: number;
}

export interface CoreTables {
  tokens: TokensTable;
  token_market: TokenMarketTable;
  users: UsersTable;
  user_addresses: UserAddressesTable;
  follows: FollowsTable;
  blocked_tokens: BlockedTokensTable;
  api_keys: ApiKeysTable;
  jobs: JobsTable;
  kv_cache: KvCacheTable;
  kv_counters: KvCountersTable;
  rate_limits: RateLimitsTable;
}
