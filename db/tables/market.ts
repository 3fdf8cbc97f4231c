// Row types of the market tables beside token_market (migration 20261125100000_market_snapshots).
import type { ColumnType } from "kysely";

export interface TokenMarketSnapshotsTable {
  token_id: number;
  taken_at: ColumnType<Date, Date | undefined, Date>;
  market_cap_usd: number | null;
  price_usd: number | null;
  volume_24h_usd: number | null;
}

export interface MarketTables {
  token_market_snapshots: TokenMarketSnapshotsTable;
}
