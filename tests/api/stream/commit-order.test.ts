// Token events that commit out of their sequence's order are neither missed nor sent twice: on a PostgreSQL
// server with two sessions writing at once (PGlite has one session, where the order cannot invert).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { db } from "@/db";
import { readEvents, type Position } from "@/lib/domains/tokens/queries/events";
import { insertTokens } from "@/tests/api/tokens/fixtures";

const server = Boolean(process.env.TEST_DATABASE_URL);
let a: pg.Client;
let b: pg.Client;
let outsider: pg.Client;

const recordSql = `INSERT INTO token_events (token_id, chain_id, contract_address)
  SELECT id, chain_id, contract_address FROM tokens WHERE id = $1 RETURNING seq`;

async function readAll(after: Position | null) {
  const { rows, horizon } = await readEvents(db(), after, 100);
  return { ids: rows.map((r) => r.contract_address), last: rows.at(-1), horizon };
}

beforeAll(async () => {
  if (!server) return;
  [a, b, outsider] = [0, 1, 2].map(() => new pg.Client({ connectionString: process.env.DATABASE_URL }));
  await Promise.all([a.connect(), b.connect()]);
  const other = new URL(process.env.DATABASE_URL!);
  other.pathname = "/postgres";
  outsider = new pg.Client({ connectionString: other.toString() });
  await outsider.connect();
});
afterAll(async () => {
  if (!server) return;
  await Promise.all([a.end(), b.end(), outsider.end()]);
});

describe.skipIf(!server)("token events in commit order", () => {
  it("never hands out an event that sorts before one already read", async () => {
    const [t1, t2] = await insertTokens([{}, {}]);
    const start = (await readAll(null)).horizon;
    // b takes its transaction id first, a records its event (the lower seq), then b records and commits.
    await b.query("BEGIN");
    await b.query("SELECT pg_current_xact_id()");
    await a.query("BEGIN");
    const s1 = (await a.query(recordSql, [t1.id])).rows[0].seq;
    const s2 = (await b.query(recordSql, [t2.id])).rows[0].seq;
    expect(Number(s1)).toBeLessThan(Number(s2));
    await b.query("COMMIT");
    const first = await readAll(start);
    expect(first.ids).toEqual([t2.contract_address]);
    // a commits its lower seq after b's event was read: a seq cursor would skip it; the position does not
    await a.query("COMMIT");
    const second = await readAll({ xid: first.last!.xid, seq: first.last!.seq });
    expect(second.ids).toEqual([t1.contract_address]);
    const third = await readAll(second.horizon);
    expect(third.ids).toEqual([]);
  });

  it("waits for a transaction of this database, and not for one left open in another", async () => {
    const [t3] = await insertTokens([{}]);
    const start = (await readAll(null)).horizon;
    await outsider.query("BEGIN");
    await outsider.query("SELECT pg_current_xact_id()");
    await a.query("BEGIN");
    await a.query("SELECT pg_current_xact_id()");
    await b.query(recordSql, [t3.id]); // autocommit
    expect((await readAll(start)).ids).toEqual([]); // a might still record an event before it
    await a.query("ROLLBACK");
    expect((await readAll(start)).ids).toEqual([t3.contract_address]); // the outsider holds nothing back
    await outsider.query("ROLLBACK");
  });
});
