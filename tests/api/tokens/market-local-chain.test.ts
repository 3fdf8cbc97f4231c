// The local market's tokens that really exist on the local chain: a token deployed at the factory and indexed takes
// its figures from its pool (the price GET /api/marketcap reads, times the ETH/USD feed), while the seed's tokens,
// whose pool ids the factory never made, keep the local market's; a chain that does not answer keeps the row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { custom, type Address } from "viem";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { enqueue } from "@/lib/platform/jobs/define";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { followTokenCreatedJob } from "@/lib/domains/launch/indexer/jobs";
import { refreshLocalMarket } from "@/lib/domains/tokens/market/local";
import { marketCapUsd, ratioToNumber } from "@/lib/domains/tokens/market/price-math";
import { TOKEN_SUPPLY, resetChainClients, setChainTransport, v3PoolAbi } from "@/lib/platform/chain";
import { factoryAbi } from "@/dev/chain/artifacts";
import { LOCAL_ETH_USD } from "@/dev/chain/local";
import { useTestChain } from "@/tests/helpers/chain";
import { deployDirect } from "@/tests/helpers/factory-deploy";
import { address, insertTokens, poolId } from "./fixtures";

const chain = useTestChain();
const HOUR = 3_600_000;

const row = (id: number) =>
  db().selectFrom("token_market").selectAll().where("token_id", "=", id).executeTakeFirstOrThrow();
const points = (id: number) =>
  db().selectFrom("token_market_snapshots").selectAll().where("token_id", "=", id).orderBy("taken_at").execute();

beforeAll(async () => {
  for (const table of ["tokens", "jobs", "chain_checkpoints", "token_market", "token_market_snapshots"])
    await sql`DELETE FROM ${sql.table(table)}`.execute(db());
  process.env.MARKET_DATA_PROVIDER = "local";
  resetConfig();
});
afterAll(() => {
  delete process.env.MARKET_DATA_PROVIDER;
  resetConfig();
});

/** The token's market cap from its pool's slot0 and the local feed's $3,000, computed here on its own. */
async function poolMarketCap(token: Address, poolIdHex: string): Promise<number> {
  const c = chain();
  const pool = await c.publicClient.readContract({
    address: c.contracts.factory,
    abi: factoryAbi,
    functionName: "poolOf",
    args: [poolIdHex as `0x${string}`],
  });
  const [[sqrtPriceX96], token0] = await Promise.all([
    c.publicClient.readContract({ address: pool, abi: v3PoolAbi, functionName: "slot0" }),
    c.publicClient.readContract({ address: pool, abi: v3PoolAbi, functionName: "token0" }),
  ]);
  const cap = marketCapUsd({
    sqrtPriceX96,
    tokenIsToken0: token0.toLowerCase() === token.toLowerCase(),
    supply: TOKEN_SUPPLY,
    pairedDecimals: 18,
    pairedUsd: { num: LOCAL_ETH_USD, den: 10n ** 8n },
  });
  return ratioToNumber(cap);
}

describe("the local market of tokens on the local chain", () => {
  it("prices a deployed token from its pool, the seed's from the local market, and holds on a chain failure", async () => {
    const c = chain();
    const { token } = await deployDirect(c, "Pool Priced");
    await enqueue(followTokenCreatedJob, { chainId: 8453 });
    expect((await runDueJobs(jobs)).map((o) => [o.status, o.error ?? null])).toEqual([["done", null]]);
    const real = await db()
      .selectFrom("tokens")
      .select(["id", "pool_address"])
      .where("contract_address", "=", token.toLowerCase())
      .executeTakeFirstOrThrow();
    // The seed's tokens: a Base block far above the local chain's, and one low enough whose pool id is unknown.
    const [seeded, unknownPool] = await insertTokens([
      { contract_address: address("c", 7200), pool_address: poolId(7200), block_number: 40_000_000 },
      { contract_address: address("c", 7201), pool_address: poolId(7201), block_number: 1 },
    ]);
    const ids = [real.id, seeded!.id, unknownPool!.id];

    const at = Date.now();
    const report = await refreshLocalMarket(undefined, ids, new Date(at));
    expect(report).toMatchObject({ pools: 3, updated: 3 });
    const cap = await poolMarketCap(token, real.pool_address!);
    expect(cap).toBeGreaterThan(0);
    const market = await row(real.id);
    expect(market).toMatchObject({ updated_at: new Date(at), volume_24h_usd: 0, tx_count_24h: 0 });
    expect(market.market_cap_usd).toBeCloseTo(cap, 6);
    expect(market.price_usd! * 1e11).toBeCloseTo(cap, 6);
    expect(market).toMatchObject({ price_change_1h: null, price_change_24h: null }); // no history yet
    expect(await points(real.id)).toMatchObject([{ taken_at: new Date(at), market_cap_usd: market.market_cap_usd }]);
    // The seed's: the local market's figures and history (30 days of points ending on the row's figure).
    for (const id of [seeded!.id, unknownPool!.id]) {
      const synthetic = await row(id);
      expect(synthetic.volume_24h_usd).toBeGreaterThan(0);
      expect(synthetic.market_cap_usd).not.toBeCloseTo(cap, 0);
      expect((await points(id)).length).toBeGreaterThan(100);
    }

    // An hour later the token's own history gives its change: the pool has not traded, so none.
    const later = at + HOUR;
    expect(await refreshLocalMarket(undefined, ids, new Date(later))).toMatchObject({ pools: 3, updated: 3 });
    expect(await row(real.id)).toMatchObject({ market_cap_usd: market.market_cap_usd, price_change_1h: 0 });

    // A chain that does not answer: the rows of the tokens the indexer has covered stay as they were (the unknown
    // pool's too: it cannot be told apart now), the seed's far above still move.
    setChainTransport(
      8453,
      custom({ request: () => Promise.reject(new Error("connection refused")) }, { retryCount: 0 }),
    );
    resetChainClients();
    try {
      const before = await row(real.id);
      const seededBefore = await row(seeded!.id);
      const report = await refreshLocalMarket(undefined, ids, new Date(later + HOUR));
      expect(report).toMatchObject({ pools: 3, updated: 1 });
      expect(await row(real.id)).toEqual(before);
      expect((await row(unknownPool!.id)).updated_at).toEqual(new Date(later));
      expect((await row(seeded!.id)).updated_at).toEqual(new Date(later + HOUR));
      expect((await row(seeded!.id)).market_cap_usd).not.toBe(seededBefore.market_cap_usd);
    } finally {
      setChainTransport(8453, custom(c.provider, { retryCount: 0 }));
      resetChainClients();
    }
  });
});
