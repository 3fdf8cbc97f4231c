// What a domain seeder is given and what it declares (dev/seed/registry.ts lists the seeders).
import type { Database } from "@/db";
import type { Phase } from "./phases";
import type { Prng } from "./prng";

export type SeedContext = {
  /**
   * For lookups and small writes: the first bulk connection (statement_timeout off). Do not call db()
   * while seeding: on PGlite and through a running embedded service the pool has only this connection.
   */
  db: Database;
  /**
   * Connections reserved for bulk inserts, with statement_timeout off and synchronous_commit off.
   * Pass them to nothing else; use `insert()` for bulk rows.
   */
  connections: readonly Database[];
  /** This seeder's own stream (forked by its name): adding a seeder never changes another's rows. */
  rng: Prng;
  /** Seeded tokens have ids firstId..lastId (contiguous); use them rather than querying for ids. */
  tokens: { count: number; firstId: number; lastId: number };
  /** Seeded users have fids firstFid..lastFid (contiguous). */
  users: { count: number; firstFid: number; lastFid: number };
  /** Bulk-inserts a phase (unnest batches, progress bar included). */
  insert(phase: Phase): Promise<void>;
};

export type DomainSeeder = {
  name: string;
  /** Bump when the rows it writes change, so `npm run bench` reseeds databases made by the old one. */
  version: number;
  /** Tables it fills, emptied by `--reset` (tables referencing tokens are emptied by the cascade anyway). */
  tables: readonly string[];
  run(ctx: SeedContext): Promise<void>;
};
