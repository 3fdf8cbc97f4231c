// Queries on the trust lists: trusted tokens (per chain) and trusted deployers, and what they say of tokens.
import { sql, type SqlBool } from "kysely";
import type { Database } from "@/db";

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

const TRUSTED_TOKEN = sql<boolean>`exists (select 1 from trusted_tokens tt
  where tt.address = t.contract_address and tt.chain_id = t.chain_id)`;
const TRUSTED_DEPLOYER = sql<boolean>`exists (select 1 from trusted_deployers td where td.address = t.msg_sender)`;

/**
 * What a token (`tokens as t`) carries for its trustStatus, read in its page's own statement (PageRequest's
 * extraColumns): whether it is on the trusted-token list, whether its deployer is on the trusted-deployer list, and
 * its requester's verified addresses (null when the requester has no profile).
 */
export const trustFactColumns = [
  TRUSTED_TOKEN.as("trusted_token"),
  TRUSTED_DEPLOYER.as("trusted_deployer"),
  sql<string[] | null>`(select ru.verified_addresses from users ru where ru.fid = t.requestor_fid)`.as(
    "requester_verified",
  ),
] as const;

/**
 * A token (`tokens as t`) is trusted when it is listed, its deployer is listed, or its requester verified
 * the deployer: the condition of search-creator's trustedOnly, inside the tokens domain's statement (a
 * TokenCondition there; not typed as one here, so the users domain imports nothing of the tokens domain).
 */
export const trustedTokenCondition = () =>
  sql<SqlBool>`(${TRUSTED_TOKEN} or ${TRUSTED_DEPLOYER} or exists (select 1 from users ru
    where ru.fid = t.requestor_fid and t.msg_sender = any(ru.verified_addresses)))`;
