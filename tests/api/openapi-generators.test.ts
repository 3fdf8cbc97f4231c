// What a client generator reads in the OpenAPI document: the shared shapes as named components (so generated code
// has a `Token` type), every request-body member described (its unit and bounds), every address and hash of a
// request with its pattern, and the launch webhooks with their payload, headers and signature scheme.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildDocument, standaloneSchema } from "@/app/_openapi/document";
import { routeModules } from "@/app/_openapi/routes.generated";
import { CLIENT_TYPES_PATH } from "@/dev/cli/openapi-document";
import { signature } from "@/lib/domains/webhooks/deliver";

type Json = Record<string, any>;
const doc = buildDocument(routeModules);
const COMPONENTS = "#/components/schemas/";

/** A schema with its `$ref` replaced by the component it names (what the ref adds kept). */
function resolved(schema: Json): Json {
  if (typeof schema?.$ref !== "string") return schema;
  const { $ref, ...rest } = schema;
  return { ...resolved(doc.components.schemas[$ref.slice(COMPONENTS.length)]), ...rest };
}

type Member = { where: string; name: string; schema: Json; described: boolean };

/** Every object member under `schema`, through refs, unions and arrays; each named component visited once. */
function members(schema: Json, where: string, seen = new Set<string>()): Member[] {
  if (!schema || typeof schema !== "object") return [];
  if (typeof schema.$ref === "string") {
    if (seen.has(schema.$ref)) return [];
    seen.add(schema.$ref);
    return members(resolved({ $ref: schema.$ref }), schema.$ref.slice(COMPONENTS.length), seen);
  }
  const out: Member[] = [];
  for (const [name, sub] of Object.entries<Json>(schema.properties ?? {})) {
    out.push({ where, name, schema: sub, described: Boolean(sub.description ?? resolved(sub).description) });
    out.push(...members(sub, `${where}.${name}`, seen));
  }
  for (const key of ["items", "additionalProperties"]) out.push(...members(schema[key], `${where}[]`, seen));
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"])
    for (const sub of schema[key] ?? []) out.push(...members(sub, where, seen));
  return out;
}

const operations = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
  Object.entries<Json>(item).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })),
);
const bodyMembers = operations.flatMap(({ id, op }) =>
  members(op.requestBody?.content?.["application/json"]?.schema, `${id} body`),
);

/** The string forms a member may take (through refs, unions and arrays). */
function strings(schema: Json): Json[] {
  const s = resolved(schema);
  if (!s) return [];
  if (s.anyOf || s.oneOf) return (s.anyOf ?? s.oneOf).flatMap(strings);
  if (s.type === "array") return strings(s.items);
  return [s.type].flat().includes("string") ? [s] : [];
}

/** Members and parameters that hold an address or a hash, by their name. */
const HOLDS_ADDRESS_OR_HASH =
  /(^|_)(address|admin|recipient|account|sender|hash|root)$|(Address|Admin|Recipient|Account|Hash|Root|Sender)$/;

describe("named schemas", () => {
  it("name the shared shapes as components, each described, and the answers refer to them", () => {
    const names = Object.keys(doc.components.schemas);
    expect(names.length).toBeGreaterThanOrEqual(20);
    expect(names).toEqual(
      expect.arrayContaining([
        "Token",
        "TokenList",
        "User",
        "Presale",
        "DeploymentConfig",
        "AirdropEntry",
        "AirdropProof",
        "DeploymentStatus",
        "Error",
        "Webhook",
        "TokenCreatedWebhook",
        "DeployV4Body",
        "StandardMerkleTreeDump",
      ]),
    );
    for (const [name, schema] of Object.entries<Json>(doc.components.schemas))
      expect(schema.description ?? schema.title, `${name} has no description`).toBeTruthy();
    const text = JSON.stringify(doc);
    for (const name of names.filter((n) => n !== "Error"))
      expect(text.includes(`"${COMPONENTS}${name}"`), `${name} is never referred to`).toBe(true);
    // No component refers to one that does not exist.
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    for (const ref of refs) expect(doc.components.schemas[ref.slice(COMPONENTS.length)], ref).toBeDefined();

    const answer = (path: string, method = "get") =>
      doc.paths[path][method].responses[Object.keys(doc.paths[path][method].responses)[0]].content["application/json"]
        .schema;
    expect(answer("/api/tokens").properties.data.items).toEqual({ $ref: `${COMPONENTS}Token` });
    expect(answer("/api/tokens/fetch-by-admin")).toEqual({ $ref: `${COMPONENTS}TokenList` });
    expect(answer("/api/tokens/deploy/{requestKey}")).toEqual({ $ref: `${COMPONENTS}DeploymentStatus` });
    expect(answer("/api/presales").properties.presales.items).toEqual({ $ref: `${COMPONENTS}Presale` });
    expect(answer("/api/airdrops/allocations").properties.allocations.items).toEqual({
      $ref: `${COMPONENTS}AirdropEntry`,
    });
    expect(answer("/api/get-user-by-fid")).toMatchObject({ $ref: `${COMPONENTS}User` });
  });

  it("reach the generated client as named types", () => {
    const types = readFileSync(CLIENT_TYPES_PATH, "utf8");
    for (const name of ["Token", "User", "Presale", "AirdropEntry", "DeploymentStatus", "Error"])
      expect(types, name).toMatch(new RegExp(`\\n {8}${name}: \\{`));
    expect(types).toContain('data: components["schemas"]["Token"][];');
    expect(types).toContain("export interface webhooks {");
  });
});

describe("request bodies", () => {
  it("describe every member (its unit and bounds)", () => {
    expect(bodyMembers.length).toBeGreaterThan(150);
    expect(bodyMembers.filter((m) => !m.described).map((m) => `${m.where}.${m.name}`)).toEqual([]);
  });

  it("say the unit of the fee, percentage, time and amount members", () => {
    const about = (where: string, name: string) =>
      bodyMembers.find((m) => m.where === where && m.name === name)?.schema.description ?? "";
    expect(about("DeployV4Body.fees", "tokenFee")).toMatch(/percent.*not bps/);
    expect(about("DeployV4Body.fees", "baseFee")).toMatch(/percent 0\.25 to 5/);
    expect(about("DeployV4Body.vault", "lockupDuration")).toMatch(/seconds.*at least 604800/);
    expect(about("DeployV4Body.airdrop", "amount")).toMatch(/whole tokens/);
    expect(about("DeployLegacyBody", "creatorRewardsPercentage")).toMatch(/percent 0 to 80/);
    expect(about("DeployLegacyBody", "vaultUnlockTimestamp")).toMatch(/unix seconds/);
    expect(about("POST /api/pretoken/v4 body.vault_settings", "lockup_duration")).toMatch(/seconds/);
  });
});

describe("addresses and hashes", () => {
  it("carry a pattern wherever a request names one, from the shared helpers", () => {
    // Not addresses despite their names: a key's owner is free text, and the admin token is a JWT.
    const notAddresses = new Set(["POST /api/admin/keys body.owner", "POST /api/admin/verify body.token"]);
    const missing: string[] = [];
    let patterned = 0;
    for (const { id, op } of operations) {
      for (const p of op.parameters ?? []) {
        if (!HOLDS_ADDRESS_OR_HASH.test(p.name) && p.name !== "address") continue;
        for (const s of strings(p.schema)) s.pattern ? patterned++ : missing.push(`${id} ${p.name}`);
      }
    }
    for (const m of bodyMembers) {
      if (!HOLDS_ADDRESS_OR_HASH.test(m.name) || notAddresses.has(`${m.where}.${m.name}`)) continue;
      for (const s of strings(m.schema))
        s.pattern || s.enum || s.const ? patterned++ : missing.push(`${m.where}.${m.name}`);
    }
    expect(missing).toEqual([]);
    expect(patterned).toBeGreaterThan(60);
  });

  it("carry a pattern in the named answers (Token, Presale, AirdropEntry, DeploymentStatus)", () => {
    const component = (name: string) => doc.components.schemas[name];
    const pattern = (schema: Json) => strings(schema).map((s) => s.pattern);
    const token = component("Token").properties;
    for (const name of ["contract_address", "pool_address", "tx_hash", "msg_sender", "admin"])
      expect(pattern(token[name]), name).toEqual([expect.stringMatching(/\{40\}|\{64\}/)]);
    expect(pattern(component("Presale").properties.presale_address)).toEqual(["^0x[0-9a-fA-F]{40}$"]);
    expect(pattern(component("AirdropEntry").properties.account)).toEqual(["^0x[0-9a-fA-F]{40}$"]);
    expect(pattern(component("DeploymentStatus").properties.txHash)).toEqual(["^0x[0-9a-f]{64}$"]);
  });
});

describe("webhooks", () => {
  const hook = doc.webhooks?.["token.created"]?.post;

  it("document token.created: its payload, its headers and the signature scheme", () => {
    expect(hook).toBeDefined();
    expect(hook.security).toEqual([{ webhookSignature: [] }]);
    expect(doc.components.securitySchemes.webhookSignature).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "x-webhook-signature",
    });
    expect(hook.description).toMatch(/HMAC-SHA256/);
    expect(hook.parameters.map((p: Json) => [p.in, p.name, p.required])).toEqual([
      ["header", "x-webhook-id", true],
      ["header", "x-webhook-timestamp", true],
      ["header", "x-webhook-signature", true],
    ]);
    const media = hook.requestBody.content["application/json"];
    expect(media.schema).toEqual({ $ref: `${COMPONENTS}TokenCreatedWebhook` });
    expect(resolved(media.schema).properties.data).toMatchObject({ $ref: `${COMPONENTS}Token` });
    // The example is a payload the schema accepts, and its example headers sign it as deliver.ts does.
    expect(z.fromJSONSchema(standaloneSchema(doc, media.schema)).safeParse(media.example).success).toBe(true);
    expect(Object.keys(hook.responses)).toEqual(["2XX", "default"]);
  });

  it("state the signature deliver.ts computes: v1= hex HMAC-SHA256(secret, timestamp.body)", () => {
    const secret = "whsec_test";
    const body = JSON.stringify({ id: "whd_x", type: "token.created", data: {} });
    const expected = `v1=${createHmac("sha256", secret).update(`1767225600.${body}`).digest("hex")}`;
    expect(signature(secret, "1767225600", body)).toBe(expected);
    const header = hook.parameters.find((p: Json) => p.name === "x-webhook-signature");
    expect(expected).toMatch(new RegExp(header.schema.pattern));
  });
});
