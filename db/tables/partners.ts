// Row types of the partners domain's columns of api_keys (20261129150000_api_key_scopes): owner, scopes, expiry,
// per-key limits, and the hash a rotation replaced with the end of its grace period.
import type { ColumnType } from "kysely";

export type ApiKeyScope = "read" | "deploy" | "index" | "webhooks";

declare module "./core" {
  interface ApiKeysTable {
    owner: string | null;
    /** Defaults to every scope (the migration's default). */
    scopes: ColumnType<ApiKeyScope[], ApiKeyScope[] | undefined, ApiKeyScope[]>;
    expires_at: Date | null;
    /** null: PARTNER_REQUESTS_PER_MINUTE applies. */
    requests_per_minute: number | null;
    /** null: DEPLOY_DAILY_LIMIT applies. */
    deploys_per_day: number | null;
    previous_key_hash: string | null;
    previous_prefix: string | null;
    previous_expires_at: Date | null;
  }
}
