// Queries on tokens for the launch domain: upserting a token indexed from its TokenCreated event, and
// reading a launched token back by address.
import { sql, type Insertable } from "kysely";
import type { Database } from "@/db";
import type { TokensTable } from "@/db/tables/core";
import type { TokenRow } from "@/lib/domains/tokens/serialize";
import { storableTokenRow } from "@/lib/domains/tokens/text";

/** Columns a TokenCreated event decides: an upsert refreshes them; what other domains add to a row is kept. */
const FROM_EVENT = [
  "deployed_at",
  "tx_hash",
  "name",
  "symbol",
  "img_url",
  "pool_address",
  "msg_sender",
  "admin",
  "cast_hash",
  "type",
  "pair",
  "factory_address",
  "locker_address",
  "lp_nft_id",
  "metadata",
  "social_context",
  "pool_config",
  "starting_market_cap",
  "warnings",
  "supply",
  "block_number",
  "log_index",
] as const;

/**
 * Inserts the row, or refreshes the event's columns of the stored one (keeping its requestor_fid when the row has none,
 * and its extensions when the same deployment comes without its configuration); returns the stored row. Its text is
 * made storable first (storableTokenRow), whoever built it.
 */
export async function upsertIndexedTokenRow(db: Database, row: Insertable<TokensTable>): Promise<TokenRow> {
  return (await upsertIndexedTokenRows(db, [row]))[0]!;
}

/** upsertIndexedTokenRow for many rows in one statement (no token twice); the stored rows, in no given order. */
export function upsertIndexedTokenRows(db: Database, rows: Insertable<TokensTable>[]): Promise<TokenRow[]> {
  return db
    .insertInto("tokens")
    .values(rows.map(storableTokenRow))
    .onConflict((oc) =>
      oc.columns(["contract_address", "chain_id"]).doUpdateSet((eb) => ({
        ...Object.fromEntries(FROM_EVENT.map((column) => [column, eb.ref(`excluded.${column}`)])),
        requestor_fid: sql`coalesce(excluded.requestor_fid, tokens.requestor_fid)`,
        // The same deployment read again without its configuration (the call could not be read) keeps what was read.
        extensions: sql`case when excluded.tx_hash = tokens.tx_hash and not (excluded.extensions -> 'fees' ? 'recipients')
          and (tokens.extensions -> 'fees' ? 'recipients') then tokens.extensions else excluded.extensions end`,
      })),
    )
    .returningAll()
    .execute();
}

/**
 * Links each of these tokens (lowercase addresses) that has no presale to the presale that deployed it, in one
 * statement; the links made, by address.
 */
export async function linkTokenPresales(
  db: Database,
  chainId: number,
  addresses: string[],
): Promise<Map<string, number>> {
  if (!addresses.length) return new Map();
  const rows = await db
    .updateTable("tokens")
    .from("presales")
    .set((eb) => ({ presale_id: eb.ref("presales.presale_id") }))
    .whereRef("presales.chain_id", "=", "tokens.chain_id")
    .whereRef("presales.token_address", "=", "tokens.contract_address")
    .where("tokens.chain_id", "=", chainId)
    .where("tokens.contract_address", "in", addresses)
    .where("tokens.presale_id", "is", null)
    .returning(["tokens.contract_address", "tokens.presale_id"])
    .execute();
  return new Map(rows.map((r) => [r.contract_address, Number(r.presale_id)]));
}

/** An indexed token whose deployment (fees and reward split) is not read: where to find its TokenCreated again. */
export type UnreadDeployment = {
  id: number;
  chain_id: number;
  contract_address: string;
  factory_address: string;
  block_number: number;
};

/**
 * The next `limit` tokens after id `afterId` on these chains indexed from a TokenCreated whose `extensions` hold no
 * reward split: the ones indexed before the deploying call was read, or whose call could not be decoded.
 */
export function findUnreadDeployments(
  db: Database,
  { chainIds, afterId, limit }: { chainIds: number[]; afterId: number; limit: number },
): Promise<UnreadDeployment[]> {
  if (!chainIds.length) return Promise.resolve([]);
  return db
    .selectFrom("tokens")
    .select(["id", "chain_id", "contract_address", "factory_address", "block_number"])
    .where("id", ">", afterId)
    .where("type", "=", "clanker_v4")
    .where("factory_address", "is not", null)
    .where("block_number", "is not", null)
    .where("chain_id", "in", chainIds)
    .where(sql<boolean>`not coalesce(extensions -> 'fees' ? 'recipients', false)`)
    .orderBy("id")
    .limit(limit)
    .execute() as Promise<UnreadDeployment[]>;
}

/** The token at a lowercase address on the chain. */
export function findTokenByContract(db: Database, chainId: number, address: string): Promise<TokenRow | undefined> {
  return db
    .selectFrom("tokens")
    .selectAll()
    .where("contract_address", "=", address)
    .where("chain_id", "=", chainId)
    .executeTakeFirst();
}

/** The deployment transaction of the token at a lowercase address on the chain, when it is indexed. */
export async function findTokenTxHash(db: Database, chainId: number, address: string): Promise<string | null> {
  const row = await db
    .selectFrom("tokens")
    .select("tx_hash")
    .where("contract_address", "=", address)
    .where("chain_id", "=", chainId)
    .executeTakeFirst();
  return row?.tx_hash ?? null;
}

/** Links the token at a lowercase address to the presale that deployed it (a row not indexed yet: nothing). */
export async function linkTokenPresale(
  db: Database,
  chainId: number,
  address: string,
  presaleId: number,
): Promise<void> {
  await db
    .updateTable("tokens")
    .set({ presale_id: presaleId })
    .where("contract_address", "=", address)
    .where("chain_id", "=", chainId)
    .where((eb) => eb.or([eb("presale_id", "is", null), eb("presale_id", "!=", presaleId)]))
    .execute();
}
