// Queries on token_submissions (tokens users said they deployed from the UI). The TokenCreated indexer's progress
// is in the checkpoint store (lib/platform/checkpoints.ts).
import type { Insertable } from "kysely";
import type { Database } from "@/db";
import type { TokenSubmissionsTable } from "@/db/tables/deploy";

/** One submission per (chain, address, user): a later one replaces its transaction hash. */
export async function upsertTokenSubmission(
  db: Database,
  submission: Insertable<TokenSubmissionsTable>,
): Promise<void> {
  await db
    .insertInto("token_submissions")
    .values(submission)
    .onConflict((oc) => oc.columns(["chain_id", "address", "user_id"]).doUpdateSet({ tx_hash: submission.tx_hash }))
    .execute();
}
