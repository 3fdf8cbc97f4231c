// Staged leaf chunks keep their accounts as bytea[]: expanding a chunk with substring() on one packed
// bytea detoasted the whole 200 KB value once per leaf (96 s for 100,000 leaves); unnest of an array
// detoasts it once. Trees still staged under the old layout cannot be expanded: they are dropped here
// (their uploads were never published) and their leftover rows go with them.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    DELETE FROM merkle_trees WHERE state IN ('staged', 'queued');
    DELETE FROM merkle_tiles WHERE tree_id NOT IN (SELECT id FROM merkle_trees);
    DELETE FROM merkle_staged_leaves;
    ALTER TABLE merkle_staged_leaves ALTER COLUMN accounts TYPE bytea[] USING '{}';
    -- Random bytes do not compress: store the arrays out of line without trying.
    ALTER TABLE merkle_staged_leaves ALTER COLUMN accounts SET STORAGE EXTERNAL;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DELETE FROM merkle_staged_leaves;
    ALTER TABLE merkle_staged_leaves ALTER COLUMN accounts TYPE bytea USING '';
  `.execute(db);
}
