// A local Upstash Redis REST server over the real redis-server (127.0.0.1:6379), for tests of the Upstash backend.
//
// Why not an npm package: @humanwhocodes/upstash-redis-server (the one offline-capable candidate on the registry,
// its only release 1.0.0) ignores `Upstash-Encoding: base64`, which @upstash/redis sends by default, so every
// string result would be decoded into garbage; it also lacks /multi-exec and answers command errors with 500.
// Upstash's own local emulator (serverless-redis-http) is an Elixir server shipped as a container image, not an
// npm package, so it cannot run here. This one speaks the protocol the client uses: POST / with a JSON command
// array, POST /pipeline and /multi-exec with an array of them, the path form (/set/k/v), a Bearer token (or
// ?_token=), `{result}` / `{error}` bodies (400 on a command error, 401 on a bad token), and base64-encoded string
// results when the client asks for them.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import { afterAll, beforeAll, describe } from "vitest";
import { resetConfig } from "@/lib/core/config";
import { resetKv } from "@/lib/platform/kv";

export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export type UpstashServer = {
  url: string;
  token: string;
  /** Commands received, in order (for assertions about what the client sent). */
  commands: string[][];
  close(): Promise<void>;
};

type Reply = Buffer | number | null | Reply[];

/** Whether a redis-server answers at REDIS_URL; tests of the Upstash backend skip (saying why) when it does not. */
export async function redisReachable(url = REDIS_URL): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on("error", () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Upstash sends status "OK" as is; every other string is base64 when the client asked for that encoding. */
function encode(reply: Reply, base64: boolean): unknown {
  if (reply === null || typeof reply === "number") return reply;
  if (Array.isArray(reply)) return reply.map((r) => encode(r, base64));
  const text = reply.toString("utf8");
  return base64 && text !== "OK" ? reply.toString("base64") : text;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** ioredis turns an HGETALL reply into an object even for callBuffer; Redis (and Upstash) answer a flat array. */
function asReply(value: unknown): Reply {
  if (value && typeof value === "object" && !Buffer.isBuffer(value) && !Array.isArray(value))
    return Object.entries(value).flatMap(([k, v]) => [Buffer.from(k), v as Reply]);
  return value as Reply;
}

function isCommand(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) && value.length > 0 && value.every((v) => ["string", "number", "boolean"].includes(typeof v))
  );
}

export async function startUpstashServer(options: { redisUrl?: string; token?: string } = {}): Promise<UpstashServer> {
  const token = options.token ?? randomBytes(16).toString("hex");
  const redis = new Redis(options.redisUrl ?? REDIS_URL, { maxRetriesPerRequest: 1 });
  redis.on("error", () => {}); // surfaced per command as {error}
  const commands: string[][] = [];

  const run = async (command: unknown[]): Promise<Reply> => {
    const [name, ...args] = command.map(String);
    commands.push([name, ...args]);
    return asReply(await redis.callBuffer(name, ...args));
  };

  async function answer(req: IncomingMessage, url: URL, body: string): Promise<{ status: number; json: unknown }> {
    const given = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? url.searchParams.get("_token");
    if (given !== token) return { status: 401, json: { error: "Unauthorized" } };
    const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
    let parsed: unknown;
    if (body.trim()) {
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = body; // the path form takes a raw body as the last argument
      }
    }
    if (url.pathname === "/pipeline" || url.pathname === "/multi-exec") {
      if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(isCommand)) {
        return { status: 400, json: { error: "ERR body must be a non-empty array of command arrays" } };
      }
      if (url.pathname === "/pipeline") {
        const results = await Promise.all(
          parsed.map((c) =>
            run(c).then(
              (r) => ({ result: encode(r, base64) }),
              (e) => ({ error: errorMessage(e) }),
            ),
          ),
        );
        return { status: 200, json: results };
      }
      const tx = redis.multi();
      for (const c of parsed) {
        const [name, ...args] = c.map(String);
        commands.push([name, ...args]);
        tx.callBuffer(name, ...args);
      }
      try {
        const results = (await tx.exec()) ?? [];
        return {
          status: 200,
          json: results.map(([e, r]) => (e ? { error: errorMessage(e) } : { result: encode(asReply(r), base64) })),
        };
      } catch (error) {
        return { status: 400, json: { error: errorMessage(error) } };
      }
    }
    let command: unknown[];
    if (url.pathname === "/" || url.pathname === "") {
      if (!isCommand(parsed)) return { status: 400, json: { error: "ERR body must be a non-empty command array" } };
      command = parsed;
    } else {
      command = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
      if (parsed !== undefined) command.push(typeof parsed === "string" ? parsed : JSON.stringify(parsed));
    }
    try {
      return { status: 200, json: { result: encode(await run(command), base64) } };
    } catch (error) {
      return { status: 400, json: { error: errorMessage(error) } };
    }
  }

  const sockets = new Set<Socket>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://upstash.local");
    const { status, json } =
      req.method === "POST" || req.method === "GET"
        ? await answer(req, url, await readBody(req))
        : { status: 405, json: { error: "method not allowed" } };
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(json));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    commands,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}

/**
 * A describe block whose tests run with the service's kv() on a local Upstash-REST server (KV_REST_API_URL), skipped
 * with its reason in the title when redis-server is not reachable.
 */
export async function describeOnUpstash(title: string, body: () => void): Promise<void> {
  const reachable = await redisReachable();
  describe.skipIf(!reachable)(
    reachable ? title : `${title}: SKIPPED, redis-server not reachable at ${REDIS_URL}`,
    () => {
      let server: UpstashServer;
      beforeAll(async () => {
        server = await startUpstashServer();
        process.env.KV_REST_API_URL = server.url;
        process.env.KV_REST_API_TOKEN = server.token;
        resetConfig();
        resetKv();
      });
      afterAll(async () => {
        delete process.env.KV_REST_API_URL;
        delete process.env.KV_REST_API_TOKEN;
        resetConfig();
        resetKv();
        await server?.close();
      });
      body();
    },
  );
}
