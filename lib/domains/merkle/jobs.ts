// A tree's life after staging: publish (make the tree its owner's current one, in one transaction) and delete
// (trees replaced or never published).
// Readers resolve the owner's current tree and then read by tree id, so they see the old tree or the new
// one, never a mix; a replaced tree stays readable for MERKLE_RETIRED_TREE_GRACE_SECONDS so that a
// reader that resolved it just before the switch can finish.
import { z } from "zod";
import { db } from "@/db";
import { config } from "@/lib/core/config";
import { defineJob, enqueue, PermanentJobError } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import type { JobSet } from "@/lib/platform/jobs/registry";
import {
  bulk,
  deleteTreeDataBatch,
  deleteTreeRow,
  lockCurrentTree,
  lockOwnerTrees,
  lockTree,
  markTreeCurrent,
  markTreeQueued,
  markTreeRetired,
  TREE_DATA_TABLES,
} from "./queries";

const treeIdSchema = z.object({ treeId: z.number().int().positive() });
const DELETE_BATCH = 10_000;

export type PublishOutcome = "published" | "superseded" | "gone";

/**
 * Publishes a staged tree (its leaves and tiles are written): the synchronous end of an upload, or the job of an
 * enqueued one. Makes it its owner's current tree unless a newer upload already is (last upload wins).
 */
export async function publishTree(treeId: number): Promise<PublishOutcome> {
  const outcome = await db()
    .transaction()
    .execute(async (trx): Promise<PublishOutcome> => {
      const row = await lockTree(trx, treeId);
      if (!row) return "gone";
      if (row.state === "current") return "published";
      if (row.state === "retired") return "superseded";
      await lockOwnerTrees(trx, row.owner);
      const current = await lockCurrentTree(trx, row.owner);
      const retire = async (id: number, delaySeconds: number) => {
        await markTreeRetired(trx, id);
        await enqueue(deleteTreeJob, { treeId: id }, { db: trx, delaySeconds });
      };
      if (current && current.id > treeId) {
        await retire(treeId, 0);
        return "superseded";
      }
      if (current) await retire(current.id, config().MERKLE_RETIRED_TREE_GRACE_SECONDS);
      await markTreeCurrent(trx, treeId);
      return "published";
    });
  await dispatchJobs();
  return outcome;
}

/** Deletes a tree that is not current: its row first (so it can no longer be published), then its data. */
export async function deleteTree(treeId: number): Promise<"deleted" | "kept"> {
  const kept = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await lockTree(trx, treeId);
      if (row?.state === "current") return true;
      await deleteTreeRow(trx, treeId);
      return false;
    });
  if (kept) return "kept";
  for (const table of TREE_DATA_TABLES) {
    await bulk(async (trx) => (await deleteTreeDataBatch(trx, table, treeId, DELETE_BATCH)) === DELETE_BATCH);
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
      await markTreeQueued(trx, treeId);
      await enqueue(publishTreeJob, { treeId }, { db: trx, delaySeconds });
    });
  await dispatchJobs();
}

export const merkleJobs: JobSet = { jobs: [publishTreeJob, deleteTreeJob] };
