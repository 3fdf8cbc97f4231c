// Hostile-request generation around every route() definition, and the invariants every answer must keep.
// Shared by tests/security/*.test.ts (CI) and tests/reliability/run.ts (the `npm run reliability` figures).
import { readdirSync } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { sql } from "kysely";
import { z, type ZodType } from "zod";
import { db } from "@/db";
import { readAnswer, type CallResult } from "@/tests/helpers/http";

type AuthMode = "public" | "partner" | "user" | "optionalUser" | "admin" | "optionalAdmin" | "cron" | "qstash";
type Definition = {
  auth: AuthMode;
  query?: ZodType;
  body?: ZodType;
  params?: ZodType;
  rawBody?: boolean;
  maxBodyBytes?: number;
};
type Handler = ((request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>) & {
  definition?: Definition;
};

export type Endpoint = {
  /** e.g. "POST /api/pretoken/v4" */
  id: string;
  method: string;
  /** Path template with [name] segments. */
  template: string;
  handler: Handler;
  definition: Definition;
  queryFields: Field[];
  bodyFields: Field[];
  paramNames: string[];
};

type Field = { name: string; schema: Record<string, unknown> };

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : e.name === "route.ts" ? [path.join(dir, e.name)] : [],
  );
}

function fieldsOf(schema: ZodType | undefined): Field[] {
  if (!schema) return [];
  try {
    const js = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
      properties?: Record<string, Record<string, unknown>>;
    };
    return Object.entries(js.properties ?? {}).map(([name, s]) => ({ name, schema: s }));
  } catch {
    return [];
  }
}

/** Every exported method of every app/api/**\/route.ts that was built with route(). */
export async function discoverEndpoints(root = process.cwd()): Promise<Endpoint[]> {
  const files = walk(path.join(root, "app/api")).sort();
  const out: Endpoint[] = [];
  for (const file of files) {
    const mod = (await import(file)) as Record<string, unknown>;
    const template = `/${path.relative(path.join(root, "app"), path.dirname(file)).split(path.sep).join("/")}`;
    const paramNames = [...template.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]);
    for (const method of METHODS) {
      const handler = mod[method] as Handler | undefined;
      if (typeof handler !== "function") continue;
      if (!handler.definition) throw new Error(`${method} ${template} is not built with route()`);
      const d = handler.definition;
      out.push({
        id: `${method} ${template}`,
        method,
        template,
        handler,
        definition: d,
        queryFields: fieldsOf(d.query),
        bodyFields: fieldsOf(d.body),
        paramNames,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------- generators

const HEX = "0123456789abcdefABCDEF".split("");
const hex = (min: number, max = min) => fc.string({ unit: fc.constantFrom(...HEX), minLength: min, maxLength: max });

/** Strings that broke parsers, coercions, SQL, JSON and logs somewhere before. */
export const NASTY = [
  "",
  " ",
  "0",
  "-0",
  "-1",
  "00",
  "1.5",
  "1e3",
  "1e308",
  "-1e308",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x",
  "0X",
  "0x0",
  "9007199254740993",
  "18446744073709551616",
  "-9223372036854775809",
  "99999999999999999999999999999999999999",
  "null",
  "undefined",
  "true",
  "false",
  "[]",
  "{}",
  "[object Object]",
  "1,2,3",
  ",,",
  "1,,2",
  ",1",
  "1,-2",
  "' OR '1'='1",
  "'; DROP TABLE tokens; --",
  '" OR ""="',
  "1; SELECT pg_sleep(10)",
  "%",
  "_",
  "%_%",
  "\\",
  "\\'",
  "$1",
  "?",
  "E'\\x00'",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "\u202e",
  "\ufeff",
  "𝕏",
  "👩‍👩‍👧",
  "ǅ",
  "İ",
  "__proto__",
  "constructor",
  "prototype",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal "${7*7}" is the point, a template-injection probe sent as input
  "${7*7}",
  "{{7*7}}",
  "http://169.254.169.254/latest/meta-data/",
  "file:///etc/passwd",
  "asc",
  "desc",
  "24h",
  "7d",
  "30d",
  " 1",
  "1 ",
  `0x${"g".repeat(40)}`,
  `0x${"A".repeat(39)}`,
  `0x${"a".repeat(41)}`,
  `0X${"a".repeat(40)}`,
  `0x${"a".repeat(64)}`,
  "a".repeat(10_000),
  "9".repeat(4_000),
  "%00",
  "%2e%2e%2f",
  "\r\nX-Injected: 1",
];

const numberish = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map(String),
  fc.double().map(String),
  fc.nat(10).map(String),
);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 3, arbitrary: hex(40).map((h) => `0x${h}`) },
  { weight: 2, arbitrary: hex(0, 70).map((h) => `0x${h}`) },
  { weight: 1, arbitrary: hex(64).map((h) => `0x${h}`) },
  { weight: 3, arbitrary: numberish },
  { weight: 1, arbitrary: fc.base64String({ maxLength: 120 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => Buffer.from(s).toString("base64url")) },
);

/** A value near the field's schema: its enum values and pattern shapes, mixed with hostile strings. */
function fieldString(field: Field): fc.Arbitrary<string> {
  const near: fc.Arbitrary<string>[] = [];
  const s = JSON.stringify(field.schema);
  const enums = [...s.matchAll(/"enum":\[([^\]]*)\]/g)]
    .flatMap((m) => JSON.parse(`[${m[1]}]`) as unknown[])
    .map(String);
  if (enums.length) near.push(fc.constantFrom(...enums));
  if (s.includes("{40}")) near.push(hex(40).map((h) => `0x${h.toLowerCase()}`));
  if (s.includes("{64}")) near.push(hex(64).map((h) => `0x${h.toLowerCase()}`));
  if (s.includes("\\\\d"))
    near.push(
      fc.nat(10_000).map(String),
      fc.nat(5).map((n) => Array.from({ length: n + 1 }, (_, i) => i + 1).join(",")),
    );
  return near.length
    ? fc.oneof({ weight: 2, arbitrary: fc.oneof(...near) }, { weight: 3, arbitrary: hostileString })
    : hostileString;
}

/** JSON values with hostile leaves, some nesting. Rendered as raw JSON text so number literals can overflow. */
const rawJsonValue: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString.map((x) => JSON.stringify(x)),
    fc.constantFrom(
      "1e400",
      "-1e400",
      "123456789012345678901234567890",
      "1.0000000000000000001",
      "-0",
      "0.1",
      "-1",
      "2.5",
      "null",
      "true",
      "false",
      "{}",
      "[]",
    ),
    fc.integer().map(String),
    fc.array(tie("v"), { maxLength: 4 }).map((a) => `[${a.join(",")}]`),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom("__proto__", "constructor")), tie("v"), { maxKeys: 4 }).map(
      (o) =>
        `{${Object.entries(o)
          .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
          .join(",")}}`,
    ),
  ),
})).v;

function fieldJson(field: Field): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fieldString(field).map((x) => JSON.stringify(x)) },
    { weight: 2, arbitrary: rawJsonValue },
  );
}

export type BodySpec = { text?: string; contentType?: string; kind: string };

function bodyArb(ep: Endpoint): fc.Arbitrary<BodySpec> {
  const max = ep.definition.maxBodyBytes ?? 1024 * 1024;
  const fields = ep.bodyFields.length ? ep.bodyFields : [{ name: "x", schema: {} }];
  const objectText = fc
    .tuple(fc.subarray(fields), fc.dictionary(hostileString, rawJsonValue, { maxKeys: 2 }))
    .chain(([chosen, extra]) =>
      fc
        .tuple(...chosen.map((f) => fieldJson(f).map((v) => `${JSON.stringify(f.name)}:${v}`)))
        .map(
          (pairs) => `{${[...pairs, ...Object.entries(extra).map(([k, v]) => `${JSON.stringify(k)}:${v}`)].join(",")}}`,
        ),
    );
  const ct = fc.constantFrom(
    "application/json",
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/octet-stream",
    "",
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(objectText, ct).map(([text, contentType]) => ({ text, contentType, kind: "object" })),
    },
    { weight: 2, arbitrary: rawJsonValue.map((text) => ({ text, contentType: "application/json", kind: "any-json" })) },
    {
      weight: 1,
      arbitrary: fc
        .string({ maxLength: 60 })
        .map((text) => ({ text, contentType: "application/json", kind: "not-json" })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...fields), fieldJson(fields[0]), fieldJson(fields[0])).map(([f, a, b]) => ({
        text: `{${JSON.stringify(f.name)}:${a},${JSON.stringify(f.name)}:${b}}`,
        contentType: "application/json",
        kind: "duplicate-keys",
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean()).map(([n, arr]) => ({
        text: arr ? "[".repeat(n) + "]".repeat(n) : `${'{"a":'.repeat(n)}1${"}".repeat(n)}`,
        contentType: "application/json",
        kind: "deep",
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        text: `{"x":"${"a".repeat(max + 16)}"}`,
        contentType: "application/json",
        kind: "oversized",
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<BodySpec>(
        { kind: "none" },
        { text: "", contentType: "application/json", kind: "empty" },
      ),
    },
  );
}

export type Credentials = { partner: string; user: string; otherUser: string; admin: string };
export type RequestSpec = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: BodySpec;
  params: Record<string, string>;
  credential: string;
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: names the CR, LF and NUL a header value cannot carry, to strip them
const NOT_IN_HEADER = /[\r\n\u0000]/g;

/** A header value as a server reads it off the wire: UTF-8 bytes seen as Latin-1, no line breaks or NULs. */
function asHeader(s: string): string {
  return Buffer.from(s, "utf8").toString("latin1").replace(NOT_IN_HEADER, "").trim();
}

function authArb(mode: AuthMode, creds: Credentials): fc.Arbitrary<{ name: string; headers: Record<string, string> }> {
  const valid: Record<AuthMode, { name: string; headers: Record<string, string> }[]> = {
    public: [{ name: "none", headers: {} }],
    partner: [{ name: "partner", headers: { "x-api-key": creds.partner } }],
    user: [
      { name: "user", headers: { authorization: `Bearer ${creds.user}` } },
      { name: "other-user", headers: { authorization: `Bearer ${creds.otherUser}` } },
    ],
    optionalUser: [
      { name: "none", headers: {} },
      { name: "user", headers: { authorization: `Bearer ${creds.user}` } },
    ],
    admin: [{ name: "admin", headers: { authorization: `Bearer ${creds.admin}` } }],
    optionalAdmin: [
      { name: "none", headers: {} },
      { name: "admin", headers: { authorization: `Bearer ${creds.admin}` } },
    ],
    // The schedulers' credentials are not in the fuzzer's hands: every request is an outsider's.
    cron: [{ name: "none", headers: {} }],
    qstash: [{ name: "none", headers: {} }],
  };
  const bad = fc.oneof(
    fc.constant({ name: "none", headers: {} as Record<string, string> }),
    hostileString.map((s) => ({ name: "garbage-key", headers: { "x-api-key": asHeader(s) } })),
    hostileString.map((s) => ({ name: "garbage-bearer", headers: { authorization: `Bearer ${asHeader(s)}` } })),
    hostileString.map((s) => ({
      name: "garbage-cookie",
      headers: { cookie: `admin_session=${encodeURIComponent(s.toWellFormed())}` },
    })),
  );
  return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...valid[mode]) }, { weight: 1, arbitrary: bad });
}

export function requestArb(ep: Endpoint, creds: Credentials): fc.Arbitrary<RequestSpec> {
  const queryFields = [...ep.queryFields, { name: "unknownParam", schema: {} }];
  const query = fc
    .subarray(queryFields)
    .chain((chosen) =>
      fc.tuple(
        ...chosen.map((f) =>
          fc
            .oneof(
              { weight: 5, arbitrary: fieldString(f).map((v) => [v]) },
              { weight: 1, arbitrary: fc.array(fieldString(f), { minLength: 2, maxLength: 3 }) },
            )
            .map((vs) => vs.map((v) => [f.name, v] as const)),
        ),
      ),
    );
  const params = fc.tuple(
    ...ep.paramNames.map((name) =>
      fieldString({
        name,
        schema: JSON.parse(JSON.stringify(fieldsOf(ep.definition.params).find((f) => f.name === name)?.schema ?? {})),
      }),
    ),
  );
  const hasBody = ep.method !== "GET" && ep.method !== "DELETE";
  return fc
    .record({
      query,
      params,
      auth: authArb(ep.definition.auth, creds),
      body: hasBody ? bodyArb(ep).map((b) => b as BodySpec | undefined) : fc.constant(undefined),
      requestId: fc.oneof(fc.constant(undefined), hostileString.map(asHeader)),
    })
    .map(({ query, params, auth, body, requestId }) => {
      const search = new URLSearchParams();
      for (const pairs of query) for (const [k, v] of pairs) search.append(k, v);
      const p: Record<string, string> = {};
      // Next hands routes decoded, well-formed path segments (a lone surrogate cannot be percent-encoded).
      ep.paramNames.forEach((name, i) => {
        p[name] = params[i].toWellFormed();
      });
      const pathname = ep.template.replace(/\[([^\]]+)\]/g, (_m, name: string) => encodeURIComponent(p[name]));
      const headers: Record<string, string> = { ...auth.headers };
      if (requestId !== undefined) headers["x-request-id"] = requestId;
      if (body?.contentType) headers["content-type"] = body.contentType;
      const qs = search.toString();
      return {
        url: `http://localhost:3000${pathname}${qs ? `?${qs}` : ""}`,
        method: ep.method,
        headers,
        body,
        params: p,
        credential: auth.name,
      };
    });
}

// ---------------------------------------------------------------- invariants

export type Answer = CallResult;

export async function send(ep: Endpoint, spec: RequestSpec): Promise<Answer> {
  const request = new Request(spec.url, {
    method: spec.method,
    headers: spec.headers,
    body: spec.body?.text !== undefined ? spec.body.text : undefined,
  });
  const response = await ep.handler(request, { params: Promise.resolve(spec.params) });
  const stream = response.ok && response.headers.get("content-type")?.startsWith("text/event-stream");
  return stream ? readOpening(response) : readAnswer(response);
}

/** An event stream does not end by itself: its status, headers and first chunk are the answer, then it is closed. */
async function readOpening(response: Response): Promise<Answer> {
  const reader = response.body!.getReader();
  const first = await reader.read();
  await reader.cancel();
  const text = first.value ? new TextDecoder().decode(first.value) : "";
  return { status: response.status, headers: response.headers, body: text, text };
}

/** What no answer may ever contain: stack frames, source paths, driver and SQL error texts. */
const LEAKS = [
  /\bat \S+ \(.*:\d+:\d+\)/,
  /\/(app|lib|db|node_modules)\/\S+\.(ts|js|mjs)\b/,
  /\bnode:internal\b/,
  /\bstack\b.*\bat\b/,
  /\b(syntax error at or near|relation "|column "|violates (foreign key|check|not-null|unique)|duplicate key value)/i,
  /\b(ZodError|TypeError|ReferenceError|RangeError|SyntaxError|Unexpected token|is not a function|Cannot read propert)/,
  /\bpglite\b|\bkysely\b|ECONNREFUSED|getaddrinfo/i,
];

/** Returns a description of what is wrong with the answer, or null. `allow503` lists the route's documented 503s. */
export function violation(ep: Endpoint, spec: RequestSpec, a: Answer, allow503: boolean): string | null {
  if (a.status >= 500 && !(a.status === 503 && allow503)) return `${a.status} ${a.text.slice(0, 300)}`;
  if (a.status === 503 && !a.headers.get("retry-after")) return "503 without Retry-After";
  // Successful answers are data (the OpenAPI document names schema words, /api/health names its backends): only
  // stack frames and source paths are checked there; error answers get every rule.
  for (const re of a.status >= 300 ? LEAKS : LEAKS.slice(0, 3)) {
    if (ep.template === "/api/openapi.json" && a.status < 300) break;
    const hay = a.status >= 300 ? a.text : a.text.slice(0, 20_000);
    if (re.test(hay) && !re.test(spec.url + JSON.stringify(spec.headers) + (spec.body?.text ?? "").slice(0, 100_000)))
      return `leak ${re}: ${a.text.slice(0, 300)}`;
  }
  if (a.status >= 300) {
    const e = a.body;
    if (!e || typeof e.error !== "string" || typeof e.code !== "string" || typeof e.requestId !== "string")
      return `not the envelope: ${a.text.slice(0, 200)}`;
    if (a.headers.get("cache-control") !== "no-store")
      return `error without no-store: ${a.headers.get("cache-control")}`;
    if (e.requestId !== a.headers.get("x-request-id")) return "requestId differs from x-request-id";
    if (e.code === "internal") return "internal error";
  }
  return null;
}

// ---------------------------------------------------------------- database snapshot

/** Tables whose rows legitimately change on any request (counters, partner usage, caches), left out of the comparison. */
const VOLATILE = new Set(["rate_limits", "kv_cache", "kv_counters", "kysely_migration", "kysely_migration_lock"]);
const VOLATILE_COLUMNS: Record<string, string[]> = { api_keys: ["last_used_at"] };

let tableList: { name: string; columns: string[] }[] | null = null;

/** Row counts and a hash of every row of every table, in one round trip. */
export async function snapshot(): Promise<{ counts: Record<string, number>; hash: string }> {
  if (!tableList) {
    const rows = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' order by table_name, ordinal_position`.execute(db());
    const byTable = new Map<string, string[]>();
    for (const r of rows.rows)
      if (!VOLATILE.has(r.table_name)) byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r.column_name]);
    tableList = [...byTable].map(([name, cols]) => ({
      name,
      columns: cols.filter((c) => !(VOLATILE_COLUMNS[name] ?? []).includes(c)),
    }));
  }
  const parts = tableList.map(
    (t) =>
      `select '${t.name}' as t, count(*)::int as n, coalesce(md5(string_agg(r, '|' order by r)), '') as h from (select concat_ws(',', ${t.columns.map((c) => `"${c}"::text`).join(", ")}) as r from "${t.name}") x`,
  );
  const result = await sql.raw<{ t: string; n: number; h: string }>(parts.join(" union all ")).execute(db());
  const counts: Record<string, number> = {};
  const hash = createHash("sha256");
  for (const r of result.rows.sort((a, b) => a.t.localeCompare(b.t))) {
    counts[r.t] = r.n;
    hash.update(`${r.t}:${r.n}:${r.h};`);
  }
  return { counts, hash: hash.digest("hex") };
}

export function resetSnapshotTables() {
  tableList = null;
}
