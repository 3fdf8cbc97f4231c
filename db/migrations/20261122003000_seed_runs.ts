// Which synthetic dataset a database holds (npm run db:seed, npm run bench): lets reruns skip a long seed.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE seed_runs (
      id bigserial PRIMARY KEY,
      tokens integer NOT NULL,
      seed text NOT NULL,
      generator text NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      duration_ms integer
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE seed_runs`.execute(db);
}
