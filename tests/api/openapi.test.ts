// The OpenAPI contract: the manifest matches app/api, every exported method is documented, every documented
// operation has a route, and the served document is well-formed 3.1 with the shared pieces.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call } from "@/tests/helpers/http";
import { route } from "@/lib/http/route";
import { GET } from "@/app/api/openapi.json/route";
import { MANIFEST_PATH, renderManifest, scanRouteFiles } from "@/dev/openapi-manifest";
import { routeModules } from "@/app/_openapi/routes.generated";
import { insertTokens, insertMarket, address } from "./tokens/fixtures";
import { buildDocument, definitionOf, DOCUMENTED_METHODS, operationsOf } from "@/app/_openapi/document";

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
      "qstashSignature",
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
      const parsed = z.fromJSONSchema(schema).safeParse(res.body);
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
    expect(z.fromJSONSchema(list).safeParse({ data: "nope" }).success).toBe(false);
  });

  it("the test helper refuses a 2xx answer that does not match its route's response schema, or has a key it does not list", async () => {
    const lying = route({
      auth: "public",
      response: z.object({ count: z.number().int() }),
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
