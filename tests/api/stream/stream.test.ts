// GET /api/tokens/stream against a real database: new tokens arrive once and in order, as GET /api/tokens writes
// them; filters; resuming by Last-Event-ID or cursor; the gap event past the retention; caps; the graceful end.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { enqueueTokenCreatedWebhooks } from "@/lib/domains/webhooks/service";
import { pruneEvents } from "@/lib/domains/tokens/queries/events";
import { openStreamCount } from "@/lib/domains/stream/service";
import { GET } from "@/app/api/tokens/stream/route";
import { GET as listTokens } from "@/app/api/tokens/route";
import { call } from "@/tests/helpers/http";
import { partnerKey } from "@/tests/helpers/auth";
import { createApiKey } from "@/lib/domains/partners/apikeys";
import { readKeyUsage } from "@/lib/domains/partners/usage";
import { address, tokenValues, type TokenInput } from "@/tests/api/tokens/fixtures";
import { SseReader } from "./sse";

const open: SseReader[] = [];
let n = 0;

function setEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
}

/** Indexes tokens as the indexer does: the row and its event in one transaction. */
async function index(inputs: TokenInput[]): Promise<string[]> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const out: string[] = [];
      for (const input of inputs) {
        n += 1;
        const row = await trx
          .insertInto("tokens")
          .values(
            tokenValues({ contract_address: address("e", n), name: `Live ${n}`, deployed_at: new Date(), ...input }),
          )
          .returningAll()
          .executeTakeFirstOrThrow();
        await enqueueTokenCreatedWebhooks(trx, row);
        out.push(row.contract_address);
      }
      return out;
    });
}

async function stream(query = "", headers: Record<string, string> = {}) {
  const response = await GET(new Request(`http://localhost:3000/api/tokens/stream${query}`, { headers }) as any, {
    params: Promise.resolve({}),
  });
  if (response.status !== 200) return { response, reader: null };
  const reader = new SseReader(response.body!);
  open.push(reader);
  return { response, reader };
}

async function opened(query = "", headers: Record<string, string> = {}) {
  const { response, reader } = await stream(query, headers);
  expect(response.status).toBe(200);
  await reader!.until(() => reader!.lastEventId !== "");
  return reader!;
}

const tokensOf = (r: SseReader) => r.of("token").map((f) => JSON.parse(f.data!));
const addressesOf = (r: SseReader) => tokensOf(r).map((t) => t.contract_address.toLowerCase());

beforeAll(() => setEnv({ STREAM_POLL_MS: "50", STREAM_HEARTBEAT_SECONDS: "1" }));
afterEach(async () => {
  for (const r of open.splice(0)) await r.close();
});
afterAll(() =>
  setEnv({ STREAM_POLL_MS: undefined, STREAM_HEARTBEAT_SECONDS: undefined, STREAM_MAX_PER_CLIENT: undefined }),
);

describe("GET /api/tokens/stream", () => {
  it("sends each new token once, in order, as the token object of GET /api/tokens, with SSE headers", async () => {
    const { response, reader } = await stream();
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    await reader!.until(() => reader!.of("ready").length === 1);
    expect(reader!.retry).toBeGreaterThan(0);
    const first = await index([{}, {}]);
    const second = await index([{}]);
    await reader!.until(() => reader!.of("token").length === 3);
    expect(addressesOf(reader!)).toEqual([...first, ...second]);
    const listed = await call(listTokens as any, `/api/tokens?q=${second[0]}`);
    expect(tokensOf(reader!)[2]).toEqual(listed.body.data[0]);
    // ids only grow: each names the position after its event
    const ids = reader!.of("token").map((f) => f.id);
    expect(new Set(ids).size).toBe(3);
  });

  it("reads a token committed elsewhere at its NOTIFY, not at the reader's next tick", async () => {
    setEnv({ STREAM_POLL_MS: "10000" });
    try {
      const reader = await opened();
      const started = Date.now();
      const [a] = await index([{}]);
      await reader.until(() => reader.of("token").length === 1);
      expect(addressesOf(reader)).toEqual([a]);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      setEnv({ STREAM_POLL_MS: "50" });
    }
  });

  it("filters by chainId, fid, msgSender, pair and type, and moves a filtered stream's id past what it skipped", async () => {
    const byFid = await opened("?fid=777");
    const bySender = await opened(`?msgSender=${address("f", 1).toUpperCase().replace("0X", "0x")}`);
    const byPair = await opened("?pair=usdc&chainId=8453&type=clanker_v4");
    const before = byFid.lastEventId;
    const [a] = await index([{ requestor_fid: 777 }]);
    const [b] = await index([{ msg_sender: address("f", 1) }]);
    const [c] = await index([{ pair: "USDC", type: "clanker_v4" }]);
    await index([{ pair: "USDC", chain_id: 1 }]);
    await byPair.until(() => byPair.of("token").length === 1);
    await byFid.until(() => byFid.lastEventId !== byFid.of("token")[0]?.id && byFid.of("token").length === 1);
    await bySender.until(() => bySender.of("token").length === 1);
    expect(addressesOf(byFid)).toEqual([a]);
    expect(addressesOf(bySender)).toEqual([b]);
    expect(addressesOf(byPair)).toEqual([c]);
    expect(byFid.lastEventId).not.toBe(before);
  });

  it("adds the creator profile and market data when asked, as GET /api/tokens does", async () => {
    const reader = await opened("?includeUser=true&includeMarket=true&fid=4242");
    await index([{ requestor_fid: 4242 }]);
    await reader.until(() => reader.of("token").length === 1);
    const [token] = tokensOf(reader);
    const listed = await call(listTokens as any, `/api/tokens?fid=4242&includeUser=true&includeMarket=true`);
    expect(token).toEqual(listed.body.data[0]);
    expect(token.related).toHaveProperty("market");
  });

  it("resumes after Last-Event-ID (or cursor) with exactly what was missed, even past an unmatched tail", async () => {
    const first = await opened();
    await index([{}]);
    await first.until(() => first.of("token").length === 1);
    const resumeAt = first.lastEventId;
    await first.close();
    const missed = await index([{}, {}, {}]);
    const byHeader = await opened("", { "last-event-id": resumeAt });
    await byHeader.until(() => byHeader.of("token").length === 3);
    expect(addressesOf(byHeader)).toEqual(missed);
    const byQuery = await opened(`?cursor=${resumeAt}`);
    await byQuery.until(() => byQuery.of("token").length === 3);
    expect(addressesOf(byQuery)).toEqual(missed);
    expect(byQuery.of("ready")).toEqual([]);
    // no duplicate once live: one more token is one more event
    const [more] = await index([{}]);
    await byHeader.until(() => byHeader.of("token").length === 4);
    expect(addressesOf(byHeader).at(-1)).toBe(more);
    await new Promise((r) => setTimeout(r, 300));
    expect(byHeader.of("token")).toHaveLength(4);
  });

  it("tells a client away longer than the retention where to page from", async () => {
    const first = await opened();
    await index([{ deployed_at: new Date() }]);
    await first.until(() => first.of("token").length === 1);
    const stale = first.lastEventId;
    await first.close();
    await index([{ deployed_at: new Date() }]);
    expect(await pruneEvents(db(), new Date(Date.now() + 60_000))).toBeGreaterThan(0);
    const back = await opened("", { "last-event-id": stale });
    await back.until(() => back.of("gap").length === 1);
    const gap = JSON.parse(back.of("gap")[0].data!);
    expect(gap.list).toMatch(/^\/api\/tokens\?sort=asc&cursor=/);
    const page = await call(listTokens as any, gap.list);
    expect(page.status).toBe(200);
    expect(page.body.data.length).toBeGreaterThan(0);
    const [after] = await index([{}]);
    await back.until(() => back.of("token").length === 1);
    expect(addressesOf(back)).toEqual([after]);
  });

  it("refuses a cursor it did not write, and more streams than the cap with 429 and Retry-After", async () => {
    const bad = await stream("", { "last-event-id": "nope" });
    expect(bad.response.status).toBe(400);
    expect((await bad.response.json()).code).toBe("invalid_request");
    const badQuery = await stream("?cursor=abc");
    expect(badQuery.response.status).toBe(400);
    setEnv({ STREAM_MAX_PER_CLIENT: "1" });
    try {
      await opened();
      const refused = await stream();
      expect(refused.response.status).toBe(429);
      expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThan(0);
      // an API key counts against the key, not the address
      const key = await partnerKey("streams");
      await opened("", { "x-api-key": key });
      const unknown = await stream("", { "x-api-key": "tl_nope" });
      expect(unknown.response.status).toBe(401);
    } finally {
      setEnv({ STREAM_MAX_PER_CLIENT: undefined });
    }
  });

  it("takes an API key as every partner route does: its scope, its requests a minute, one request of usage", async () => {
    const noRead = await createApiKey("stream-deploy-only", { scopes: ["deploy"] });
    const refused = await stream("", { "x-api-key": noRead.key });
    expect(refused.response.status).toBe(403);
    expect((await refused.response.json()).code).toBe("forbidden");
    const limited = await createApiKey("stream-limited", { scopes: ["read"], requestsPerMinute: 2 });
    // Aligned to the start of a minute, so that the limiter's window does not turn between the opens.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 55_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    await opened("", { "x-api-key": limited.key });
    await opened("?chainId=8453", { "x-api-key": limited.key });
    const third = await stream("", { "x-api-key": limited.key });
    expect(third.response.status).toBe(429);
    expect(Number(third.response.headers.get("retry-after"))).toBeGreaterThan(0);
    const [today] = await readKeyUsage(limited.id, 1);
    expect(today.byRoute).toContainEqual({ route: "GET /api/tokens/stream", status: 200, count: 2 });
    expect(today.byRoute).toContainEqual({ route: "GET /api/tokens/stream", status: 429, count: 1 });
  }, 70_000);

  it("gives the slot back when the client goes", async () => {
    const before = openStreamCount();
    const reader = await opened();
    expect(openStreamCount()).toBe(before + 1);
    await reader.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(openStreamCount()).toBe(before);
  });

  it("ends with an `end` event before its time is up", async () => {
    setEnv({ STREAM_MAX_SECONDS: "5" });
    try {
      const reader = await opened();
      await reader.until(() => reader.of("end").length === 1, 7000);
      expect(JSON.parse(reader.of("end")[0].data!).cursor).toBe(reader.lastEventId);
      await reader.until(() => reader.done, 1000);
    } finally {
      setEnv({ STREAM_MAX_SECONDS: undefined });
    }
  }, 15_000);
});
