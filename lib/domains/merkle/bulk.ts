// The transaction every bulk write of the tree store runs in.
import { sql, type Transaction } from "kysely";
import { db } from "@/db";
import type { DB } from "@/db/types";

const BULK_STATEMENT_TIMEOUT_MS = 60_000;

/**
 * Runs one bulk statement (a few MB of tiles or leaves) in its own transaction with a longer statement
 * timeout than the service's default (STATEMENT_TIMEOUT_MS is sized for reads): on a loaded database a
 * batch can take seconds, and a timeout would fail a whole upload.
 */
export async function bulk<T>(write: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db()
    .transaction()
    .execute(async (trx) => {
      await sql`SET LOCAL statement_timeout = ${sql.raw(String(BULK_STATEMENT_TIMEOUT_MS))}`.execute(trx);
      return write(trx);
    });
}

