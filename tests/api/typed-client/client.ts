// The typed calls of tests/api/typed-client.test.ts, over a client generated from the OpenAPI document
// (openapi-typescript's schema.d.ts with openapi-fetch). This module imports nothing of the service, so the test
// type-checks it alone, quickly: a document that typed `limit` as text, or dropped a deploy field, fails there.
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema";

export type TypedClient = Client<paths>;
type JsonBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;
export type AirdropUpload = JsonBody<"/api/airdrops", "post">;
export type DeployBody = JsonBody<"/api/tokens/deploy", "post">;

export function typedClient(fetch: (request: Request) => Promise<Response>): TypedClient {
  return createClient<paths>({ baseUrl: "http://localhost:3000", fetch });
}

/** A 4.0.0 dry run: validated and simulated on the chain, nothing stored. */
export function deployDryRun(client: TypedClient, apiKey: string, admin: string, requestKey: string) {
  return client.POST("/api/tokens/deploy", {
    headers: { "x-api-key": apiKey },
    body: {
      token: { name: "Typed", symbol: "TYPED", tokenAdmin: admin, requestKey, image: "https://example.com/t.png" },
      rewards: [{ admin, recipient: admin, allocation: 100 }],
      fees: { type: "static", tokenFee: 1, pairedFee: 1 },
      dryRun: true,
    },
  });
}

/** `limit` and `includeMarket` are a number and a boolean, as a client writes them; the query string carries text. */
export function listTokens(client: TypedClient, limit: number) {
  return client.GET("/api/tokens", { params: { query: { limit, includeMarket: true, sort: "desc" } } });
}

export function uploadAirdrop(client: TypedClient, body: AirdropUpload) {
  return client.POST("/api/airdrops", { body });
}

export function airdropProof(client: TypedClient, tokenAddress: string, claimerAddress: string) {
  return client.GET("/api/airdrops/claim", { params: { query: { tokenAddress, claimerAddress } } });
}

/** Never called: each line must fail to compile, or the type check of this module reports an unused directive. */
export function refusedByTheTypes(client: TypedClient) {
  // @ts-expect-error limit is a number, not its text
  client.GET("/api/tokens", { params: { query: { limit: "2" } } });
  // @ts-expect-error includeUser is a boolean
  client.GET("/api/tokens", { params: { query: { includeUser: "true" } } });
  // @ts-expect-error a 4.0.0 body needs its requestKey
  const incomplete: DeployBody = { token: { name: "A", symbol: "A", tokenAdmin: "0x" } };
  // @ts-expect-error the streamed upload's tree is a StandardMerkleTree dump
  const notADump: AirdropUpload = { tokenAddress: "0x", merkleRoot: "0x", tree: { format: "standard-v1" } };
  return [incomplete, notADump];
}
