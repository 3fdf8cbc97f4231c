// Statements on the presales table: the list, allowlist roots, and the indexer's upsert of a presale row.
import type { Selectable, Updateable } from "kysely";
import type { Database } from "@/db";
import type { PresalesTable } from "@/db/tables/presales";

/**
 * One page of presales (newest or oldest start first) and how many match. `status`: one status, any of
 * several, or (undefined) all.
 */
export async function findPresalePage(
  db: Database,
  q: {
    sort: "asc" | "desc";
    limit: number;
    offset: number;
    chainId?: number;
    presaleId?: number;
    status?: number | number[];
  },
): Promise<{ rows: Selectable<PresalesTable>[]; count: number }> {
  let query = db.selectFrom("presales");
  if (q.chainId !== undefined) query = query.where("chain_id", "=", q.chainId);
  if (q.presaleId !== undefined) query = query.where("presale_id", "=", q.presaleId);
  if (Array.isArray(q.status)) query = query.where("status", "in", q.status);
  else if (q.status !== undefined) query = query.where("status", "=", q.status);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy("started_at", (ob) => (q.sort === "asc" ? ob.asc().nullsLast() : ob.desc().nullsLast()))
      .orderBy("id", q.sort)
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(count.n) };
}

/** The presale's row id and indexed allowlist root. */
export function findPresaleAllowlistRoot(db: Database, chainId: number, presaleId: number) {
  return db
    .selectFrom("presales")
    .select(["id", "allowlist_root"])
    .where("chain_id", "=", chainId)
    .where("presale_id", "=", presaleId)
    .executeTakeFirst();
}

/** `root` lowercase. */
export async function updatePresaleAllowlistRoot(db: Database, id: number, root: string): Promise<void> {
  await db.updateTable("presales").set({ allowlist_root: root, updated_at: new Date() }).where("id", "=", id).execute();
}

/** A bare row for a presale not seen before; an existing row is left alone. */
export async function insertPresaleIfMissing(
  db: Database,
  chainId: number,
  presaleId: number,
  presaleAddress: string,
): Promise<void> {
  await db
    .insertInto("presales")
    .values({ chain_id: chainId, presale_id: presaleId, presale_address: presaleAddress, deployment_config: null })
    .onConflict((oc) => oc.columns(["chain_id", "presale_id"]).doNothing())
    .execute();
}

/** The presale's row, locked FOR UPDATE (call inside a transaction). */
export function lockPresale(db: Database, chainId: number, presaleId: number): Promise<Selectable<PresalesTable>> {
  return db
    .selectFrom("presales")
    .selectAll()
    .where("chain_id", "=", chainId)
    .where("presale_id", "=", presaleId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function updatePresale(db: Database, id: number, update: Updateable<PresalesTable>): Promise<void> {
  await db.updateTable("presales").set(update).where("id", "=", id).execute();
}

/** The id of the presale that deployed the token at a lowercase address, if one did. */
export async function findPresaleIdOfToken(
  db: Database,
  chainId: number,
  tokenAddress: string,
): Promise<number | null> {
  const row = await db
    .selectFrom("presales")
    .select("presale_id")
    .where("chain_id", "=", chainId)
    .where("token_address", "=", tokenAddress)
    .executeTakeFirst();
  return row ? Number(row.presale_id) : null;
}
