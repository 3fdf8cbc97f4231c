// Queries on the trust lists: trusted tokens (per chain) and trusted deployers, and what they say of tokens.
import { sql } from "kysely";
import type { Database } from "@/db";
import type { TokenCondition } from "@/lib/domains/tokens/service";

/** Adding an entry again only replaces its note. */
export async function upsertTrustedToken(
  db: Database,
  address: string,
  chainId: number,
  note: string | null,
): Promise<void> {
  await db
    .insertInto("trusted_tokens")
    .values({ address, chain_id: chainId, note })
    .onConflict((oc) => oc.columns(["address", "chain_id"]).doUpdateSet({ note }))
    .execute();
}

export async function deleteTrustedToken(db: Database, address: string, chainId: number): Promise<boolean> {
  const result = await db
    .deleteFrom("trusted_tokens")
    .where("address", "=", address)
    .where("chain_id", "=", chainId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function upsertTrustedDeployer(db: Database, address: string, note: string | null): Promise<void> {
  await db
    .insertInto("trusted_deployers")
    .values({ address, note })
    .onConflict((oc) => oc.column("address").doUpdateSet({ note }))
    .execute();
}

export async function deleteTrustedDeployer(db: Database, address: string): Promise<boolean> {
  const result = await db.deleteFrom("trusted_deployers").where("address", "=", address).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function listTrustedTokens(db: Database) {
  return db.selectFrom("trusted_tokens").selectAll().orderBy("chain_id").orderBy("address").execute();
}

export function listTrustedDeployers(db: Database) {
  return db.selectFrom("trusted_deployers").selectAll().orderBy("address").execute();
}

/** Of these tokens (lowercase address and chain), the ones on the trusted-token list, as `chainId:address`. */
export async function findTrustedTokens(
  db: Database,
  tokens: { address: string; chainId: number }[],
): Promise<Set<string>> {
  if (!tokens.length) return new Set();
  const rows = await db
    .selectFrom("trusted_tokens")
    .select(["address", "chain_id"])
    .where((eb) => eb.or(tokens.map((t) => eb.and([eb("address", "=", t.address), eb("chain_id", "=", t.chainId)]))))
    .execute();
  return new Set(rows.map((r) => `${r.chain_id}:${r.address}`));
}

/** Of these lowercase addresses, the ones on the trusted-deployer list. */
export async function findTrustedDeployers(db: Database, addresses: string[]): Promise<Set<string>> {
  if (!addresses.length) return new Set();
  const rows = await db.selectFrom("trusted_deployers").select("address").where("address", "in", addresses).execute();
  return new Set(rows.map((r) => r.address));
}

/**
 * A token (`tokens as t`) is trusted when it is listed, its deployer is listed, or its requester verified
 * the deployer: the condition of search-creator's trustedOnly, inside the tokens domain's statement.
 */
export const trustedTokenCondition: TokenCondition = (eb) =>
  eb.or([
    eb.exists(
      eb
        .selectFrom("trusted_tokens as tt")
        .select(sql`1`.as("one"))
        .whereRef("tt.address", "=", "t.contract_address")
        .whereRef("tt.chain_id", "=", "t.chain_id"),
    ),
    eb.exists(
      eb.selectFrom("trusted_deployers as td").select(sql`1`.as("one")).whereRef("td.address", "=", "t.msg_sender"),
    ),
    eb.exists(
      eb
        .selectFrom("users as ru")
        .select(sql`1`.as("one"))
        .whereRef("ru.fid", "=", "t.requestor_fid")
        .where(sql<boolean>`t.msg_sender = ANY(ru.verified_addresses)`),
    ),
  ]);
