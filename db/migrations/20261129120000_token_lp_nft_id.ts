// The token's Uniswap V3 LP position (the platform's LP NFT id, `lpNftId` or `positionId` in TokenCreated before v4),
// as a decimal string: the locker holds that NFT, and claim and LP reads start from it. v4 tokens have none (null):
// their liquidity sits in a v4 pool, not in an NFT the event names. A nullable column without a default: no rewrite.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE tokens ADD COLUMN lp_nft_id text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE tokens DROP COLUMN lp_nft_id`.execute(db);
}
