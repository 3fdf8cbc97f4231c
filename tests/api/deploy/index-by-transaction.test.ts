// POST /api/tokens/index (the platform's index-by-transaction route): a token deployed outside the service, by the
// platform's SDK on the local chain, is indexed from its deploying transaction and answered with its page.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { db } from "@/db";
import { POST as indexByTransaction } from "@/app/api/tokens/index/route";
import { POST as fromUi } from "@/app/api/tokens/save-deployed-token/from-ui/route";
import { POST as indexByAddress } from "@/app/api/tokens/index-by-address/route";
import { authMatrix, partnerKey, startIssuer, type Issuer } from "@/tests/helpers/auth";
import { sdkDeployment, useTestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";
import { freezeDate } from "@/tests/helpers/clock";

const chain = useTestChain();
let key: string;
let issuer: Issuer;

const index = (body: unknown, apiKey = key) =>
  call(indexByTransaction, "/api/tokens/index", { body, headers: { "x-api-key": apiKey } });

beforeAll(async () => {
  issuer = await startIssuer();
  key = await partnerKey("indexer");
});
beforeEach(async () => {
  for (const table of ["tokens", "rate_limits"] as const) await db().deleteFrom(table).execute();
});

async function deployWithSdk(name: string) {
  const c = chain();
  const admin = c.accounts[4]!;
  return sdkDeployment(c, 4, {
    name,
    symbol: name.slice(0, 4).toUpperCase(),
    tokenAdmin: admin,
    rewards: { recipients: [{ admin, recipient: admin, bps: 10_000, token: "Both" }] },
  });
}

describe("POST /api/tokens/index", () => {
  authMatrix(
    "partner",
    (headers) => call(indexByTransaction, "/api/tokens/index", { body: {}, headers }),
    () => issuer,
  );

  it("indexes the token a transaction created and answers its address and page", async () => {
    const { address, txHash } = await deployWithSdk("Indexed By Tx");
    const res = await index({ txHash, chainId: chain().chainId });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, address: getAddress(address), url: expect.any(String) });
    expect(new URL(res.body.url).pathname).toBe(`/tokens/${getAddress(address)}`);
    const row = await db()
      .selectFrom("tokens")
      .select(["name", "tx_hash"])
      .where("contract_address", "=", address.toLowerCase())
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: "Indexed By Tx", tx_hash: txHash });
    // Again: the same answer (an upsert), and chainId as a numeric string as clients send it.
    const again = await index({ txHash, chainId: String(chain().chainId) });
    expect(again.body).toEqual(res.body);
  });

  it("404 for a transaction that created no token or is unknown; 400 for a chain not indexed or a bad hash", async () => {
    const c = chain();
    const transfer = await c.wallet(5).sendTransaction({ to: c.accounts[6]!, value: 1n });
    await c.publicClient.waitForTransactionReceipt({ hash: transfer });
    expect(expectError(await index({ txHash: transfer, chainId: c.chainId }), 404, "not_found").error).toMatch(
      /created no token/,
    );
    expectError(await index({ txHash: `0x${"ab".repeat(32)}`, chainId: c.chainId }), 404, "not_found");
    expect(expectError(await index({ txHash: transfer, chainId: 999 }), 400, "invalid_request").error).toMatch(
      /^chainId: /,
    );
    expect(expectError(await index({ txHash: "0x12", chainId: c.chainId }), 400, "invalid_request").error).toMatch(
      /^txHash: /,
    );
  });

  it("allows 10 a minute per API key", async () => {
    freezeDate();
    const other = await partnerKey("indexer-limit");
    for (let i = 0; i < 10; i++) await index({ txHash: `0x${"cd".repeat(32)}`, chainId: chain().chainId }, other);
    expectError(await index({ txHash: `0x${"cd".repeat(32)}`, chainId: chain().chainId }, other), 429, "rate_limited");
  });
});

describe("save-deployed-token/from-ui", () => {
  it("answers the token's page too", async () => {
    const { address, txHash } = await deployWithSdk("From Ui");
    const res = await call(fromUi, "/api/tokens/save-deployed-token/from-ui", {
      body: { address, tx_hash: txHash, chain_id: chain().chainId },
      headers: { "x-forwarded-for": "10.9.0.2" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      success: true,
      tokenAddress: getAddress(address),
      url: expect.stringMatching(new RegExp(`/tokens/${getAddress(address)}$`)),
    });
  });
});

describe("index-by-address", () => {
  it("takes the platform's optional chainId: 8453 (any spelling) is read, another chain is a 400", async () => {
    const { address } = await deployWithSdk("By Address");
    const post = (body: unknown, ip: string) =>
      call(indexByAddress, "/api/tokens/index-by-address", { body, headers: { "x-forwarded-for": ip } });
    expect(expectError(await post({ address, chainId: 84532 }, "10.9.0.3"), 400, "invalid_request").error).toMatch(
      /^chainId: /,
    );
    const res = await post({ address, chainId: "8453" }, "10.9.0.4");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ address: getAddress(address), message: "Token indexed successfully" });
  });
});
