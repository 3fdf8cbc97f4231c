// A stream resumes across a restart of the server without a gap or a duplicate: a resume needs nothing but the
// database. A server process (tests/api/stream/serve-one.ts) streams tokens and is killed with SIGKILL; tokens keep
// coming; a new process, given the last id the client saw, sends exactly the tokens missed, then the next ones live.
// On a PostgreSQL server: the embedded PGlite belongs to one process.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/db";
import { enqueueTokenCreatedWebhooks } from "@/lib/domains/webhooks/service";
import { partnerKey } from "@/tests/helpers/auth";
import { address, tokenValues } from "@/tests/api/tokens/fixtures";
import { SseReader } from "./sse";

const server = Boolean(process.env.TEST_DATABASE_URL);
const root = path.resolve(import.meta.dirname, "../../..");
const running: ChildProcess[] = [];
let n = 0;

/** Indexes tokens as the indexer does, one transaction each; returns their addresses. */
async function index(count: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    n += 1;
    const row = await db()
      .transaction()
      .execute(async (trx) => {
        const values = tokenValues({
          contract_address: address("a", 9000 + n),
          name: `Restart ${n}`,
          deployed_at: new Date(),
        });
        const inserted = await trx.insertInto("tokens").values(values).returningAll().executeTakeFirstOrThrow();
        await enqueueTokenCreatedWebhooks(trx, inserted);
        return inserted;
      });
    out.push(row.contract_address.toLowerCase());
  }
  return out;
}

/** A server process serving one stream, read as a client would. */
function serve(key: string, lastEventId = ""): { reader: SseReader; process: ChildProcess } {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/api/stream/serve-one.ts", key, lastEventId], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "error", STREAM_HEARTBEAT_SECONDS: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  running.push(child);
  const body = Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>;
  return { reader: new SseReader(body), process: child };
}

const tokensOf = (r: SseReader) => r.of("token").map((f) => JSON.parse(f.data!).contract_address.toLowerCase());

afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
});

describe.skipIf(!server)("GET /api/tokens/stream across a server restart", () => {
  it("resumes from the last id the client saw with exactly what it missed", async () => {
    const key = await partnerKey("restart");
    const first = serve(key);
    await first.reader.until(() => first.reader.of("ready").length === 1, 30_000);
    const seen = await index(2);
    await first.reader.until(() => first.reader.of("token").length === 2, 10_000);
    expect(tokensOf(first.reader)).toEqual(seen);
    const resumeAt = first.reader.lastEventId;
    first.process.kill("SIGKILL");
    await new Promise((resolve) => first.process.once("exit", resolve));

    const missed = await index(3);
    const second = serve(key, resumeAt);
    await second.reader.until(() => second.reader.of("token").length === 3, 30_000);
    expect(tokensOf(second.reader)).toEqual(missed);
    const [live] = await index(1);
    await second.reader.until(() => second.reader.of("token").length === 4, 10_000);
    expect(tokensOf(second.reader)).toEqual([...missed, live]);
  }, 90_000);
});
