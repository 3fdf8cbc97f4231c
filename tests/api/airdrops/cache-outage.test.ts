// GET /api/airdrops/claimed while the cache (Upstash) accepts connections and never answers: the database answers
// within the cache's timeout, the breaker then skips the cache, and reads use it again once it is back.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import Redis from "ioredis";
import { POST } from "@/app/api/airdrops/route";
import { GET as claimedGET } from "@/app/api/airdrops/claimed/route";
import { config, resetConfig } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { airdropOwner } from "@/lib/domains/airdrops/service";
import { currentTree } from "@/lib/domains/merkle/read";
import { kv, resetKv } from "@/lib/platform/kv";
import { CACHE_PAUSE_MS } from "@/lib/platform/kv/breaker";
import { useTestChain } from "@/tests/helpers/chain";
import { freezeDate } from "@/tests/helpers/clock";
import { startFakeServer, type FakeReply, type FakeRequest, type FakeServer } from "@/tests/helpers/fake-server";
import { call } from "@/tests/helpers/http";
import { REDIS_URL, redisReachable, startUpstashServer, type UpstashServer } from "@/tests/helpers/upstash";
import { makeTree, tokenWithAirdrop } from "./trees";

const chain = useTestChain();
const reachable = await redisReachable();
const TOTAL = (6n * 10n ** 17n).toString(); // makeTree(3): 0.1 + 0.2 + 0.3 ether
const TIMEOUT_MS = 1000; // longer than the default, so that "did not wait for it" holds on a busy machine

let token: string;
let upstream: UpstashServer | undefined;
/** The Upstash endpoint the service is given: a black hole until `answering`, then a proxy to `upstream`. */
let endpoint: FakeServer;
let answering = false;

async function forward(req: FakeRequest): Promise<FakeReply> {
  const res = await fetch(`${upstream!.url}${req.path}`, {
    method: req.method,
    headers: {
      authorization: String(req.headers.authorization),
      "content-type": "application/json",
      "upstash-encoding": String(req.headers["upstash-encoding"] ?? ""),
    },
    body: req.body || undefined,
  });
  return { status: res.status, json: await res.json() };
}

beforeAll(async () => {
  const { root, dump } = makeTree(3);
  token = await tokenWithAirdrop(chain(), root);
  // Stored on the Postgres backend: an upload is rate limited, and a rate limit fails closed on a dead Redis.
  const saved = await call(POST, "/api/airdrops", { body: { tokenAddress: token, merkleRoot: root, tree: dump } });
  expect(saved.status, saved.text).toBe(200);
  expect((await claimed()).status).toBe(200); // the route and its queries warm, so timings below are the cache's
  upstream = reachable ? await startUpstashServer() : undefined;
  endpoint = await startFakeServer((req) => (answering && upstream ? forward(req) : { hang: true }));
  process.env.KV_REST_API_URL = endpoint.url;
  process.env.KV_REST_API_TOKEN = upstream?.token ?? "token";
  process.env.CACHE_TIMEOUT_MS = String(TIMEOUT_MS);
  resetConfig();
  resetKv();
});

afterAll(async () => {
  for (const name of ["KV_REST_API_URL", "KV_REST_API_TOKEN", "CACHE_TIMEOUT_MS"]) delete process.env[name];
  resetConfig();
  resetKv();
  await endpoint?.close();
  await upstream?.close();
});

/** The commands of one request: one, or several when the client pipelines them. */
function commandNames(req: FakeRequest): string[] {
  const body = JSON.parse(req.body) as unknown[];
  return (Array.isArray(body[0]) ? (body as unknown[][]) : [body]).map((command) => String(command[0]));
}

const claimed = () => call(claimedGET, `/api/airdrops/claimed?tokenAddress=${token}`);

/** The answer and how long it took, in real milliseconds (freezeDate holds only Date still). */
async function timedClaimed() {
  const start = performance.now();
  const res = await claimed();
  return { res, ms: performance.now() - start };
}

describe("GET /api/airdrops/claimed while the cache does not answer", () => {
  it("answers 200 from the database after the cache's timeout, then skips the cache while the breaker is open", async () => {
    expect((await kv()).backend).toBe("upstash");
    expect(config().CACHE_TIMEOUT_MS).toBe(TIMEOUT_MS);
    freezeDate(); // the breaker's pause is measured by Date.now()
    const warn = vi.spyOn(log, "warn");

    const first = await timedClaimed();
    expect(first.res.status, first.res.text).toBe(200);
    expect(first.res.body.total).toBe(TOTAL);
    expect(first.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50); // it did ask the cache, and waited for its timeout
    expect(first.ms).toBeLessThan(TIMEOUT_MS + 1500); // well under PROVIDER_TIMEOUT_MS (5 s)
    // The read (recorded once the server has read it); the write after it was skipped.
    await vi.waitFor(() => expect(endpoint.requests).toHaveLength(1));

    const second = await timedClaimed();
    expect(second.res.status).toBe(200);
    expect(second.res.body.total).toBe(TOTAL);
    expect(second.ms).toBeLessThan(TIMEOUT_MS);
    await new Promise((resolve) => setTimeout(resolve, 100)); // time for a request sent anyway to arrive
    expect(endpoint.requests).toHaveLength(1);

    vi.setSystemTime(Date.now() + CACHE_PAUSE_MS - 100); // still within the pause
    expect((await claimed()).status).toBe(200);
    expect(endpoint.requests).toHaveLength(1);

    const warnings = warn.mock.calls.filter(([message]) => message.includes("the cache is skipped"));
    expect(warnings).toHaveLength(1); // once per opening, not once per request
    warn.mockRestore();
  });

  it.skipIf(!reachable)("reads use the cache again once it answers, after the breaker's pause", async () => {
    freezeDate();
    const tree = await currentTree(airdropOwner(token));
    const key = `merkle:total:${tree!.id}`;
    const redis = new Redis(REDIS_URL);
    try {
      await redis.del(key); // tree ids repeat across runs on the shared redis-server
      answering = true;
      vi.setSystemTime(Date.now() + CACHE_PAUSE_MS + 1);

      // A miss: the database's sum, written back to the cache.
      expect((await claimed()).body.total).toBe(TOTAL);
      expect(await redis.get(key)).toBe(JSON.stringify(TOTAL));
      // A value only the cache holds is what the next read answers.
      await redis.set(key, JSON.stringify("1000"), "EX", 60);
      const hit = await claimed();
      expect(hit.status).toBe(200);
      expect(hit.body.total).toBe("1000");
      expect(endpoint.requests.flatMap(commandNames)).toEqual(["get", "get", "set", "get"]);
    } finally {
      await redis.del(key);
      redis.disconnect();
    }
  });
});
