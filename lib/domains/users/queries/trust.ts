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

export type TrustFactsQuery = { tokens: { address: string; chainId: number }[]; deployers: string[]; fids: number[] };

/**
 * In one statement: which of the tokens (lowercase address on a chain) are on the trusted-token list, which of the
 * lowercase deployers on the trusted-deployer list, and the verified addresses of the FIDs that have a profile.
 */
export async function findTrustFacts(db: Database, q: TrustFactsQuery) {
  const { rows } = await sql<{ tokens: string[]; deployers: string[]; verified: Record<string, string[]> | null }>`
    SELECT
      ARRAY(SELECT tt.chain_id || ':' || tt.address FROM trusted_tokens tt
        JOIN unnest(${q.tokens.map((t) => t.address)}::text[], ${q.tokens.map((t) => t.chainId)}::int[]) AS asked(address, chain_id)
        ON tt.address = asked.address AND tt.chain_id = asked.chain_id) AS tokens,
      ARRAY(SELECT address FROM trusted_deployers WHERE address = ANY(${q.deployers}::text[])) AS deployers,
      (SELECT json_object_agg(fid, verified_addresses) FROM users WHERE fid = ANY(${q.fids}::bigint[])) AS verified`.execute(
    db,
  );
  const row = rows[0];
  return {
    tokens: new Set(row.tokens),
    deployers: new Set(row.deployers),
    verified: new Map(Object.entries(row.verified ?? {}).map(([fid, addresses]) => [Number(fid), addresses])),
  };
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
