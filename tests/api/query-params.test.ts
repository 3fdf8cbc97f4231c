// The query conventions every route shares (docs/http.md "Query values"), checked over every route's query schema
// through the same steps route() takes (queryObject, presentQueryValues, parseWith), then end to end on a few
// real routes. A platform client must work here with only the base URL changed.
import { beforeAll, describe, expect, it } from "vitest";
import { z, type ZodType } from "zod";
import { queryObject, route } from "@/lib/http/route";
import { parseWith } from "@/lib/core/input";
import { presentQueryValues, zLimit } from "@/lib/core/input";
import { routeModules } from "@/app/_openapi/routes.generated";
import { buildDocument, definitionOf, DOCUMENTED_METHODS } from "@/app/_openapi/document";
import { GET as tokensGET } from "@/app/api/tokens/route";
import { call, expectError } from "@/tests/helpers/http";
import { address, insertTokens } from "./tokens/fixtures";

/** Valid values for the required parameters, so each route's base query parses. */
const SAMPLE: Record<string, string> = {
  address: `0x${"ab".repeat(20)}`,
  admin: `0x${"ab".repeat(20)}`,
  tokenAddress: `0x${"ab".repeat(20)}`,
  claimerAddress: `0x${"cd".repeat(20)}`,
  poolAddress: `0x${"ef".repeat(20)}`,
  inputToken: `0x${"ab".repeat(20)}`,
  outputToken: `0x${"cd".repeat(20)}`,
  swapperAccount: `0x${"ef".repeat(20)}`,
  buyerAddress: `0x${"ab".repeat(20)}`,
  txHash: `0x${"ab".repeat(32)}`,
  inputAmount: "1000",
  fid: "7",
  chainId: "8453",
  presaleId: "1",
  name: "alice",
  q: "a",
};
/** The free-text parameters: any word, `null` and `undefined` included, is a value there. */
const FREE_TEXT = new Set(["q", "socialInterface"]);

type Outcome = { ok: true; data: unknown } | { ok: false; issues: string[] };

/** What the route's handler would be given for this query string (or the 400's issues). */
function outcome(schema: ZodType, search: string): Outcome {
  try {
    return {
      ok: true,
      data: parseWith(schema, presentQueryValues(schema, queryObject(new URL(`http://x/api?${search}`))), "query"),
    };
  } catch (error) {
    const details = (error as { details?: Array<{ path: string; message: string }> }).details ?? [];
    return { ok: false, issues: details.map((d) => `${d.path}: ${d.message}`).sort() };
  }
}

const qs = (entries: Record<string, string>) => new URLSearchParams(entries).toString();

type Case = { op: string; schema: ZodType; keys: string[]; required: Set<string>; base: Record<string, string> };
const cases: Case[] = [];
for (const { path, module } of routeModules) {
  for (const method of DOCUMENTED_METHODS) {
    const schema = definitionOf(module[method])?.query;
    if (!schema) continue;
    const shape = (schema as unknown as { shape: Record<string, ZodType> }).shape;
    const keys = Object.keys(shape);
    const required = new Set(keys.filter((k) => !shape[k].safeParse(undefined).success));
    cases.push({
      op: `${method} ${path}`,
      schema,
      keys,
      required,
      base: Object.fromEntries([...required].map((k) => [k, SAMPLE[k]])),
    });
  }
}
const each = cases.map((c) => [c.op, c] as const);

describe("query conventions over every route's query schema", () => {
  it("covers every route with a query, and each one's required parameters have a sample", () => {
    expect(cases.length).toBeGreaterThan(25);
    for (const c of cases) expect(outcome(c.schema, qs(c.base)), c.op).toMatchObject({ ok: true });
  });

  it.each(each)("%s: an empty or blank value is the same as an absent one", (_op, c) => {
    for (const key of c.keys) {
      const without = Object.fromEntries(Object.entries(c.base).filter(([k]) => k !== key));
      const expected = outcome(c.schema, qs(without));
      for (const blank of ["", " ", "%20%20"]) {
        expect(outcome(c.schema, `${qs(without)}&${key}=${blank}`), `${key}=${blank}`).toEqual(expected);
      }
      expect(outcome(c.schema, `${qs(without)}&${key}=&${key}=`), `${key}= twice`).toEqual(expected);
    }
  });

  it.each(each)("%s: `undefined` and `null` are absent for an optional parameter that is not free text", (_op, c) => {
    for (const key of c.keys) {
      const without = Object.fromEntries(Object.entries(c.base).filter(([k]) => k !== key));
      const absent = outcome(c.schema, qs(without));
      for (const word of ["undefined", "null"]) {
        const got = outcome(c.schema, qs({ ...without, [key]: word }));
        if (FREE_TEXT.has(key)) {
          // A search for the word: given to the handler as it was written.
          expect(got, `${key}=${word}`).toMatchObject({ ok: true, data: { [key]: word } });
        } else if (c.required.has(key)) {
          // Not dropped: a required value is judged as written (a username may be `null`).
          expect(presentQueryValues(c.schema, { [key]: word }), `${key}=${word}`).toEqual({ [key]: word });
        } else {
          expect(got, `${key}=${word}`).toEqual(absent);
        }
      }
    }
  });

  it.each(each)("%s: booleans in any case, numbers with surrounding spaces", (_op, c) => {
    for (const key of c.keys) {
      const parsed = (value: string) => {
        const o = outcome(c.schema, qs({ ...c.base, [key]: value }));
        return o.ok ? (o.data as Record<string, unknown>)[key] : o;
      };
      if (parsed("true") === true) {
        for (const v of ["TRUE", "True", " true ", "1"]) expect(parsed(v), `${key}=${v}`).toBe(true);
        for (const v of ["FALSE", "False", "0"]) expect(parsed(v), `${key}=${v}`).toBe(false);
        expect(parsed("maybe"), `${key}=maybe`).toMatchObject({ ok: false });
      }
      const one = parsed("1");
      if (typeof one === "number") {
        for (const v of [" 1 ", "\t1", "1 "]) expect(parsed(v), `${key}=${JSON.stringify(v)}`).toBe(one);
        // A number too large says so, however many digits it has (a limit is clamped instead).
        for (const digits of [17, 400]) {
          const huge = parsed("9".repeat(digits));
          if (typeof huge !== "number") {
            expect(huge, `${key}: ${digits} digits`).toMatchObject({
              ok: false,
              issues: [expect.stringMatching(new RegExp(`^${key}: must be at most`))],
            });
          }
        }
      }
    }
  });

  it("a list given as a repeated key is one list of all its values", () => {
    const lists: string[] = [];
    for (const c of cases) {
      for (const key of c.keys) {
        const listed = outcome(c.schema, qs({ ...c.base, [key]: "1,2,3" }));
        if (!listed.ok || !Array.isArray((listed.data as Record<string, unknown>)[key])) continue;
        lists.push(`${c.op} ${key}`);
        const without = Object.fromEntries(Object.entries(c.base).filter(([k]) => k !== key));
        expect(outcome(c.schema, `${qs(without)}&${key}=1&${key}=2,%203`), `${c.op} ${key}`).toEqual(listed);
      }
    }
    // fids of /api/tokens, /api/tokens/authenticated, /api/tokens/search, /api/tokens/stream and
    // get-multiple-users-by-fid; agentIds; ids
    expect(lists).toHaveLength(7);
  });

  const withLimit = each.filter(([, c]) => c.keys.includes("limit"));
  it("every list route has a limit", () => expect(withLimit.length).toBeGreaterThanOrEqual(9));

  it.each(withLimit)("%s: a limit above the maximum is clamped to it, and the maximum is documented", (op, c) => {
    const doc = buildDocument(routeModules);
    const [method, path] = op.split(" ");
    const param = doc.paths[path][method.toLowerCase()].parameters.find((p: { name: string }) => p.name === "limit");
    const max = Number(/clamped to (\d+)/.exec(param.description ?? "")?.[1]);
    expect(max, `${op} documents its maximum`).toBeGreaterThan(0);
    const limit = (value: string) => {
      const o = outcome(c.schema, qs({ ...c.base, limit: value }));
      return o.ok ? (o.data as { limit: number }).limit : o;
    };
    expect(limit(String(max))).toBe(max);
    expect(limit(String(max + 1))).toBe(max);
    expect(limit("100000000000000000000000000000")).toBe(max);
    expect(limit(" 1 ")).toBe(1);
    for (const bad of ["-1", "abc", "1.5", "1e3"])
      expect(limit(bad), `limit=${bad}`).toMatchObject({ ok: false, issues: [expect.stringMatching(/^limit: /)] });
  });
});

describe("zLimit", () => {
  it("clamps above the maximum, refuses below the minimum, defaults when absent, and says so in the document", () => {
    const schema = z.object({ limit: zLimit(20, 10, 0) });
    expect(schema.parse({}).limit).toBe(10);
    expect(schema.parse({ limit: "0" }).limit).toBe(0);
    expect(schema.parse({ limit: "21" }).limit).toBe(20);
    expect(schema.safeParse({ limit: "-1" }).success).toBe(false);
    const doc = buildDocument([
      { path: "/api/x", file: "x", module: { GET: route({ auth: "public", query: schema, handler: () => ({}) }) } },
    ]);
    const [param] = doc.paths["/api/x"].get.parameters;
    expect(param).toMatchObject({
      name: "limit",
      required: false,
      schema: { type: "integer", minimum: 0, maximum: 20, default: 10 },
    });
    expect(param.description).toBe("page size, 0 to 20 (default 10); a larger value is clamped to 20");
  });
});

describe("through route(), on GET /api/tokens", () => {
  beforeAll(async () => {
    await insertTokens(
      Array.from({ length: 25 }, (_, i) => ({
        name: `Qp ${i}`,
        symbol: `QP${i}`,
        requestor_fid: 5,
        msg_sender: address("a", i + 1),
      })),
    );
  });
  const names = (res: { body: { data: Array<{ name: string }> } }) => res.body.data.map((t) => t.name);

  it("answers a bot's empty and `undefined`/`null` parameters as if they were absent", async () => {
    const plain = await call(tokensGET, "/api/tokens");
    expect(plain.status, plain.text).toBe(200);
    for (const search of [
      "cursor=&sortBy=&fid=&limit=&chainId=",
      "cursor=undefined&sortBy=null&fid=undefined&limit=null&chainId=null&includeUser=",
    ]) {
      const res = await call(tokensGET, `/api/tokens?${search}`);
      expect(res.status, `${search}: ${res.text}`).toBe(200);
      expect(names(res)).toEqual(names(plain));
    }
  });

  it("takes includeUser=TRUE and a padded fid, clamps limit=999 to 20, and still refuses a negative or non-numeric limit", async () => {
    const res = await call(tokensGET, "/api/tokens?includeUser=TRUE&fid=%205%20&limit=999");
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.data.every((t: { name: string }) => t.name.startsWith("Qp "))).toBe(true);
    expect(expectError(await call(tokensGET, "/api/tokens?limit=-1"), 400, "invalid_request").error).toMatch(
      /^limit: /,
    );
    expect(expectError(await call(tokensGET, "/api/tokens?limit=ten"), 400, "invalid_request").error).toMatch(
      /^limit: /,
    );
  });

  it("searches for `null` when q says so (free text keeps the word)", async () => {
    const res = await call(tokensGET, "/api/tokens?q=null");
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});
