// Auth and access on every protected route (discovered from the route() definitions): the shared auth matrix,
// JWTs signed with another key or with HS256 over the public key, one user never touching another's pretoken,
// `score` never in a non-admin leaderboard answer, SQL metacharacters in every text parameter harmless, and
// outbound HTTP only from the reviewed modules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { exportSPKI, generateKeyPair, SignJWT } from "jose";
import { sql } from "kysely";
import { db } from "@/db";
import { computeLeaderboard } from "@/lib/domains/leaderboard/compute";
import { ingestFile } from "@/dev/cli/agents-file";
import { INTERVALS } from "@/lib/domains/leaderboard/scoring";
import { AUDIENCE, authMatrix, ISSUER, unsignedToken } from "@/tests/helpers/auth";
import { call } from "@/tests/helpers/http";
import { activity, agent, writeJsonLines } from "@/tests/unit/leaderboard/fixtures";
import { discoverEndpoints, hostileString, send, snapshot, violation, type Endpoint } from "./fuzz";
import { MAY_503, setupHostileEnv, type Env } from "./suite";

const endpoints = await discoverEndpoints();
const protectedEndpoints = endpoints.filter((ep) => ["partner", "user", "admin"].includes(ep.definition.auth));
let env: Env;

beforeAll(async () => {
  env = await setupHostileEnv();
});
afterAll(async () => {
  await env?.issuer.close();
  await env?.thirdParty.close();
});

/** A request to `ep` with only the given credentials (auth is checked before any input parsing). */
function sender(ep: Endpoint) {
  return (headers: Record<string, string>) => {
    const params = Object.fromEntries(ep.paramNames.map((n) => [n, randomUUID()]));
    const url = ep.template.replace(/\[([^\]]+)\]/g, (_m, n: string) => params[n]);
    const body = ep.method === "GET" || ep.method === "DELETE" ? undefined : {};
    return call(ep.handler, url, { method: ep.method, headers, params, body });
  };
}

const fid = 4242;
const claims = (exp = Math.floor(Date.now() / 1000) + 3600) =>
  new SignJWT({}).setIssuer(ISSUER).setAudience(AUDIENCE).setSubject(String(fid)).setIssuedAt().setExpirationTime(exp);

describe("auth matrix on every protected route", () => {
  it("discovers the protected routes", () => expect(protectedEndpoints.length).toBeGreaterThan(8));
  for (const ep of protectedEndpoints) {
    describe(`${ep.id} (${ep.definition.auth})`, () => {
      authMatrix(ep.definition.auth as "partner" | "user" | "admin", sender(ep), () => env.issuer);
      if (ep.definition.auth !== "partner") {
        it("answers 401 for a token signed with another key, HS256 over the public key, or a wrong sub", async () => {
          const other = await generateKeyPair("ES256");
          const tokens = [
            await claims().setProtectedHeader({ alg: "ES256", kid: "test" }).sign(other.privateKey),
            await claims()
              .setProtectedHeader({ alg: "HS256", kid: "test" })
              .sign(new TextEncoder().encode(await exportSPKI(other.publicKey))),
            unsignedToken(1).replace(/\.$/, ".c2ln"),
            `${(await env.issuer.token(1)).split(".").slice(0, 2).join(".")}.AAAA`,
          ];
          for (const token of tokens) {
            const res = await sender(ep)({ authorization: `Bearer ${token}` });
            expect(res.status, res.text).toBe(401);
            expect(res.body.code).toBe("unauthorized");
          }
        });
      }
    });
  }
});

/** Settings as POST /api/pretoken/v4 stores them (the answer's documented shape). */
const settingsOf = (owner: number) => {
  const wallet = `0x${String(owner).padStart(40, "0")}`;
  return { name: `secret-${owner}`, symbol: "SEC", admins: [{ admin: wallet, recipient: wallet, allocation: 100 }] };
};

describe("one user never reads, changes or deletes another's pretoken", () => {
  const byId = new Map<string, number>();
  beforeAll(async () => {
    for (const owner of [42, 43]) {
      for (let i = 0; i < 3; i++) {
        const id = randomUUID();
        byId.set(id, owner);
        await db()
          .insertInto("pretokens")
          .values({
            id,
            user_id: `fid:${owner}`,
            fid: owner,
            keyword: `k${owner}`,
            chain_id: 8453,
            token_settings: JSON.stringify(settingsOf(owner)),
            deployment_config: "{}",
            expected_address: `0x${String(owner).padStart(40, "0")}`,
          } as never)
          .execute();
      }
    }
  });
  const find = (ep: string) => endpoints.find((e) => e.id === ep)!;
  const as = async (owner: number) => ({ authorization: `Bearer ${await env.issuer.token(owner)}` });

  it("lists only the caller's pretokens", async () => {
    const res = await call(find("GET /api/pretoken/pending").handler, "/api/pretoken/pending", {
      headers: await as(42),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain("secret-42");
    expect(res.text).not.toContain("secret-43");
  });

  it("answers 404 for another user's pretoken and leaves it as it was, for any id the caller can send", async () => {
    const del = find("DELETE /api/pretoken/[id]");
    const others = [...byId].filter(([, o]) => o === 43).map(([id]) => id);
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...others, ...others.map((id) => id.toUpperCase())), hostileString, fc.uuid()),
        async (id) => {
          const res = await call(del.handler, `/api/pretoken/x`, {
            method: "DELETE",
            params: { id },
            headers: await as(42),
          });
          // 400 only for an id no pretoken can have (over 64 characters); never a 2xx, 403 or 5xx.
          expect([400, 404], res.text).toContain(res.status);
          if (others.includes(id)) expect(res.status).toBe(404);
        },
      ),
      { numRuns: 150 },
    );
    expect((await snapshot()).hash).toBe(before.hash);
  });

  it("lets the owner delete it (the same request that failed for the other user)", async () => {
    const [id] = [...byId].find(([, o]) => o === 43)!;
    const res = await call(find("DELETE /api/pretoken/[id]").handler, `/api/pretoken/${id}`, {
      method: "DELETE",
      params: { id },
      headers: await as(43),
    });
    expect(res.status, res.text).toBe(200);
  });
});

describe("admin-only score never in a public leaderboard answer", () => {
  beforeAll(async () => {
    const records: object[] = [];
    for (let i = 1; i <= 5; i++) records.push(agent(i), ...activity(i, 2));
    await ingestFile(writeJsonLines(records));
    for (const interval of INTERVALS) await computeLeaderboard(interval);
  });

  it("hides score for anonymous, user, forged, expired and unsigned credentials with any query", async () => {
    const board = endpoints.find((e) => e.id === "GET /api/droid/leaderboard")!;
    const other = await generateKeyPair("ES256");
    const credentials: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${await env.issuer.token(999)}` },
      { authorization: `Bearer ${unsignedToken(1)}` },
      { authorization: `Bearer ${await env.issuer.token(1, { exp: Math.floor(Date.now() / 1000) - 60 })}` },
      {
        authorization: `Bearer ${await claims().setSubject("1").setProtectedHeader({ alg: "ES256", kid: "test" }).sign(other.privateKey)}`,
      },
      { cookie: "admin_session=eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9." },
      { "x-api-key": env.creds.partner },
    ];
    let rows = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...credentials),
        fc.constantFrom(...INTERVALS, "bogus"),
        fc.oneof(fc.constant(undefined), fc.nat(150)),
        async (headers, interval, limit) => {
          const res = await call(
            board.handler,
            `/api/droid/leaderboard?interval=${interval}${limit === undefined ? "" : `&limit=${limit}`}`,
            { headers },
          );
          expect(res.status).toBeLessThan(500);
          expect(res.text).not.toMatch(/"score"|washConfidence|composite/);
          rows += res.body?.data?.length ?? 0;
        },
      ),
      { numRuns: 200 },
    );
    expect(rows).toBeGreaterThan(0);
  });
});

const SQL = [
  "' OR '1'='1",
  "'; DROP TABLE tokens; --",
  "1); DELETE FROM users; --",
  "\\'; SELECT pg_sleep(0); --",
  "%' UNION SELECT * FROM api_keys --",
  "$1",
  "E'\\\\x27'",
  '"; TRUNCATE jobs; --',
  "%_\\%",
];

describe("SQL metacharacters in every text parameter are harmless", () => {
  it("answers without 5xx and changes no row, for every parameter of every read", async () => {
    const before = await snapshot();
    let sent = 0;
    for (const ep of endpoints.filter((e) => e.method === "GET")) {
      const names = [
        ...ep.queryFields.map((f) => ["query", f.name] as const),
        ...ep.paramNames.map((n) => ["path", n] as const),
      ];
      for (const [where, name] of names) {
        for (const payload of SQL) {
          const params = Object.fromEntries(
            ep.paramNames.map((n) => [n, n === name ? payload : `0x${"ab".repeat(20)}`]),
          );
          const search = where === "query" ? `?${new URLSearchParams({ [name]: payload })}` : "";
          const url = `http://localhost:3000${ep.template.replace(/\[([^\]]+)\]/g, (_m, n: string) => encodeURIComponent(params[n]))}${search}`;
          const headers: Record<string, string> =
            ep.definition.auth === "partner"
              ? { "x-api-key": env.creds.partner }
              : ep.definition.auth === "user"
                ? { authorization: `Bearer ${env.creds.user}` }
                : {};
          const spec = { url, method: "GET", headers, params, credential: "valid" };
          const answer = await send(ep, spec);
          expect(violation(ep, spec, answer, MAY_503.has(ep.id)), `${ep.id} ${name}=${payload}`).toBeNull();
          sent++;
        }
      }
    }
    expect(sent).toBeGreaterThan(300);
    const after = await snapshot();
    expect(after.counts).toEqual(before.counts);
    const tables = await sql<{
      n: number;
    }>`select count(*)::int as n from information_schema.tables where table_schema = 'public'`.execute(db());
    expect(tables.rows[0].n).toBeGreaterThan(10);
  });
});

describe("the server fetches no user-supplied URL except webhooks", () => {
  // Reviewed: every outbound call and where its URL comes from. A new call site fails this test until reviewed.
  const REVIEWED: Record<string, string> = {
    "lib/domains/quotes/http.ts":
      "quote providers: base URL from config (ZEROX/KYBERSWAP/ODOS_BASE_URL), validated token addresses as parameters",
    "lib/platform/neynar/client.ts":
      "Neynar: NEYNAR_BASE_URL + fixed paths; fids/addresses/username as query parameters",
    "lib/platform/market-data/geckoterminal.ts":
      "GeckoTerminal: GECKOTERMINAL_BASE_URL + fixed paths with validated addresses",
    "dev/chain/dev-chain.ts": "the dev chain command: RPC_URL from its own env",
    "lib/platform/chain/clients.ts": "viem transports: RPC_URL_<chainId> from env only",
    "dev/chain/local.ts": "in-process/dev chain for tests and commands",
    "lib/domains/webhooks/deliver.ts":
      "webhooks: the partner's URL, https only, refused for private ranges at registration and per delivery (safeLookup)",
    "lib/http/auth/user-tokens.ts": "JWKS: FARCASTER_JWKS_URL from config",
    "lib/http/image-proxy.ts":
      "explorer pictures: a token's stored img_url, https to public addresses only (every DNS answer), bounded",
    "lib/http/refusals.ts": "no outbound call: node:http's Server, hooked to answer methods fetch cannot carry (TRACE)",
  };
  it("finds outbound calls only in the reviewed modules", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|tsx)$/.test(e.name)) files.push(p);
      }
    };
    for (const dir of ["lib", "app", "db", "dev"]) walk(dir);
    const callers = files
      .filter((f) => !f.startsWith("app/_components") && !/^app\/.*\.tsx$/.test(f))
      .filter((f) => {
        const text = readFileSync(f, "utf8");
        return /\bfetch\(|from "node:https?"|createRemoteJWKSet\(|\bhttp\((?!s\))|\bwebSocket\(\w|new WebSocket\(/.test(
          text,
        );
      });
    expect(callers.sort()).toEqual(Object.keys(REVIEWED).sort());
  });
});
