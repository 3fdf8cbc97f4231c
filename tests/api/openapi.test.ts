// The OpenAPI contract: the manifest matches app/api, every exported method is documented, every documented
// operation has a route, and the served document is well-formed 3.1 with the shared pieces; every body and
// parameter comes from the route's own zod schema, query numbers are integers with their range, every operation
// and parameter is described, and every example in the document validates against its schema (ajv).
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { z, type ZodType } from "zod";
import { call } from "@/tests/helpers/http";
import { route } from "@/lib/http/route";
import { GET } from "@/app/api/openapi.json/route";
import { MANIFEST_PATH, renderManifest, scanRouteFiles } from "@/dev/openapi-manifest";
import { routeModules } from "@/app/_openapi/routes.generated";
import { insertTokens, insertMarket, address } from "./tokens/fixtures";
import {
  buildDocument,
  definitionOf,
  DOCUMENTED_METHODS,
  jsonSchema,
  operationsOf,
  standaloneSchema,
} from "@/app/_openapi/document";
import {
  deployLegacyBody,
  deploySplitBody,
  deployV030Body,
  deployV4Body,
  detectShape,
  parseDeployBody,
} from "@/lib/domains/launch/deploy/shapes";
import type { DeployShape } from "@/db/tables/deploy";

const NOT_DOCUMENTED = new Set(["OPTIONS", "HEAD"]); // CORS preflight (preflight()), no HEAD handlers
const HTTP_METHOD = /^(GET|POST|PUT|PATCH|DELETE|OPTIONS|HEAD)$/;

describe("OpenAPI contract", () => {
  it("the route manifest is current (run `npm run openapi:manifest` when this fails)", () => {
    expect(readFileSync(MANIFEST_PATH, "utf8")).toBe(renderManifest(scanRouteFiles()));
  });

  it("every exported method is a documented route() handler, and every operation has a route", async () => {
    const res = await call(GET as any, "/api/openapi.json");
    expect(res.status).toBe(200);
    const documented = new Set(operationsOf(res.body));
    const exported: string[] = [];
    for (const { path, module, file } of routeModules) {
      for (const name of Object.keys(module).filter((k) => HTTP_METHOD.test(k) && !NOT_DOCUMENTED.has(k))) {
        expect(definitionOf(module[name]), `${file} ${name} is not made by route()`).not.toBeNull();
        exported.push(`${name} ${path}`);
      }
    }
    expect([...exported].sort()).toEqual([...documented].sort());
    expect(exported.length).toBeGreaterThan(40);
  });

  it("every operation documents its answer: a response schema, or 204 with no content", () => {
    const undescribed: string[] = [];
    for (const { path, module } of routeModules) {
      for (const method of DOCUMENTED_METHODS) {
        const def = definitionOf(module[method]);
        if (def && !def.response && def.status !== 204) undescribed.push(`${method} ${path}`);
      }
    }
    expect(undescribed).toEqual([]);
    const doc = buildDocument(routeModules);
    expect(doc.paths["/api/webhooks/{id}"].delete.responses["204"]).toEqual({ description: "Success, no content" });
  });

  it("a method the document lacks or an operation without a route is detected", () => {
    const fake = {
      path: "/api/x",
      file: "app/api/x/route.ts",
      module: { GET: routeModules[0].module.POST ?? Object.values(routeModules[0].module)[0] },
    };
    const withExtra = operationsOf(buildDocument([...routeModules, fake]));
    expect(withExtra).toContain("GET /api/x");
    expect(operationsOf(buildDocument(routeModules))).not.toContain("GET /api/x");
  });

  it("is OpenAPI 3.1 with auth schemes, the error envelope, parameters with defaults and ranges", async () => {
    const doc = (await call(GET as any, "/api/openapi.json")).body;
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      "adminSession",
      "apiKey",
      "bearerJwt",
      "cronSecret",
      "fcIdToken",
      "privyIdToken",
      "qstashSignature",
      "webhookSignature",
    ]);
    expect(doc.components.schemas.Error.required).toEqual(["error", "code", "requestId"]);
    expect(doc.components.schemas.Error.properties.error.type).toBe("string");
    const ids = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect(DOCUMENTED_METHODS).toContain(method.toUpperCase());
        expect(ids.has(op.operationId), `duplicate operationId ${op.operationId}`).toBe(false);
        ids.add(op.operationId);
        expect(op.responses["500"]).toBeDefined();
        for (const p of op.parameters ?? []) if (p.in === "path") expect(path).toContain(`{${p.name}}`);
        if (op["x-auth"] === "partner" || op["x-auth"] === "user" || op["x-auth"] === "admin")
          expect(op.responses["401"]).toBeDefined();
        if (op["x-rate-limit"]) expect(op.responses["429"]).toBeDefined();
      }
    }
    expect(JSON.stringify(doc)).not.toContain('"$ref":"#/$defs');
    // Limits the handler enforces itself (the deploy quota, tree uploads per IP) are documented as 429 too.
    for (const [path, method] of [
      ["/api/tokens/deploy", "post"],
      ["/api/tokens/deploy/split", "post"],
      ["/api/airdrops", "post"],
      ["/api/presales/allowlists", "post"],
    ]) {
      expect(doc.paths[path][method].responses["429"].headers["Retry-After"], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths["/api/tokens/deploy"].post.responses["429"].description).toMatch(
      /requests in 60 s.*; or .*DEPLOY_DAILY_LIMIT/,
    );
    const list = doc.paths["/api/tokens"].get;
    expect(list.security).toEqual([]);
    const limit = list.parameters.find((p: any) => p.name === "limit");
    expect(limit).toBeDefined();
    expect(doc.paths["/api/tokens/authenticated"]).toBeDefined();
    expect(doc.paths["/api/creator/{address}"].get.parameters[0]).toMatchObject({ in: "path", required: true });
  });

  it("error answers match the documented envelope", async () => {
    const { GET: tokens } = await import("@/app/api/tokens/route");
    const doc = (await call(GET as any, "/api/openapi.json")).body;
    const res = await call(tokens as any, "/api/tokens?limit=-1");
    expect(res.status).toBe(400);
    const schema = z.fromJSONSchema(doc.components.schemas.Error as any);
    expect(schema.safeParse(res.body).success).toBe(true);
  });

  it("real answers of routes with a response schema match the documented schema", async () => {
    const [t] = await insertTokens([{ contract_address: address("d", 1), name: "Doc Token", symbol: "DOC" }]);
    await insertMarket([{ token_id: t.id, market_cap_usd: 1234.5, price_usd: 0.001 }]);
    const doc = (await call(GET as any, "/api/openapi.json")).body;
    const check = async (path: string, url: string, handler: unknown) => {
      const res = await call(handler as any, url);
      expect(res.status, res.text).toBe(200);
      const schema = doc.paths[path].get.responses["200"].content["application/json"].schema;
      const parsed = z.fromJSONSchema(standaloneSchema(doc, schema)).safeParse(res.body);
      expect(parsed.success, `${url}: ${parsed.error?.message}`).toBe(true);
    };
    await check(
      "/api/tokens",
      "/api/tokens?limit=5&includeMarket=true&includeUser=true",
      (await import("@/app/api/tokens/route")).GET,
    );
    await check("/api/tokens/search", "/api/tokens/search?q=doc", (await import("@/app/api/tokens/search/route")).GET);
    // A schema that accepts anything would make this test vacuous.
    const list = doc.paths["/api/tokens"].get.responses["200"].content["application/json"].schema;
    expect(z.fromJSONSchema(standaloneSchema(doc, list)).safeParse({ data: "nope" }).success).toBe(false);
  });

  it("the test helper refuses a 2xx answer that does not match its route's response schema, or has a key it does not list", async () => {
    const lying = route({
      auth: "public",
      response: z.object({ count: z.number().int() }),
      // @ts-expect-error route() refuses it at compile time too: a string where the schema says a number
      handler: () => ({ count: "7" }),
    });
    await expect(call(lying as any, "/api/x")).rejects.toThrow(/does not match its documented schema/);
    const stray = route({
      auth: "public",
      response: z.object({ count: z.number().int() }),
      handler: () => ({ count: 7, stray: 1 }),
    });
    await expect(call(stray as any, "/api/x")).rejects.toThrow(/documented published schema/);
    const honest = route({
      auth: "public",
      response: z.object({ count: z.number().int() }),
      handler: () => ({ count: 7 }),
    });
    expect((await call(honest as any, "/api/x")).body).toEqual({ count: 7 });
  });
});

type Json = Record<string, any>;
const doc = buildDocument(routeModules);
const operations = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
  Object.entries<Json>(item).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, path, method, op })),
);
const definitions = routeModules.flatMap(({ path, module }) =>
  DOCUMENTED_METHODS.flatMap((method) => {
    const def = definitionOf(module[method]);
    return def ? [{ id: `${method} ${path}`, path, method: method.toLowerCase(), def }] : [];
  }),
);
const jsonMedia = (op: Json, status?: string): Json | undefined =>
  (status ? op.responses[status] : op.requestBody)?.content?.["application/json"];
const successStatus = (op: Json) => Object.keys(op.responses).find((s) => s.startsWith("2"))!;

/** Every (value, schema) pair the document claims is valid: examples, named examples, schema examples, defaults. */
function claimedValues(document: Json): Array<{ where: string; schema: Json; value: unknown }> {
  const out: Array<{ where: string; schema: Json; value: unknown }> = [];
  const inSchema = (schema: Json | undefined, where: string) => {
    if (!schema || typeof schema !== "object") return;
    for (const [i, value] of (schema.examples ?? []).entries())
      out.push({ where: `${where}.examples.${i}`, schema, value });
    if (schema.example !== undefined) out.push({ where: `${where}.example`, schema, value: schema.example });
    if (schema.default !== undefined) out.push({ where: `${where}.default`, schema, value: schema.default });
    for (const [key, sub] of Object.entries<Json>(schema.properties ?? {})) inSchema(sub, `${where}.properties.${key}`);
    for (const key of ["items", "additionalProperties", "not"]) inSchema(schema[key], `${where}.${key}`);
    for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"])
      for (const [i, sub] of (schema[key] ?? []).entries()) inSchema(sub, `${where}.${key}.${i}`);
  };
  const inMedia = (media: Json | undefined, where: string) => {
    if (!media) return;
    if (media.example !== undefined)
      out.push({ where: `${where}.example`, schema: media.schema, value: media.example });
    for (const [name, ex] of Object.entries<Json>(media.examples ?? {}))
      out.push({ where: `${where}.examples.${name}`, schema: media.schema, value: ex.value });
    inSchema(media.schema, `${where}.schema`);
  };
  for (const { id, op } of operationsOf(document).map((o) => {
    const [method, path] = o.split(" ");
    return { id: o, op: document.paths[path][method.toLowerCase()] };
  })) {
    for (const p of op.parameters ?? []) {
      if (p.example !== undefined) out.push({ where: `${id} ${p.name}.example`, schema: p.schema, value: p.example });
      inSchema(p.schema, `${id} ${p.name}.schema`);
    }
    inMedia(jsonMedia(op), `${id} requestBody`);
    for (const status of Object.keys(op.responses)) inMedia(jsonMedia(op, status), `${id} ${status}`);
  }
  for (const [name, schema] of Object.entries<Json>(document.components.schemas)) inSchema(schema, name);
  return out;
}

/** The schema with the document's named components as its `$defs` (ajv compiles each schema on its own). */
function resolveRefs(schema: Json, document: Json): Json {
  return standaloneSchema(document, schema);
}

describe("the document's content", () => {
  it("every example, named example, schema example and default validates against its schema (ajv, JSON Schema 2020-12)", () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(ajv);
    // OpenAPI 3.1's own words in a schema object.
    ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs"]);
    const claims = claimedValues(doc);
    const failures: string[] = [];
    const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
    for (const { where, schema, value } of claims) {
      const key = JSON.stringify(schema);
      let validate = compiled.get(key);
      if (!validate) compiled.set(key, (validate = ajv.compile(resolveRefs(schema, doc))));
      if (!validate(value)) failures.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(failures).toEqual([]);
    // Not vacuous: the document is full of examples.
    expect(claims.length).toBeGreaterThan(200);
    // And the check can fail: a wrong example is caught.
    const wrong = claimedValues({
      ...doc,
      paths: {
        "/api/x": {
          get: {
            responses: { 200: { content: { "application/json": { schema: { type: "integer" }, example: "1" } } } },
          },
        },
      },
    }).find((c) => c.where.startsWith("GET /api/x"))!;
    expect(ajv.compile(wrong.schema)(wrong.value)).toBe(false);
  });

  it("every request body and every JSON success answer has an example", () => {
    const missing: string[] = [];
    for (const { id, op } of operations) {
      const body = jsonMedia(op);
      if (body && body.example === undefined && !body.examples) missing.push(`${id} requestBody`);
      const success = jsonMedia(op, successStatus(op));
      if (success && success.example === undefined) missing.push(`${id} ${successStatus(op)}`);
    }
    expect(missing).toEqual([]);
  });

  it("every request body example is accepted by the zod schema the route (or its service) validates with", () => {
    let checked = 0;
    for (const { id, path, method, def } of definitions) {
      const schema: ZodType | undefined = def.documentedBody ?? (def.rawBody ? undefined : def.body);
      const media = jsonMedia(doc.paths[path][method]);
      if (!schema || !media) continue;
      const values = media.examples ? Object.values<Json>(media.examples).map((e) => e.value) : [media.example];
      for (const value of values) {
        const parsed = schema.safeParse(value);
        expect(parsed.success, `${id}: ${parsed.error?.message}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });

  it("every operation has a one-line summary and a description; every parameter a description", () => {
    const problems: string[] = [];
    for (const { id, op } of operations) {
      if (!op.summary || op.summary.includes("\n") || op.summary.length > 80) problems.push(`${id}: summary`);
      if (!op.description || op.description.length <= op.summary.length) problems.push(`${id}: description`);
      for (const p of op.parameters ?? []) if (!p.description) problems.push(`${id}: parameter ${p.name}`);
    }
    expect(problems).toEqual([]);
  });

  it("query and path numbers are integers with their range (and default), booleans are booleans", () => {
    const texts: string[] = [];
    let integers = 0;
    for (const { id, op } of operations) {
      for (const p of op.parameters ?? []) {
        for (const s of [p.schema, ...(p.schema.anyOf ?? [])]) {
          // A whole number written as text: what the query helpers looked like before they were typed.
          if (s.type === "string" && /^\^-\?\\d/.test(s.pattern ?? "")) texts.push(`${id} ${p.name}`);
          if (s.type === "string" && s.enum?.includes("true")) texts.push(`${id} ${p.name}`);
          if (s.type === "integer") {
            integers++;
            expect(s.minimum, `${id} ${p.name}`).toBeTypeOf("number");
            expect(s.maximum, `${id} ${p.name}`).toBeTypeOf("number");
          }
        }
      }
    }
    expect(texts).toEqual([]);
    expect(integers).toBeGreaterThanOrEqual(38);
    const param = (path: string, name: string) =>
      doc.paths[path].get.parameters.find((p: Json) => p.name === name).schema;
    expect(param("/api/tokens", "limit")).toEqual({ type: "integer", minimum: 0, maximum: 20, default: 10 });
    expect(param("/api/tokens", "offset")).toEqual({ type: "integer", minimum: 0, maximum: 1000, default: 0 });
    expect(param("/api/tokens", "includeUser")).toEqual({ type: "boolean", default: false });
    expect(param("/api/tokens/trending", "chainId")).toMatchObject({ type: "integer", default: 8453 });
    expect(param("/api/presales/allowlists", "presaleId")).toMatchObject({ type: "integer", minimum: 1 });
    expect(param("/api/presales", "status").anyOf).toEqual([
      { type: "string", enum: ["all", "successful"] },
      { type: "integer", minimum: 0, maximum: 255 },
    ]);
    // In a JSON body a number may also arrive as its text (zIntLike): both are documented.
    const delay = jsonMedia(doc.paths["/api/airdrops"].post)!.schema.properties.delaySeconds;
    expect(delay.anyOf.map((s: Json) => s.type)).toEqual(["integer", "string"]);
    expect(delay.default).toBe(10);
  });

  it("the deploy bodies are the shapes the service validates with, and their examples pass the service's own checks", () => {
    // Each shape is a named component: a $ref in the body, the schema itself in components.
    const named = (s: ZodType, name: string) => {
      expect(doc.components.schemas[name], name).toEqual(jsonSchema(s, "input"));
      return { $ref: `#/components/schemas/${name}` };
    };
    const deploy = jsonMedia(doc.paths["/api/tokens/deploy"].post)!;
    expect(deploy.schema.anyOf).toEqual([
      named(deployV4Body, "DeployV4Body"),
      named(deployLegacyBody, "DeployLegacyBody"),
      named(deployV030Body, "DeployV030Body"),
    ]);
    const split = jsonMedia(doc.paths["/api/tokens/deploy/split"].post)!;
    expect(split.schema).toEqual(named(deploySplitBody, "DeploySplitBody"));
    expect(Object.keys(deploy.examples)).toEqual(["4.0.0", "0.3.1", "0.3.0"]);
    const examples: Array<[DeployShape, Json]> = [
      ...Object.entries<Json>(deploy.examples).map(
        ([shape, e]) => [shape as DeployShape, e.value] as [DeployShape, Json],
      ),
      ["3.1.0", split.example],
    ];
    for (const [shape, body] of examples) {
      expect(detectShape(shape === "3.1.0" ? "split" : "deploy", body)).toBe(shape);
      // Cross-field rules too (sums, fee types, vault members): an example a partner copies is accepted.
      expect(parseDeployBody(shape, body).shape).toBe(shape);
    }
  });

  it("streamed uploads document their JSON (members and the StandardMerkleTree dump), and every rawBody route has a body schema", () => {
    for (const path of ["/api/airdrops", "/api/presales/allowlists"]) {
      const schema = jsonMedia(doc.paths[path].post)!.schema;
      expect(schema.required).toContain("tree");
      expect(schema.required).toContain("merkleRoot");
      expect(schema.properties.tree.$ref).toBe("#/components/schemas/StandardMerkleTreeDump");
      const tree = doc.components.schemas.StandardMerkleTreeDump;
      expect(Object.keys(tree.properties)).toEqual(["format", "leafEncoding", "tree", "values"]);
    }
    const undocumented = definitions.filter(({ def }) => def.rawBody && !def.documentedBody).map(({ id }) => id);
    expect(undocumented).toEqual([]);
  });

  it("only the five operations redocly.yaml names have no 4xx answer", () => {
    const without = operations
      .filter(({ op }) => !Object.keys(op.responses).some((s) => s.startsWith("4")))
      .map(({ id }) => id)
      .sort();
    expect(without).toEqual([
      "DELETE /api/admin/verify",
      "GET /api/health",
      "GET /api/metadata/factories",
      "GET /api/openapi.json",
      "GET /api/ping",
    ]);
    const config = readFileSync("redocly.yaml", "utf8");
    for (const id of without) expect(config).toContain(id.split(" ")[1]);
  });
});
