// Queries on pretokens: a user's pending deployments (younger than `activeDays`, not deleted).
import { sql, type Insertable, type Selectable } from "kysely";
import type { Database } from "@/db";
import type { PretokensTable } from "@/db/tables/pretokens";

export type PretokenRow = Selectable<PretokensTable>;

const pending = (db: Database, userId: string, activeDays: number) =>
  db
    .selectFrom("pretokens")
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .where("created_at", ">", sql<Date>`now() - make_interval(days => ${activeDays})`);

export async function countPendingPretokens(db: Database, userId: string, activeDays: number): Promise<number> {
  const { count } = await pending(db, userId, activeDays)
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Newest first, at most `limit`. */
export function findPendingPretokens(
  db: Database,
  userId: string,
  activeDays: number,
  limit: number,
): Promise<PretokenRow[]> {
  return pending(db, userId, activeDays).selectAll().orderBy("created_at", "desc").orderBy("id").limit(limit).execute();
}

/** Serialises the user's pretoken writes until the transaction ends. */
export async function lockUserPretokens(db: Database, userId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`pretokens:${userId}`}))`.execute(db);
}

export async function insertPretoken(db: Database, values: Insertable<PretokensTable>): Promise<void> {
  await db.insertInto("pretokens").values(values).execute();
}

/** Soft-deletes the user's pending pretoken; false when the user has no such pretoken not deleted yet. */
export async function softDeletePretoken(db: Database, id: string, userId: string): Promise<boolean> {
  const result = await db
    .updateTable("pretokens")
    .set({ deleted_at: sql`now()` })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) !== 0;
}
