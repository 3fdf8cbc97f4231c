// Tokens API: Solana mints beside EVM addresses, the index the market-data refresh walks, and a small
// pending list on the trigram indexes: every search reads the whole GIN pending list (4 MB by default,
// about 20 ms after a bulk load), so new tokens are merged into the index in smaller batches; and finer
// statistics of lower(name) and lower(symbol) (1,000 buckets, not 100; kept on the btree prefix indexes,
// ANALYZE then samples 300,000 rows instead of 30,000), from which the planner estimates
// how many names a search term matches: it picks the walk by date or the trigram bitmap from that
// estimate, and `total` above 1,000 is that estimate.
import { sql, type Kysely } from "kysely";

/** Base58 (Bitcoin alphabet), 32 to 44 characters: a Solana mint or pool account. Case matters. */
const BASE58 = "^[1-9A-HJ-NP-Za-km-z]{32,44}$";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE tokens DROP CONSTRAINT tokens_contract_address_check;
    ALTER TABLE tokens ADD CONSTRAINT tokens_contract_address_check
      CHECK (contract_address = lower(contract_address) OR contract_address ~ '${sql.raw(BASE58)}');
    ALTER TABLE tokens DROP CONSTRAINT tokens_pool_address_check;
    ALTER TABLE tokens ADD CONSTRAINT tokens_pool_address_check
      CHECK (pool_address = lower(pool_address) OR pool_address ~ '${sql.raw(BASE58)}');
    CREATE INDEX token_market_updated ON token_market (updated_at, token_id);
    ALTER INDEX tokens_name_trgm SET (gin_pending_list_limit = 256);
    ALTER INDEX tokens_symbol_trgm SET (gin_pending_list_limit = 256);
    ALTER INDEX tokens_name_prefix ALTER COLUMN 1 SET STATISTICS 1000;
    ALTER INDEX tokens_symbol_prefix ALTER COLUMN 1 SET STATISTICS 1000;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER INDEX tokens_symbol_prefix ALTER COLUMN 1 SET STATISTICS -1;
    ALTER INDEX tokens_name_prefix ALTER COLUMN 1 SET STATISTICS -1;
    ALTER INDEX tokens_symbol_trgm RESET (gin_pending_list_limit);
    ALTER INDEX tokens_name_trgm RESET (gin_pending_list_limit);
    DROP INDEX token_market_updated;
    ALTER TABLE tokens DROP CONSTRAINT tokens_pool_address_check;
    ALTER TABLE tokens ADD CONSTRAINT tokens_pool_address_check CHECK (pool_address = lower(pool_address));
    ALTER TABLE tokens DROP CONSTRAINT tokens_contract_address_check;
    ALTER TABLE tokens ADD CONSTRAINT tokens_contract_address_check CHECK (contract_address = lower(contract_address));
  `.execute(db);
}
