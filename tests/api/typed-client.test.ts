// A client generated from the OpenAPI document (openapi-typescript types, openapi-fetch) against the routes in
// process: its types are the committed schema.d.ts, current with the document; its typed calls compile on their
// own (tests/api/typed-client/client.ts); and a deploy dry run, a token list and an airdrop upload and proof go
// through it, each answer checked against its documented schema by call().
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { db } from "@/db";
import { buildDocument } from "@/app/_openapi/document";
import { routeModules } from "@/app/_openapi/routes.generated";
import { CLIENT_TYPES_PATH, renderClientTypes } from "@/dev/cli/openapi-document";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { useTestChain } from "@/tests/helpers/chain";
import { partnerKey } from "@/tests/helpers/auth";
import { address as sampleAddress, tokenWithAirdrop } from "./airdrops/trees";
import { insertTokens, address } from "./tokens/fixtures";
import { dispatch } from "./typed-client/dispatch";
import {
  airdropProof,
  deployDryRun,
  listTokens,
  typedClient,
  uploadAirdrop,
  type AirdropUpload,
} from "./typed-client/client";
import type { paths } from "./typed-client/schema";

const chain = useTestChain();
/** The URLs the client asked for: what its serializer put on the wire. */
const sent: string[] = [];
const client = typedClient((request) => {
  sent.push(request.url);
  return dispatch(request);
});
let apiKey: string;

beforeAll(async () => {
  apiKey = await partnerKey("typed-client");
});

describe("the generated client types", () => {
  it("are current with the document (run `npm run openapi:types` when this fails)", async () => {
    const rendered = await renderClientTypes(buildDocument(routeModules));
    expect(readFileSync(CLIENT_TYPES_PATH, "utf8") === rendered, "schema.d.ts is stale").toBe(true);
  });

  it("type the query integers and booleans as numbers and booleans (tsc checks these lines)", () => {
    type TokensQuery = NonNullable<paths["/api/tokens"]["get"]["parameters"]["query"]>;
    expectTypeOf<TokensQuery["limit"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<TokensQuery["includeUser"]>().toEqualTypeOf<boolean | undefined>();
    type ProofQuery = paths["/api/presales/allowlists/proof"]["get"]["parameters"]["query"];
    expectTypeOf<ProofQuery["presaleId"]>().toEqualTypeOf<number>();
  });

  it('compile the typed calls, and refuse `limit: "2"` and the other wrong calls', () => {
    const file = join(dirname(CLIENT_TYPES_PATH), "client.ts");
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
    // The program really read the generated types (an unresolved import would be an error above, but be sure).
    expect(program.getSourceFiles().some((f) => f.fileName.endsWith("typed-client/schema.d.ts"))).toBe(true);
  });
});

describe("typed calls against the routes", () => {
  it("POST /api/tokens/deploy: a typed 4.0.0 dry run simulates on the chain and stores nothing", async () => {
    const admin = chain().accounts[2]!;
    const { data, error, response } = await deployDryRun(client, apiKey, admin, "typed-client-dry-run-key-0000001");
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(200);
    if (!data || !("dryRun" in data)) throw new Error(`not a dry run answer: ${JSON.stringify(data)}`);
    expect(data.dryRun).toBe(true);
    expect(data.shape).toBe("4.0.0");
    expect(data.expectedAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(data.deploymentConfig.tokenConfig.tokenAdmin.toLowerCase()).toBe(admin.toLowerCase());
    expect(await db().selectFrom("deploy_requests").selectAll().execute()).toEqual([]);
  });

  it("GET /api/tokens with limit: 2 (a number) answers two tokens", async () => {
    await insertTokens([1, 2, 3].map((n) => ({ contract_address: address("e", n), name: `Typed ${n}` })));
    const { data, error, response } = await listTokens(client, 2);
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    const query = new URL(sent.at(-1)!).searchParams;
    expect([query.get("limit"), query.get("includeMarket")]).toEqual(["2", "true"]);
    expect(data?.data).toHaveLength(2);
    expect(data?.total).toBeGreaterThanOrEqual(3);
  });

  it("POST /api/airdrops (the documented upload body) then GET /api/airdrops/claim: a proof that verifies", async () => {
    const values = [0, 1, 2].map((i) => [sampleAddress(i), BigInt(i + 1) * 10n ** 18n] as const);
    const { root, dump } = buildStandardTree(values);
    const token = await tokenWithAirdrop(chain(), root);
    const body: AirdropUpload = { tokenAddress: token, merkleRoot: root, tree: dump };
    const upload = await uploadAirdrop(client, body);
    expect(upload.error, JSON.stringify(upload.error)).toBeUndefined();
    expect(upload.data).toMatchObject({ success: true, merkleRoot: root, leafCount: 3 });
    const claimer = sampleAddress(1);
    const { data, error } = await airdropProof(client, token, claimer);
    expect(error).toBeUndefined();
    expect(data?.proofs).toHaveLength(1);
    const [{ proof, entry }] = data!.proofs;
    expect(entry.amount).toBe((2n * 10n ** 18n).toString());
    expect(StandardMerkleTree.verify(root, ["address", "uint256"], [entry.account, entry.amount], proof)).toBe(true);
  });
});
