// GET /api/get-claimed-fees/{tokenAddress}/{feeRecipient}: a fee recipient's claims of the token's paired token, from
// the fee-claim events the earnings indexer stores, as creator-revenue dashboards read them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getAddress, parseEther, type Address } from "viem";
import { GET } from "@/app/api/get-claimed-fees/[tokenAddress]/[feeRecipient]/route";
import { GET as tokenByAddress } from "@/app/api/get-token-by-address/route";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { indexFeeClaims } from "@/lib/domains/rewards/earnings/indexer";
import { indexByAddress } from "@/lib/domains/launch/indexer/lookup";
import { useTestChain } from "@/tests/helpers/chain";
import { authMatrix, partnerKey, startIssuer, type Issuer } from "@/tests/helpers/auth";
import { call, expectError } from "@/tests/helpers/http";
import { claimFees, launch, payWethRewards } from "./chain-fixtures";
import { addr } from "./fixtures";

const chain = useTestChain();
let issuer: Issuer;
let key: string;

beforeAll(async () => {
  issuer = await startIssuer();
  key = await partnerKey();
});
afterAll(() => issuer.close());
beforeEach(async () => {
  // The chain is reverted after each test; the database is not.
  for (const table of ["fee_claims", "chain_checkpoints", "tokens"] as const) await db().deleteFrom(table).execute();
  Object.assign(process.env, { EARNINGS_INDEX_CONFIRMATIONS: "0" });
  resetConfig();
});

const claimed = (token: string, recipient: string, qs = "", headers: Record<string, string> = { "x-api-key": key }) =>
  call(GET, `/api/get-claimed-fees/${token}/${recipient}${qs}`, {
    headers,
    params: { tokenAddress: token, feeRecipient: recipient },
  });

describe("GET /api/get-claimed-fees/{tokenAddress}/{feeRecipient}", () => {
  authMatrix(
    "partner",
    (headers) => claimed(addr(0xc1a), addr(0xc1b), "", headers),
    () => issuer,
  );

  it("answers totalClaimed (wei) and claimCount for the recipient the token's extensions.fees name", async () => {
    const c = chain();
    const l = await launch(c, [6_000, 4_000]);
    expect((await indexByAddress(8453, l.token)).status).toBe("indexed");
    // The dashboard's path: the token, then each recipient its fee split names.
    const token = await call(tokenByAddress, `/api/get-token-by-address?address=${l.token}`, {
      headers: { "x-api-key": key },
    });
    const recipients = token.body.data.extensions!.fees.recipients!.map((r) => r.recipient as Address);
    expect(recipients).toEqual(l.recipients);
    const [creator, other] = recipients as Address[];

    await payWethRewards(c, l.token, parseEther("1"));
    await claimFees(c, creator!, c.contracts.weth);
    await payWethRewards(c, l.token, parseEther("0.5"));
    await claimFees(c, creator!, c.contracts.weth);
    await indexFeeClaims(8453);

    const res = await claimed(l.token, creator!);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const claims = await db()
      .selectFrom("fee_claims")
      .select("tx_hash")
      .where("fee_owner", "=", creator!.toLowerCase())
      .orderBy("block_number", "desc")
      .execute();
    expect(claims).toHaveLength(2);
    expect(res.body).toEqual({
      tokenAddress: l.token,
      feeRecipient: creator,
      chainId: 8453,
      pairedTokenAddress: c.contracts.weth,
      totalClaimed: parseEther("0.9").toString(), // 60% of 1 and of 0.5 WETH
      claimCount: 2,
      txHashes: claims.map((r) => r.tx_hash),
      pagination: { limit: 50, offset: 0, hasMore: false },
      indexedToBlock: expect.any(Number),
    });
    // Pages of the transactions; the totals stay those of every claim.
    const first = await claimed(l.token.toLowerCase(), creator!.toLowerCase(), "?limit=1&chainId=8453");
    expect(first.body).toMatchObject({
      totalClaimed: parseEther("0.9").toString(),
      claimCount: 2,
      txHashes: [claims[0]!.tx_hash],
      pagination: { limit: 1, offset: 0, hasMore: true },
    });
    expect((await claimed(l.token, creator!, "?limit=1&offset=1")).body).toMatchObject({
      txHashes: [claims[1]!.tx_hash],
      pagination: { limit: 1, offset: 1, hasMore: false },
    });
    // A recipient that has not claimed: zero, not 404.
    expect((await claimed(l.token, other!)).body).toMatchObject({
      feeRecipient: getAddress(other!),
      totalClaimed: "0",
      claimCount: 0,
      txHashes: [],
    });
  });

  it("answers 404 for a token it does not know, and 400 naming a bad parameter", async () => {
    expectError(await claimed(addr(0xdead), addr(1)), 404, "not_found");
    for (const [path, qs, name] of [
      [`${addr(1)}/0x12`, "", "feeRecipient"],
      [`${addr(1)}/${addr(2)}`, "?limit=0", "limit"],
      [`${addr(1)}/${addr(2)}`, "?offset=10001", "offset"],
    ] as const) {
      const [token, recipient] = path.split("/") as [string, string];
      expect(expectError(await claimed(token, recipient, qs), 400, "invalid_request").error).toMatch(
        new RegExp(`^${name}: `),
      );
    }
  });
});
