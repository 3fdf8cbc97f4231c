// Hostile uploaders against the built server (`next start`) on a throwaway PostgreSQL database, with the local
// chain on 127.0.0.1 holding the roots, for `npm run reliability -- --hostile`:
//   - tree uploads the chain does not back (unknown token or presale, another root, no airdrop on chain, the
//     chain's root over another tree, a large forged tree), counted by status; passing: each answers its
//     documented 404 or 422, none is a 5xx, and no stored row changed (every table hashed before and after,
//     rate-limit counters aside), the genuine trees still served; an unknown token's upload whose body never ends
//     is answered 404 at its head (within EARLY_MS), as the owner is checked before the tree is read;
//   - slow senders: SLOW_SENDERS connections that trickle (or stall) an admitted upload while holding every upload
//     slot, the server run with MERKLE_UPLOAD_TIMEOUT_SECONDS=DEADLINE_S; passing: each is answered 408
//     `request_timeout` with `Connection: close` within the deadline plus MARGIN_S, an upload while they hold the
//     slots is turned away (503 with Retry-After: they did hold them), and as many uploads as there are slots
//     right after all succeed (every slot was freed);
//   - hostile chain events (hostile-chain.ts): planted on the same chain and indexed around, none a 5xx.
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Hex } from "viem";
import { buildStandardTree, type StandardDump } from "@/lib/domains/merkle/build";
import { startAirdropChain } from "@/tests/helpers/airdrop-chain";
import { useThrowawayDatabase } from "./database";
import { buildIsPresent, freePort, nextBuild, startServer } from "@/tests/bench/server";
import { type HostileChainResult, prepareHostileChain, runHostileChain } from "./hostile-chain";

export type RefusalCase = {
  name: string;
  expected: number;
  requests: number;
  byStatus: Record<string, number>;
  unexpected: number;
  maxMs: number;
};
export type SlowAnswer = {
  kind: "trickle" | "stall";
  status: number;
  code: string | null;
  ms: number;
  connectionClose: boolean;
};
export type Check = { name: string; passed: boolean; detail: string };
export type HostileResult = {
  at: string;
  refused: RefusalCase[];
  largeForged: { megabytes: number; status: number; ms: number; connectionClose: boolean };
  earlyRefusal: { status: number; ms: number };
  slow: {
    senders: number;
    deadlineSeconds: number;
    marginSeconds: number;
    answers: SlowAnswer[];
    whileHeld: { status: number; retryAfter: string | null };
    after: number[];
  };
  chain?: HostileChainResult;
  checks: Check[];
  passed: boolean;
};

const REPEAT = 20;
const SLOW_SENDERS = 6;
const DEADLINE_S = 4;
const MARGIN_S = 3;
const HANG_MS = 30_000;
const EARLY_MS = 5_000;

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string; ms: number };

/**
 * POSTs `head`, then either the rest of the body (with backpressure) or, with `dripMs`, one byte of it every
 * dripMs (never the end); resolves with the answer as soon as the server gives one, whatever it does to the
 * request. A keep-alive request, so a `Connection: close` in the answer is the server's own decision.
 */
function post(
  port: number,
  urlPath: string,
  body: Buffer,
  options: { headBytes?: number; dripMs?: number; hangMs?: number; localAddress?: string } = {},
): Promise<Answer> {
  const started = Date.now();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise<Answer>((resolve) => {
    let answered = false;
    let drip: NodeJS.Timeout | undefined;
    const done = (a: Omit<Answer, "ms">) => {
      if (answered) return;
      answered = true;
      clearInterval(drip);
      clearTimeout(hang);
      req.destroy();
      agent.destroy();
      resolve({ ...a, ms: Date.now() - started });
    };
    const hangMs = options.hangMs ?? HANG_MS;
    const hang = setTimeout(
      () => done({ status: 0, headers: {}, text: `no answer within ${hangMs / 1000} s` }),
      hangMs,
    );
    const req = http.request({
      host: "127.0.0.1",
      localAddress: options.localAddress,
      port,
      path: urlPath,
      method: "POST",
      agent,
      headers: { "content-type": "application/json", "content-length": body.length, connection: "keep-alive" },
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    // An early answer closes the connection under the rest of the body: the write errors that follow are expected.
    req.on("error", (e) =>
      setTimeout(() => done({ status: 0, headers: {}, text: `request failed: ${e.message}` }), 1000),
    );
    const headBytes = options.headBytes ?? body.length;
    req.write(body.subarray(0, headBytes));
    if (options.dripMs) {
      let at = headBytes;
      drip = setInterval(() => {
        if (at < body.length - 1) req.write(body.subarray(at, ++at));
      }, options.dripMs);
      return;
    }
    void (async () => {
      for (let at = headBytes; at < body.length && !answered && !req.destroyed; at += 65_536) {
        if (!req.write(body.subarray(at, at + 65_536))) await new Promise((r) => req.once("drain", r).once("close", r));
      }
      if (!answered && !req.destroyed) req.end();
    })();
  });
}

type ErrorBody = { code?: string; details?: { expected?: string; received?: string }[] };

/** The code and details of an error answer (the envelope keeps them beside the message). */
function errorOf(a: Answer): ErrorBody {
  try {
    return JSON.parse(a.text) as ErrorBody;
  } catch {
    return {};
  }
}

/** The body's members first, then `tree` (as the SDK sends it): the server admits the owner before the tree. */
const uploadBody = (members: Record<string, unknown>, dump: StandardDump) =>
  Buffer.from(`${JSON.stringify(members).slice(0, -1)},"tree":${JSON.stringify(dump)}}`);

let treeSeed = 0;
/** A tree of `leaves` leaves whose root nobody else holds. */
function freshTree(leaves: number) {
  const salt = BigInt(++treeSeed) * 1_000_003n;
  const account = (i: number) =>
    `0x${(BigInt(i + 1) * 0x9e3779b97f4a7c15n + salt).toString(16).padStart(40, "0").slice(-40)}`;
  return buildStandardTree(
    Array.from({ length: leaves }, (_, i) => [account(i), BigInt(i + 1) * 10n ** 15n + salt] as const),
  );
}

export async function runHostile(baseUrl: string): Promise<HostileResult> {
  if (!buildIsPresent()) await nextBuild();
  const name = `tls_hostile_${process.pid}`;
  const { closeDb } = await useThrowawayDatabase(baseUrl, name);
  const { snapshot } = await import("@/tests/security/fuzz");

  const chain = await startAirdropChain();
  const logFile = path.join(tmpdir(), `tls-hostile-${process.pid}.log`);
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const checks: Check[] = [];
  const check = (name: string, passed: boolean, detail: string) => void checks.push({ name, passed, detail });
  try {
    const genuine = freshTree(200);
    const token = await chain.launch(genuine.root);
    const noAirdrop = await chain.launch(`0x${"0".repeat(64)}` as Hex);
    const allowlist = freshTree(50);
    const presaleId = await chain.presale(allowlist.root);
    const hostileChain = await prepareHostileChain(chain.chain);
    const port = await freePort();
    console.error(`starting next start on port ${port} (log: ${logFile})`);
    server = await startServer(
      port,
      {
        ...process.env,
        ...chain.env,
        ...hostileChain.env,
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        JOB_WORKER: "false",
        // One client IP sends every upload here: the hourly per-IP upload limit would answer 429 by design.
        MERKLE_UPLOADS_PER_HOUR: "1000000",
        MERKLE_UPLOAD_TIMEOUT_SECONDS: String(DEADLINE_S),
        MERKLE_MAX_CONCURRENT_UPLOADS: String(SLOW_SENDERS),
        // The slow senders all come from 127.0.0.1 and must each take a slot: the per-client share is what they fill.
        MERKLE_MAX_UPLOADS_PER_CLIENT: String(SLOW_SENDERS),
      },
      logFile,
    );
    const airdropBody = (tokenAddress: string, merkleRoot: string, dump: StandardDump) =>
      uploadBody({ tokenAddress, merkleRoot }, dump);
    const allowlistBody = (id: number, merkleRoot: string, dump: StandardDump) =>
      uploadBody({ presaleId: id, chainId: 8453, merkleRoot }, dump);
    const genuineAirdrop = airdropBody(token, genuine.root, genuine.dump);
    for (const [label, body, route] of [
      ["airdrop", genuineAirdrop, "/api/airdrops"],
      ["allowlist", allowlistBody(presaleId, allowlist.root, allowlist.dump), "/api/presales/allowlists"],
    ] as const) {
      const a = await post(port, route, body);
      if (a.status !== 200)
        throw new Error(`the genuine ${label} upload answered ${a.status}: ${a.text.slice(0, 300)}`);
    }

    // Uploads the chain does not back.
    const before = await snapshot();
    const cases: {
      name: string;
      route: string;
      expected: number;
      body: () => Buffer;
      details?: (a: Answer) => string | null;
    }[] = [];
    const forged = () => freshTree(1 + (treeSeed % 64));
    cases.push({
      name: "airdrop of a token not indexed",
      route: "/api/airdrops",
      expected: 404,
      body: () => {
        const t = forged();
        return airdropBody(`0x${(0xdead0000 + treeSeed).toString(16).padStart(40, "0")}`, t.root, t.dump);
      },
    });
    let lastForged = "";
    cases.push({
      name: "airdrop with a root the token's airdrop does not hold",
      route: "/api/airdrops",
      expected: 422,
      body: () => {
        const t = forged();
        lastForged = t.root;
        return airdropBody(token, t.root, t.dump);
      },
      details: (a) => {
        const d = errorOf(a).details?.[0];
        return d?.expected === genuine.root.toLowerCase() && d?.received === lastForged.toLowerCase()
          ? null
          : `details ${JSON.stringify(d)}`;
      },
    });
    cases.push({
      name: "airdrop of an indexed token with no airdrop on chain",
      route: "/api/airdrops",
      expected: 422,
      body: () => {
        const t = forged();
        return airdropBody(noAirdrop, t.root, t.dump);
      },
    });
    cases.push({
      name: "airdrop naming the chain's root over another tree",
      route: "/api/airdrops",
      expected: 422,
      body: () => airdropBody(token, genuine.root, forged().dump),
    });
    cases.push({
      name: "allowlist of a presale on no chain",
      route: "/api/presales/allowlists",
      expected: 404,
      body: () => {
        const t = forged();
        return allowlistBody(presaleId + 1000, t.root, t.dump);
      },
    });
    cases.push({
      name: "allowlist with a root the presale does not hold",
      route: "/api/presales/allowlists",
      expected: 422,
      body: () => {
        const t = forged();
        return allowlistBody(presaleId, t.root, t.dump);
      },
    });
    const refused: RefusalCase[] = [];
    for (const c of cases) {
      const r: RefusalCase = { name: c.name, expected: c.expected, requests: 0, byStatus: {}, unexpected: 0, maxMs: 0 };
      const problems: string[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const a = await post(port, c.route, c.body());
        r.requests++;
        r.byStatus[a.status] = (r.byStatus[a.status] ?? 0) + 1;
        r.maxMs = Math.max(r.maxMs, a.ms);
        const wrong = a.status !== c.expected ? `${a.status} ${a.text.slice(0, 200)}` : c.details?.(a);
        if (wrong) {
          r.unexpected++;
          if (problems.length < 3) problems.push(wrong);
        }
      }
      refused.push(r);
      check(
        `${c.name}: ${c.expected}`,
        r.unexpected === 0,
        r.unexpected
          ? `${r.unexpected} of ${r.requests} otherwise: ${problems.join("; ")}`
          : `${r.requests} of ${r.requests}`,
      );
    }
    // A large forged tree: refused at its head, before the rest is read, and the connection is not reused.
    const big = freshTree(50_000);
    const bigBody = airdropBody(token, big.root, big.dump);
    const bigAnswer = await post(port, "/api/airdrops", bigBody);
    const largeForged = {
      megabytes: Math.round((bigBody.length / 2 ** 20) * 10) / 10,
      status: bigAnswer.status,
      ms: bigAnswer.ms,
      connectionClose: bigAnswer.headers.connection === "close",
    };
    check(
      `a ${largeForged.megabytes} MB forged tree: 422 with Connection: close`,
      bigAnswer.status === 422 && largeForged.connectionClose,
      `${bigAnswer.status} in ${bigAnswer.ms} ms, connection: ${bigAnswer.headers.connection ?? "-"}`,
    );
    // The owner is checked as soon as the members before `tree` are in: an unknown token's upload whose body never
    // ends is answered at its head.
    const endless = airdropBody(`0x${"ad".repeat(20)}`, genuine.root, genuine.dump);
    const early = await post(port, "/api/airdrops", endless, {
      headBytes: endless.indexOf(Buffer.from('"tree":')) + 50,
      dripMs: 3_600_000,
      hangMs: EARLY_MS,
    });
    check(
      `an unknown token's upload whose body never ends: 404 within ${EARLY_MS / 1000} s`,
      early.status === 404,
      early.status ? `${early.status} in ${early.ms} ms` : early.text,
    );
    const after = await snapshot();
    const changed = Object.keys(after.counts).filter((t) => after.counts[t] !== before.counts[t]);
    check(
      "no stored row changed (every table hashed, rate-limit counters aside)",
      after.hash === before.hash,
      after.hash === before.hash ? "same hash" : `changed: ${changed.join(", ") || "contents"}`,
    );
    const served = await fetch(`http://127.0.0.1:${port}/api/airdrops/allocations?tokenAddress=${token}&limit=1`).then(
      (r) => r.json() as Promise<{ merkleRoot?: string }>,
    );
    check(
      "the genuine airdrop tree is still the one served",
      served.merkleRoot?.toLowerCase() === genuine.root.toLowerCase(),
      `served root ${served.merkleRoot}`,
    );
    const fives = refused.reduce(
      (n, r) =>
        n +
        Object.entries(r.byStatus)
          .filter(([s]) => Number(s) >= 500)
          .reduce((m, [, k]) => m + k, 0),
      0,
    );
    check("no 5xx among the refused uploads", fives === 0, `${fives}`);

    // Slow senders holding every upload slot.
    const headBytes = genuineAirdrop.indexOf(Buffer.from('"tree":')) + 200;
    const slowStarted = Date.now();
    const slow = Array.from({ length: SLOW_SENDERS }, (_, i) => {
      const kind = i % 3 === 2 ? ("stall" as const) : ("trickle" as const);
      return post(port, "/api/airdrops", genuineAirdrop, {
        headBytes,
        dripMs: kind === "trickle" ? 250 : 3_600_000,
      }).then((a) => ({ kind, a }));
    });
    await new Promise((r) => setTimeout(r, 1500));
    // From another client address: the slow senders' own client is refused by its per-client share (429) first.
    const held = await post(port, "/api/airdrops", genuineAirdrop, { localAddress: "127.0.0.2" });
    const whileHeld = { status: held.status, retryAfter: (held.headers["retry-after"] as string | undefined) ?? null };
    check(
      "an upload while the slow senders hold every slot: 503 with Retry-After",
      held.status === 503 && whileHeld.retryAfter !== null,
      held.status === 200
        ? "200: the upload went through, so a slot was free"
        : `${held.status}${whileHeld.retryAfter ? " with" : " without"} Retry-After`,
    );
    const answers: SlowAnswer[] = (await Promise.all(slow)).map(({ kind, a }) => ({
      kind,
      status: a.status,
      code: errorOf(a).code ?? null,
      ms: a.ms,
      connectionClose: a.headers.connection === "close",
    }));
    const limit = (DEADLINE_S + MARGIN_S) * 1000;
    const bad = answers.filter(
      (a) => a.status !== 408 || a.code !== "request_timeout" || a.ms > limit || !a.connectionClose,
    );
    check(
      `${SLOW_SENDERS} slow senders: 408 request_timeout with Connection: close within ${DEADLINE_S} + ${MARGIN_S} s`,
      bad.length === 0,
      bad.length
        ? bad
            .map((a) =>
              a.status
                ? `${a.kind}: ${a.status} ${a.code} in ${a.ms} ms${a.connectionClose ? "" : " without Connection: close"}`
                : `${a.kind}: no answer within ${HANG_MS / 1000} s`,
            )
            .join("; ")
        : `slowest ${Math.max(...answers.map((a) => a.ms))} ms (all cut ${Date.now() - slowStarted} ms after they started)`,
    );
    const afterUploads = await Promise.all(
      Array.from({ length: SLOW_SENDERS }, () => post(port, "/api/airdrops", genuineAirdrop)),
    );
    check(
      `${SLOW_SENDERS} uploads right after (as many as there are slots): 200`,
      afterUploads.every((a) => a.status === 200),
      afterUploads.map((a) => a.status).join(", "),
    );
    const planted = await runHostileChain(chain.chain, server.baseUrl, hostileChain.logger);
    checks.push(...planted.checks);
    const result: HostileResult = {
      at: new Date().toISOString(),
      refused,
      largeForged,
      earlyRefusal: { status: early.status, ms: early.ms },
      slow: {
        senders: SLOW_SENDERS,
        deadlineSeconds: DEADLINE_S,
        marginSeconds: MARGIN_S,
        answers,
        whileHeld,
        after: afterUploads.map((a) => a.status),
      },
      chain: planted.result,
      checks,
      passed: checks.every((c) => c.passed),
    };
    return result;
  } finally {
    await server?.stop();
    await chain.close();
    await closeDb();
    const cleanup = new pg.Client({ connectionString: baseUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  }
}
