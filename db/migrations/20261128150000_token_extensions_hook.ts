// Tokens indexed before `extensions` was read answer their pool's fee hook anyway: the indexer has kept it in
// pool_config.poolHook (from TokenCreated) since it indexed v4 tokens, and clients build a token's pool key from
// `extensions.fees.hook_address` (without it they take the token to have no pool). Their fees and reward split stay
// unknown until the token is indexed again (`npm run tokens -- read-deployments`). In slices of the primary key, each
// statement well under the migrations' 60 s limit (a slice of 50,000 rows to write took 9 s on the bench's PostgreSQL,
// one with nothing to write 0.15 s). All slices run in the migrator's one transaction, with the other pending
// migrations: where a million tokens all need the hook, the build waits about 3 minutes, and only those older rows stay
// locked meanwhile (the indexer writes them only when asked to index one again). The code before this migration reads
// the column as it is.
import { sql, type Kysely } from "kysely";

const SLICE = 50_000;

export async function up(db: Kysely<any>): Promise<void> {
  // bigint ids: numbers through pg's parser here, maybe bigints or strings through another driver.
  const { rows } = await sql<{ lo: unknown; hi: unknown }>`
    SELECT min(id) AS lo, max(id) AS hi FROM tokens WHERE extensions IS NULL
  `.execute(db);
  const { lo, hi } = rows[0]!;
  if (lo === null || hi === null) return;
  for (let from = Number(lo); from <= Number(hi); from += SLICE) {
    await sql`
      UPDATE tokens
        SET extensions = jsonb_build_object('fees', jsonb_build_object('hook_address', pool_config -> 'poolHook'))
        WHERE id >= ${from} AND id < ${from + SLICE} AND extensions IS NULL
          AND jsonb_typeof(pool_config -> 'poolHook') = 'string'
    `.execute(db);
  }
}

/** The hook-only objects this migration wrote are what the indexer writes without a configuration: kept. */
export async function down(): Promise<void> {}
