// A tree's life after staging: publish (expand the staged leaf chunks into leaf rows, then make the tree
// its owner's current one in one transaction) and delete (trees replaced or never published).
// Readers resolve the owner's current tree and then read by tree id, so they see the old tree or the new
// one, never a mix; a replaced tree stays readable for MERKLE_RETIRED_TREE_GRACE_SECONDS so that a
// reader that resolved it just before the switch can finish.
import { sql } from "kysely";
import { z } from "zod";
import { db } from "@/db";
import { config } from "@/lib/core/config";
import { defineJob, enqueue, PermanentJobError } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import { bulk } from "./bulk";

const treeIdSchema = z.object({ treeId: z.number().int().positive() });
const DELETE_BATCH = 10_000;

export type PublishOutcome = "published" | "superseded" | "gone";

/** Moves staged chunks into leaf rows, one chunk per transaction (a retry resumes where it stopped). */
async function expandStagedLeaves(treeId: number): Promise<boolean> {
  for (;;) {
    const more = await bulk(async (trx) => {
      // FOR SHARE: a concurrent deletion (FOR UPDATE) waits, or has already removed the row.
      const tree = await sql`SELECT id FROM merkle_trees WHERE id = ${treeId} FOR SHARE`.execute(trx);
      if (!tree.rows.length) return null;
      const next = await sql<{ chunk: number }>`
        SELECT chunk FROM merkle_staged_leaves WHERE tree_id = ${treeId} ORDER BY chunk LIMIT 1`.execute(trx);
      const chunk = next.rows[0]?.chunk;
      if (chunk === undefined) return false;
      await sql`
        INSERT INTO merkle_leaves (tree_id, account, tree_index, amount)
        SELECT s.tree_id, u.account, u.tree_index, u.amount
        FROM merkle_staged_leaves s, unnest(s.accounts, s.tree_indexes, s.amounts) AS u(account, tree_index, amount)
        WHERE s.tree_id = ${treeId} AND s.chunk = ${chunk}`.execute(trx);
      await sql`DELETE FROM merkle_staged_leaves WHERE tree_id = ${treeId} AND chunk = ${chunk}`.execute(trx);
      return true;
    });
    if (more === null) return false;
    if (!more) return true;
  }
}

/** Makes the tree its owner's current tree unless a newer upload already is (last upload wins). */
async function activate(treeId: number): Promise<PublishOutcome> {
  const outcome = await db()
    .transaction()
    .execute(async (trx): Promise<PublishOutcome> => {
      const row = await trx.selectFrom("merkle_trees").select(["owner", "state"]).where("id", "=", treeId).forUpdate().executeTakeFirst();
      if (!row) return "gone";
      if (row.state === "current") return "published";
      if (row.state === "retired") return "superseded";
      await sql`SELECT pg_advisory_xact_lock(hashtext(${row.owner}))`.execute(trx);
      const current = await trx
        .selectFrom("merkle_trees")
        .select("id")
        .where("owner", "=", row.owner)
        .where("state", "=", "current")
        .forUpdate()
        .executeTakeFirst();
      const retire = async (id: number, delaySeconds: number) => {
        await trx.updateTable("merkle_trees").set({ state: "retired" }).where("id", "=", id).execute();
        await enqueue(deleteTreeJob, { treeId: id }, { trx, delaySeconds });
      };
      if (current && current.id > treeId) {
        await retire(treeId, 0);
        return "superseded";
      }
      if (current) await retire(current.id, config().MERKLE_RETIRED_TREE_GRACE_SECONDS);
      await trx.updateTable("merkle_trees").set({ state: "current", published_at: new Date() }).where("id", "=", treeId).execute();
      return "published";
    });
  await dispatchJobs();
  return outcome;
}

/** Publishes a staged tree: the synchronous end of an upload, or the job of an enqueued one. */
export async function publishTree(treeId: number): Promise<PublishOutcome> {
  if (!(await expandStagedLeaves(treeId))) return "gone";
  return activate(treeId);
}

/** Deletes a tree that is not current: its row first (so it can no longer be published), then its data. */
export async function deleteTree(treeId: number): Promise<"deleted" | "kept"> {
  const kept = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await trx.selectFrom("merkle_trees").select("state").where("id", "=", treeId).forUpdate().executeTakeFirst();
      if (row?.state === "current") return true;
      await trx.deleteFrom("merkle_trees").where("id", "=", treeId).execute();
      return false;
    });
  if (kept) return "kept";
  for (const table of ["merkle_tiles", "merkle_staged_leaves", "merkle_leaves"] as const) {
    for (;;) {
      const result = await bulk((trx) =>
        sql`
          DELETE FROM ${sql.table(table)} WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM ${sql.table(table)} WHERE tree_id = ${treeId} LIMIT ${DELETE_BATCH}))`.execute(trx),
      );
      if (Number(result.numAffectedRows ?? 0) < DELETE_BATCH) break;
    }
  }
  return "deleted";
}

export const publishTreeJob = defineJob({
  name: "merkle-publish-tree",
  schema: treeIdSchema,
  async handle({ treeId }) {
    const outcome = await publishTree(treeId);
    if (outcome === "gone") throw new PermanentJobError(`tree ${treeId} was deleted before it was published`);
    return { outcome };
  },
});

export const deleteTreeJob = defineJob({
  name: "merkle-delete-tree",
  schema: treeIdSchema,
  handle: async ({ treeId }) => ({ outcome: await deleteTree(treeId) }),
});

/** Hands a staged tree to the publish job, to run after `delaySeconds` (the enqueued upload). */
export async function queuePublish(treeId: number, delaySeconds: number): Promise<void> {
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.updateTable("merkle_trees").set({ state: "queued" }).where("id", "=", treeId).where("state", "=", "staged").execute();
      await enqueue(publishTreeJob, { treeId }, { trx, delaySeconds });
    });
  await dispatchJobs();
}
