// GET /api/tokens/market-history over stored snapshots, their daily prune, and the token-presale link the
// token page reads (tokens.presale_id, written by whichever of the presale and the token is indexed second).
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@/db";
import { GET } from "@/app/api/tokens/market-history/route";
import { GET as presales } from "@/app/api/presales/route";
import { jobs } from "@/lib/domains/jobs";
import { pruneAll } from "@/lib/platform/jobs/retention";
import { pruneMarketSnapshots } from "@/lib/domains/tokens/market/refresh";
import { applyPresaleChange } from "@/lib/domains/presales/indexer";
import { call, expectError } from "@/tests/helpers/http";
import { address, insertTokens } from "./fixtures";

const HOUR = 3_600_000;
let tokenId = 0;

beforeAll(async () => {
  const [token] = await insertTokens([{ contract_address: address("c", 9100), chain_id: 8453 }]);
  tokenId = token.id;
  await insertTokens([{ contract_address: address("c", 9101), chain_id: 8453 }]);
  const now = Date.now();
  await db()
    .insertInto("token_market_snapshots")
    .values(
      [1, 2, 3, 24 * 40, 24 * 100].map((hoursAgo, i) => ({
        token_id: tokenId,
        taken_at: new Date(now - hoursAgo * HOUR),
        market_cap_usd: 1000 + i,
        price_usd: (1000 + i) / 1e11,
        volume_24h_usd: 5,
      })),
    )
    .execute();
});

const history = (query: string) => call(GET, `/api/tokens/market-history${query}`);

describe("GET /api/tokens/market-history", () => {
  it("answers the period's snapshots, oldest first", async () => {
    const res = await history(`?address=${address("c", 9100).toUpperCase().replace("0X", "0x")}&chainId=8453`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.points.map((p: any) => p.marketCap)).toEqual([1002, 1001, 1000]);
    expect(res.body.chainId).toBe(8453);
    expect(res.headers.get("cache-control")).toMatch(/s-maxage=60/);
    const longer = await history(`?address=${address("c", 9100)}&chainId=8453&days=60`);
    expect(longer.body.points.map((p: any) => p.marketCap)).toEqual([1003, 1002, 1001, 1000]);
  });

  it("answers no points for a token never refreshed, 404 for an unknown token, 400 for a bad query", async () => {
    expect((await history(`?address=${address("c", 9101)}&chainId=8453`)).body.points).toEqual([]);
    expectError(await history(`?address=${address("c", 9101)}&chainId=42161`), 404, "not_found");
    expectError(await history(`?address=0x12&chainId=8453`), 400, "invalid_request");
    expectError(await history(`?address=${address("c", 9100)}&chainId=8453&days=400`), 400, "invalid_request");
  });
});

describe("snapshot retention", () => {
  it("the daily prune deletes snapshots past MARKET_SNAPSHOT_RETENTION_DAYS (90 by default)", async () => {
    const result = await pruneAll(jobs.retentions);
    expect(result["market-snapshots"]).toBe(1);
    expect(await pruneMarketSnapshots(30)).toEqual({ deleted: 1 });
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM token_market_snapshots`.execute(db());
    expect(rows[0].n).toBe(3);
  });
});

describe("the token's presale", () => {
  const presaleAddress = "0x00000000000000000000000000000000000000a6";
  const deployed = (presaleId: number, token: string) => ({
    presaleId: BigInt(presaleId),
    deployed: { token, supply: 10n ** 29n },
  });
  const presaleIdOf = async (contract: string) =>
    (
      await db()
        .selectFrom("tokens")
        .select("presale_id")
        .where("contract_address", "=", contract)
        .executeTakeFirstOrThrow()
    ).presale_id;

  it("is written when the presale deploys an indexed token, and found by GET /api/presales?presaleId", async () => {
    await applyPresaleChange(8453, presaleAddress, deployed(7, address("c", 9100)));
    expect(await presaleIdOf(address("c", 9100))).toBe(7);
    const res = await call(presales, "/api/presales?chainId=8453&presaleId=7");
    expect(res.status, res.text).toBe(200);
    expect(res.body.presales.map((p: any) => p.presale_id)).toEqual([7]);
    expect(res.body.presales[0].token_address!.toLowerCase()).toBe(address("c", 9100));
  });

  it("is written by the migration's backfill statement for rows indexed before it", async () => {
    await applyPresaleChange(8453, presaleAddress, deployed(8, address("c", 9101)));
    await db().updateTable("tokens").set({ presale_id: null }).execute();
    const { up } = await import("@/db/migrations/20261125100000_market_snapshots");
    await sql`DROP TABLE token_market_snapshots`.execute(db());
    await up(db());
    expect(await presaleIdOf(address("c", 9100))).toBe(7);
    expect(await presaleIdOf(address("c", 9101))).toBe(8);
  });
});
