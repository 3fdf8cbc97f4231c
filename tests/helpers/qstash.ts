// A local stand-in for QStash: its publish API (POST /v2/publish/<destination>), signed deliveries with retries,
// flow control's parallelism (messages of one Upstash-Flow-Control-Key are delivered that many at a time), and
// the schedules API (create or overwrite by Upstash-Schedule-Id, list, get, delete; it never fires them).
import { createHash, randomBytes } from "node:crypto";
import { SignJWT } from "jose";
import { resetConfig } from "@/lib/core/config";
import { type FakeReply, type FakeRequest, startFakeServer, type FakeServer } from "./fake-server";

/**
 * An `Upstash-Signature` as QStash makes it (checked against @upstash/qstash's Receiver): HS256 with a
 * signing key; iss "Upstash", sub = destination URL, body = base64url(sha256(body)) with padding,
 * a 5-minute lifetime (exp, nbf = iat) and a jti. `claims` overrides any of them for negative tests
 * (undefined leaves one out).
 */
export async function signDelivery(
  key: string,
  url: string,
  body: string,
  claims: Record<string, unknown> = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const bodyHash = createHash("sha256").update(body).digest("base64").replace(/\+/g, "-").replace(/\//g, "_");
  return new SignJWT({
    iss: "Upstash",
    sub: url,
    exp: now + 300,
    nbf: now,
    iat: now,
    jti: `jwt_${randomBytes(12).toString("hex")}`,
    body: bodyHash,
    ...claims,
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .sign(new TextEncoder().encode(key));
}

export type PublishedMessage = {
  messageId: string;
  destination: string;
  body: string;
  headers: Record<string, string>;
  delaySeconds: number;
  deduplicationId?: string;
  retries: number;
  /** From Upstash-Flow-Control-Key and -Value (`parallelism=<n>, rate=<n>, period=<d>`). */
  flowControl?: FlowControl;
};

export type FlowControl = { key: string; parallelism?: number; rate?: number; period?: string };

export type DeliveryAttempt = { messageId: string; retried: number; status: number };

/** A schedule as QStash keeps it; `header` holds the forwarded headers (Upstash-Forward-<name>) under <name>. */
export type FakeSchedule = {
  scheduleId: string;
  cron: string;
  destination: string;
  method: string;
  header: Record<string, string[]>;
  retries: number;
  createdAt: number;
  isPaused: boolean;
};

export type FakeQStash = {
  url: string;
  token: string;
  currentSigningKey: string;
  nextSigningKey: string;
  server: FakeServer;
  /** Accepted messages (a deduplicated publish adds none). */
  messages: PublishedMessage[];
  /** Every delivery attempt and the status the destination answered (0: unreachable). */
  deliveries: DeliveryAttempt[];
  /** The schedules API's state, by schedule id (tests may seed it). */
  schedules: Map<string, FakeSchedule>;
  /**
   * Runs before each retry, after the retry delay: tests move the clock of the service here (e.g. make
   * a backed-off row due) instead of waiting out QStash's real delays.
   */
  beforeRetry?: (message: PublishedMessage, retried: number) => void | Promise<void>;
  /** Sends a message again, as QStash's at-least-once delivery may. */
  redeliver(messageId: string): Promise<number>;
  /** Resolves once every accepted message has been delivered or has used up its retries. */
  idle(): Promise<void>;
  /** Points the service at this stand-in (QSTASH_URL, QSTASH_TOKEN, signing keys) and resets config. */
  useInService(): void;
  close(): Promise<void>;
};

export type FakeQStashOptions = {
  /** Retries when a message does not say (Upstash-Retries); default 3. */
  retries?: number;
  /** Wait before the nth retry (0-based); default 10 ms · 2^n instead of QStash's e^(2.5n) s. */
  retryDelayMs?: (retried: number) => number;
  /** Multiplies Upstash-Delay (default 1: real seconds; 0 delivers delayed messages at once). */
  delayScale?: number;
};

function parseDelay(value: string | undefined): number {
  if (!value) return 0;
  const match = /^(\d+)(s|m|h|d)?$/.exec(value.trim());
  if (!match) throw new Error(`bad Upstash-Delay ${value}`);
  return Number(match[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[(match[2] ?? "s") as "s"];
}

/** Null when QStash would refuse it: a key needs a parallelism or a rate. */
function parseFlowControl(key: string, value: string | undefined): FlowControl | null {
  const fields = Object.fromEntries(
    (value ?? "")
      .split(",")
      .map((part) => part.trim().split("="))
      .filter((kv) => kv.length === 2),
  );
  const flow: FlowControl = {
    key,
    parallelism: Number(fields.parallelism) || undefined,
    rate: Number(fields.rate) || undefined,
    period: fields.period,
  };
  return key && (flow.parallelism || flow.rate) ? flow : null;
}

function header(headers: FakeServer["requests"][number]["headers"], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export async function startFakeQStash(options: FakeQStashOptions = {}): Promise<FakeQStash> {
  const token = `qstash_test_${randomBytes(8).toString("hex")}`;
  const currentSigningKey = `sig_current_${randomBytes(8).toString("hex")}`;
  const nextSigningKey = `sig_next_${randomBytes(8).toString("hex")}`;
  const messages: PublishedMessage[] = [];
  const deliveries: DeliveryAttempt[] = [];
  const byDedupe = new Map<string, string>();
  const timers = new Set<NodeJS.Timeout>();
  let outstanding = 0;
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (--outstanding === 0) for (const w of waiters.splice(0)) w();
  };
  const active = new Map<string, number>();
  const queued = new Map<string, Array<() => void>>();
  /** Waits for a free place under the message's flow-control parallelism; resolves to its release. */
  async function flowSlot(message: PublishedMessage): Promise<() => void> {
    const flow = message.flowControl;
    if (!flow?.parallelism) return () => {};
    while ((active.get(flow.key) ?? 0) >= flow.parallelism) {
      await new Promise<void>((resolve) => queued.set(flow.key, [...(queued.get(flow.key) ?? []), resolve]));
    }
    active.set(flow.key, (active.get(flow.key) ?? 0) + 1);
    return () => {
      active.set(flow.key, active.get(flow.key)! - 1);
      queued.get(flow.key)?.shift()?.();
    };
  }
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  async function deliverOnce(message: PublishedMessage, retried: number): Promise<number> {
    const signature = await signDelivery(currentSigningKey, message.destination, message.body);
    let status = 0;
    try {
      const res = await fetch(message.destination, {
        method: message.headers["upstash-method"] ?? "POST",
        headers: {
          ...forwarded(message.headers),
          "content-type": message.headers["content-type"] ?? "application/json",
          "user-agent": "Upstash-QStash",
          "upstash-signature": signature,
          "upstash-message-id": message.messageId,
          "upstash-retried": String(retried),
        },
        body: message.body,
      });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      status = 0;
    }
    deliveries.push({ messageId: message.messageId, retried, status });
    return status;
  }

  function deliver(message: PublishedMessage, retried: number) {
    void flowSlot(message)
      .then(async (release) => {
        const status = await deliverOnce(message, retried);
        release();
        return status;
      })
      .then((status) => {
        // QStash retries every non-2xx answer (and unreachable destinations) until its retries are used up.
        if ((status < 200 || status >= 300) && retried < message.retries) {
          later((options.retryDelayMs ?? ((n) => 10 * 2 ** n))(retried), async () => {
            await Promise.resolve(fake.beforeRetry?.(message, retried + 1)).catch(() => {});
            deliver(message, retried + 1);
          });
        } else settle();
      });
  }

  const schedules = new Map<string, FakeSchedule>();
  function scheduleApi(req: FakeRequest): FakeReply {
    const rest = decodeURIComponent(req.path.slice("/v2/schedules".length).replace(/^\//, ""));
    if (req.method === "GET" && !rest) return { json: [...schedules.values()] };
    if (req.method === "GET" || req.method === "DELETE") {
      const found = schedules.get(rest);
      if (!found) return { status: 404, json: { error: `schedule ${rest} not found` } };
      if (req.method === "DELETE") schedules.delete(rest);
      return req.method === "GET" ? { json: found } : { text: "" };
    }
    if (req.method !== "POST" || !rest) return { status: 405, json: { error: "method not allowed" } };
    const destination = rest + (req.query.size ? `?${req.query}` : "");
    if (!/^https?:\/\//.test(destination))
      return { status: 400, json: { error: `invalid destination: ${destination}` } };
    const cron = header(req.headers, "upstash-cron") ?? "";
    if (cron.trim().split(/\s+/).length !== 5) return { status: 400, json: { error: `invalid cron: ${cron}` } };
    const scheduleId = header(req.headers, "upstash-schedule-id") ?? `scd_${randomBytes(10).toString("hex")}`;
    const forwarded: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (name.startsWith("upstash-forward-"))
        forwarded[name.slice("upstash-forward-".length)] = [Array.isArray(value) ? value[0]! : (value ?? "")];
    schedules.set(scheduleId, {
      scheduleId,
      cron,
      destination,
      method: header(req.headers, "upstash-method") ?? "POST",
      header: forwarded,
      retries: Number(header(req.headers, "upstash-retries") ?? options.retries ?? 3),
      createdAt: schedules.get(scheduleId)?.createdAt ?? Date.now(),
      isPaused: false,
    });
    return { status: 201, json: { scheduleId } };
  }

  const server = await startFakeServer((req) => {
    if (req.path === "/v2/schedules" || req.path.startsWith("/v2/schedules/")) {
      if (header(req.headers, "authorization") !== `Bearer ${token}`)
        return { status: 401, json: { error: "Unauthorized" } };
      return scheduleApi(req);
    }
    if (req.method !== "POST" || !req.path.startsWith("/v2/publish/"))
      return { status: 404, json: { error: "not found" } };
    if (header(req.headers, "authorization") !== `Bearer ${token}`)
      return { status: 401, json: { error: "Unauthorized" } };
    const destination =
      decodeURIComponent(req.path.slice("/v2/publish/".length)) + (req.query.size ? `?${req.query}` : "");
    if (!/^https?:\/\//.test(destination))
      return { status: 400, json: { error: `invalid destination: ${destination}` } };
    const deduplicationId = header(req.headers, "upstash-deduplication-id");
    if (deduplicationId && byDedupe.has(deduplicationId)) {
      return { status: 202, json: { messageId: byDedupe.get(deduplicationId), deduplicated: true } };
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : (v ?? "")]),
    );
    const notBefore = header(req.headers, "upstash-not-before");
    const delaySeconds = notBefore
      ? Math.max(0, Number(notBefore) - Date.now() / 1000)
      : parseDelay(header(req.headers, "upstash-delay"));
    const retries = header(req.headers, "upstash-retries");
    const flowKey = header(req.headers, "upstash-flow-control-key");
    const flowControl =
      flowKey === undefined ? undefined : parseFlowControl(flowKey, header(req.headers, "upstash-flow-control-value"));
    if (flowControl === null)
      return { status: 400, json: { error: "flow control needs a key and a parallelism or rate" } };
    const message: PublishedMessage = {
      messageId: `msg_${randomBytes(10).toString("hex")}`,
      destination,
      body: req.body,
      headers,
      delaySeconds,
      deduplicationId,
      retries: retries === undefined ? (options.retries ?? 3) : Number(retries),
      flowControl,
    };
    messages.push(message);
    if (deduplicationId) byDedupe.set(deduplicationId, message.messageId);
    outstanding++;
    later(delaySeconds * 1000 * (options.delayScale ?? 1), () => deliver(message, 0));
    return { status: 201, json: { messageId: message.messageId } };
  });

  const fake: FakeQStash = {
    url: server.url,
    token,
    currentSigningKey,
    nextSigningKey,
    server,
    messages,
    deliveries,
    schedules,
    redeliver: (messageId) => {
      const message = messages.find((m) => m.messageId === messageId);
      if (!message) throw new Error(`no message ${messageId}`);
      return deliverOnce(message, 0);
    },
    idle: () => (outstanding === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    useInService() {
      process.env.QSTASH_URL = server.url;
      process.env.QSTASH_TOKEN = token;
      process.env.QSTASH_CURRENT_SIGNING_KEY = currentSigningKey;
      process.env.QSTASH_NEXT_SIGNING_KEY = nextSigningKey;
      resetConfig();
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      waiters = [];
      await server.close();
    },
  };
  return fake;
}

/** Headers the publisher sent as Upstash-Forward-<name>, delivered as <name>. */
function forwarded(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (k.startsWith("upstash-forward-")) out[k.slice("upstash-forward-".length)] = v;
  return out;
}
