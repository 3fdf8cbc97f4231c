// The answer schemas of the tree endpoints (presale allowlists, airdrops): each reaches the OpenAPI document as
// a described JSON schema (the document builder turns a schema zod cannot render into `{}` silently), and the
// shared pieces refuse the forms the service must never answer with.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildDocument, standaloneSchema } from "@/app/_openapi/document";
import { routeModules } from "@/app/_openapi/routes.generated";
import { checksummedAddress, ethAmount, weiAmount } from "@/lib/core/answers";
import { merkleProof } from "@/lib/domains/merkle/responses";
import { airdropUploadResponse } from "@/lib/domains/airdrops/responses";
import { presaleDeploymentConfig, presaleObject } from "@/lib/domains/presales/responses";

const OPERATIONS = [
  ["/api/presales", "get"],
  ["/api/presales/allowlists", "get"],
  ["/api/presales/allowlists", "post"],
  ["/api/presales/allowlists/proof", "get"],
  ["/api/presales/refresh", "get"],
  ["/api/airdrops", "get"],
  ["/api/airdrops", "post"],
  ["/api/airdrops/claim", "get"],
  ["/api/airdrops/allocations", "get"],
] as const;

describe("tree endpoint answer schemas", () => {
  it("are documented per operation with a summary, their members and an example that fits them", () => {
    const doc = buildDocument(routeModules);
    for (const [path, method] of OPERATIONS) {
      const op = doc.paths[path][method];
      expect(op.summary, `${method} ${path}`).not.toBe(`${method.toUpperCase()} ${path}`);
      const { schema, example } = op.responses["200"].content["application/json"];
      expect(schema.type, `${method} ${path}`).toBe("object");
      expect(Object.keys(schema.properties ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      const standalone = standaloneSchema(doc, schema);
      expect(z.fromJSONSchema(standalone).safeParse(example).success, `${method} ${path} example`).toBe(true);
    }
    // Deeper than the document's example builder goes: the presale's deployment carries its own example.
    const presale = doc.paths["/api/presales"].get.responses["200"].content["application/json"].example.presales[0];
    expect(presaleDeploymentConfig.parse(presale.deployment_config).poolConfig.tickSpacing).toBe(200);
  });

  it("refuse lowercase addresses, fractional wei, integer ether and uppercase proof hex", () => {
    expect(checksummedAddress.safeParse("0x4200000000000000000000000000000000000006").success).toBe(true);
    expect(checksummedAddress.safeParse("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed").success).toBe(false);
    expect(checksummedAddress.safeParse("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed").success).toBe(true);
    expect(weiAmount.safeParse("1000000000000000000").success).toBe(true);
    for (const bad of ["1.5", "-1", "", "1e18", "0x10"]) expect(weiAmount.safeParse(bad).success, bad).toBe(false);
    expect(ethAmount.safeParse("0.000000000000000001").success).toBe(true);
    expect(ethAmount.safeParse("1").success).toBe(false);
    expect(merkleProof.safeParse([`0x${"ab".repeat(32)}`]).success).toBe(true);
    expect(merkleProof.safeParse([`0x${"AB".repeat(32)}`]).success).toBe(false);
  });

  it("keep the enqueue members of an airdrop upload optional, and a presale's unindexed members nullable", () => {
    const root = `0x${"12".repeat(32)}`;
    const base = {
      success: true,
      tokenAddress: "0x4200000000000000000000000000000000000006",
      merkleRoot: root,
      leafCount: 3,
    };
    expect(airdropUploadResponse.safeParse(base).success).toBe(true);
    expect(
      airdropUploadResponse.safeParse({ ...base, enqueued: true, message: "accepted", delaySeconds: 10 }).success,
    ).toBe(true);
    expect(airdropUploadResponse.safeParse({ ...base, enqueued: false }).success).toBe(false);
    const time = "2026-01-01T00:00:00.000Z";
    const bare = {
      ...Object.fromEntries(Object.keys(presaleObject.shape).map((key) => [key, null])),
      id: 1,
      presale_id: 2,
      chain_id: 8453,
      presale_address: base.tokenAddress,
      status: 1,
      status_name: "Active",
      eth_raised: "0",
      created_at: time,
      updated_at: time,
    };
    expect(presaleObject.safeParse(bare).success).toBe(true);
    expect(presaleObject.safeParse({ ...bare, eth_raised: null }).success).toBe(false);
  });
});
