// legacy_fee_claims: the claim events of the LP lockers before v4 (ClaimedFees of v0 to v3, ClaimedRewards of v3.1),
// one row per recipient paid in a claim, in the position's two tokens (token0 < token1, Uniswap's order). A claim is
// matched to its token when it is read, by the locker and the pair (lib/domains/rewards/legacy/queries.ts).
// tokens_legacy_locker finds the v0 and v1 tokens of a locker (one locker per token) as the claim indexer stores.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE legacy_fee_claims (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      chain_id integer NOT NULL,
      locker text NOT NULL CHECK (locker = lower(locker)),
      tx_hash text NOT NULL CHECK (tx_hash = lower(tx_hash)),
      log_index integer NOT NULL,
      block_number bigint NOT NULL,
      lp_nft_id text CHECK (lp_nft_id ~ '^[0-9]{1,78}$'),
      token0 text NOT NULL CHECK (token0 = lower(token0)),
      token1 text NOT NULL CHECK (token1 = lower(token1)),
      role text NOT NULL CHECK (role IN ('creator', 'interface', 'team')),
      recipient text NOT NULL CHECK (recipient = lower(recipient)),
      amount0 numeric(78,0) NOT NULL CHECK (amount0 >= 0),
      amount1 numeric(78,0) NOT NULL CHECK (amount1 >= 0),
      indexed_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (chain_id, tx_hash, log_index, role)
    );
    CREATE INDEX legacy_fee_claims_pair ON legacy_fee_claims (chain_id, locker, token0, token1, recipient);
    CREATE INDEX tokens_legacy_locker ON tokens (chain_id, locker_address) WHERE type IN ('proxy', 'clanker');
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX tokens_legacy_locker;
    DROP TABLE legacy_fee_claims;
  `.execute(db);
}
