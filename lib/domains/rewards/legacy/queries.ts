// Queries on legacy_fee_claims: the claim events of the LP lockers before v4, one row per recipient paid.
import { sql, type Insertable } from "kysely";
import type { Database } from "@/db";
import type { LegacyFeeClaimsTable } from "@/db/tables/creators";

const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * A token's claims: those of its locker for its pair (token0 < token1, lowercase), and, for a locker of its own
 * (v0, v1), those whose event left the pair out (a locker without a team fee names no tokens).
 */
export type LegacyClaimScope = {
  chainId: number;
  locker: string;
  token0: string;
  token1: string;
  ownLocker: boolean;
};

/** Inserts the rows not stored yet (unique by chain, tx hash, log index, role); returns how many were new. */
export async function insertLegacyClaims(db: Database, rows: Insertable<LegacyFeeClaimsTable>[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db
    .insertInto("legacy_fee_claims")
    .values(rows)
    .onConflict((oc) => oc.columns(["chain_id", "tx_hash", "log_index", "role"]).doNothing())
    .returning("id")
    .execute();
  return inserted.length;
}

function inScope(db: Database, scope: LegacyClaimScope) {
  return db
    .selectFrom("legacy_fee_claims")
    .where("chain_id", "=", scope.chainId)
    .where("locker", "=", scope.locker)
    .where((eb) => {
      const pair = eb.and([eb("token0", "=", scope.token0), eb("token1", "=", scope.token1)]);
      return scope.ownLocker ? eb.or([pair, eb.and([eb("token0", "=", ZERO), eb("token1", "=", ZERO)])]) : pair;
    });
}

/**
 * Per recipient among `recipients` (lowercase; all of the token's when absent): the sums of both sides and the count
 * of claims that paid it (a claim paying one address as creator and as interface counts once).
 */
export function sumLegacyClaims(
  db: Database,
  scope: LegacyClaimScope,
  recipients?: string[],
  roles?: LegacyFeeClaimsTable["role"][],
) {
  let query = inScope(db, scope)
    .select((eb) => [
      "recipient",
      eb.fn.sum<string>("amount0").as("total0"),
      eb.fn.sum<string>("amount1").as("total1"),
      sql<string>`count(DISTINCT (tx_hash, log_index))`.as("claims"),
    ])
    .groupBy("recipient");
  if (recipients) query = query.where("recipient", "in", recipients.length ? recipients : [ZERO]);
  if (roles) query = query.where("role", "in", roles);
  return query.execute();
}

/** How many claims of the token paid someone in one of `roles` (a claim paying two of them counts once). */
export async function countLegacyClaims(
  db: Database,
  scope: LegacyClaimScope,
  roles: LegacyFeeClaimsTable["role"][],
): Promise<number> {
  const row = await inScope(db, scope)
    .select(sql<string>`count(DISTINCT (tx_hash, log_index))`.as("claims"))
    .where("role", "in", roles)
    .executeTakeFirst();
  return Number(row?.claims ?? 0);
}

/**
 * One recipient's claims of the token, newest first: `limit` transactions after `offset`, and one more when more
 * follow. A transaction that paid it twice in one claim (two roles) is listed once.
 */
export function findLegacyClaimsOfRecipient(
  db: Database,
  scope: LegacyClaimScope,
  q: { recipient: string; limit: number; offset: number },
) {
  return inScope(db, scope)
    .select(["tx_hash", "block_number", "log_index"])
    .distinct()
    .where("recipient", "=", q.recipient)
    .orderBy("block_number", "desc")
    .orderBy("log_index", "desc")
    .limit(q.limit + 1)
    .offset(q.offset)
    .execute();
}
