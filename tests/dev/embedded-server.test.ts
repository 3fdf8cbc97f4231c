// The running service serves its embedded PGlite over the Postgres protocol, sharing one session with the
// app's own pool without interleaving transactions; npm commands reach it from another process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import pg from "pg";
import { sql } from "kysely";
import { db, embeddedServerFile } from "@/db";
import { startEmbeddedServer, type EmbeddedServer } from "@/db/embedded-server";

const embedded = !process.env.TEST_DATABASE_URL;

describe.skipIf(!embedded)(
  embedded ? "embedded database server" : "embedded database server: SKIPPED, it exists only without DATABASE_URL",
  () => {
    let server: EmbeddedServer;
    let pool: pg.Pool;
    beforeAll(async () => {
      server = (await startEmbeddedServer())!;
      pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${server.port}/postgres`, max: 4 });
      await sql`CREATE TABLE embedded_probe (id int PRIMARY KEY, note text)`.execute(db());
    });
    afterAll(async () => {
      await pool?.end();
      await server?.stop();
    });

    it("publishes its pid and port in DATA_DIR and answers pg clients", async () => {
      expect(server.port).toBeGreaterThan(0);
      expect(JSON.parse(readFileSync(embeddedServerFile(), "utf8"))).toEqual({ pid: process.pid, port: server.port });
      expect(await startEmbeddedServer()).toBe(server); // idempotent
      const { rows } = await pool.query("SELECT $1::int + 1 AS n, $2::text AS t", [41, "ok"]);
      expect(rows).toEqual([{ n: 42, t: "ok" }]);
    });

    it("keeps a socket's transaction whole: the app's query waits and never sees its rolled-back row", async () => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("INSERT INTO embedded_probe VALUES (1, 'socket')");
        const appCount = sql<{ n: number }>`SELECT count(*)::int AS n FROM embedded_probe`.execute(db());
        await client.query("SELECT pg_sleep(0.05)"); // the app query is queued meanwhile
        await client.query("ROLLBACK");
        expect((await appCount).rows[0].n).toBe(0);
      } finally {
        client.release();
      }
    });

    it("keeps an app transaction whole: a socket query waits and never sees its rolled-back row", async () => {
      let socketCount: Promise<pg.QueryResult> | undefined;
      await expect(
        db()
          .transaction()
          .execute(async (trx) => {
            await sql`INSERT INTO embedded_probe VALUES (2, 'app')`.execute(trx);
            socketCount = pool.query("SELECT count(*)::int AS n FROM embedded_probe");
            await sql`SELECT pg_sleep(0.05)`.execute(trx);
            throw new Error("roll back");
          }),
      ).rejects.toThrow("roll back");
      expect((await socketCount!).rows[0].n).toBe(0);
    });

    it("rolls back a socket that disconnects mid-transaction and hands the session back", async () => {
      const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${server.port}/postgres` });
      client.on("error", () => {});
      await client.connect();
      await client.query("BEGIN");
      await client.query("INSERT INTO embedded_probe VALUES (3, 'abandoned')");
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM embedded_probe WHERE id = 3`.execute(
        db(),
      );
      expect(rows[0].n).toBe(0);
    });

    it("runs many parameterised queries from several sockets and the app at once without mixing them", async () => {
      const viaSocket = Array.from({ length: 40 }, (_, i) =>
        pool.query("SELECT $1::int * 2 AS d, $2::text AS s", [i, `s${i}`]),
      );
      const viaApp = Array.from({ length: 20 }, (_, i) => sql<{ d: number }>`SELECT ${i}::int * 3 AS d`.execute(db()));
      const socketRows = (await Promise.all(viaSocket)).map((r) => r.rows[0]);
      const appRows = (await Promise.all(viaApp)).map((r) => r.rows[0].d);
      expect(socketRows).toEqual(Array.from({ length: 40 }, (_, i) => ({ d: i * 2, s: `s${i}` })));
      expect(appRows).toEqual(Array.from({ length: 20 }, (_, i) => i * 3));
    });

    it("lets an npm command in another process use the database while the service runs", async () => {
      const tsx = createRequire(import.meta.url).resolve("tsx/cli");
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [tsx, "dev/cli/apikey.ts", "create", "--name", "from-cli"],
        {
          env: { ...process.env, LOG_LEVEL: "silent" },
          timeout: 60_000,
        },
      );
      expect(stdout).toMatch(/created key tlk_/);
      const row = await db().selectFrom("api_keys").select("name").where("name", "=", "from-cli").executeTakeFirst();
      expect(row?.name).toBe("from-cli");
    });

    it("removes its file when stopped", async () => {
      await server.stop();
      expect(existsSync(embeddedServerFile())).toBe(false);
      server = (await startEmbeddedServer())!; // for afterAll's symmetry
    });
  },
);
