// The synthetic dataset: counts, determinism (same tokens and seed -> same rows), realistic shapes.
import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@/db";
import { currentDataset, generatorId, resetSeededData, seedDatabase, seedIfEmpty, usersFor } from "@/dev/seed";
import { Prng, Zipf } from "@/dev/seed/prng";
import { toTokenObject } from "@/lib/domains/tokens/serialize";
import { tokenObject } from "@/lib/domains/tokens/responses";
import { jsonSchema } from "@/app/_openapi/document";
import { z } from "zod";
import {
  PRODUCTION_LEGACY_FACTORIES,
  TOKEN_GENERATIONS,
  UNISWAP_V3,
  uniswapV3PoolAddress,
} from "@/lib/platform/chain/generations";

const TOKENS = 250;

async function digest() {
  const one = async (table: string, order: string) => {
    const { rows } = await sql<{ d: string; n: number }>`
      SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY ${sql.raw(order)}), '')) AS d, count(*)::int AS n
      FROM ${sql.table(table)} t`.execute(db());
    return rows[0];
  };
  return {
    tokens: await one("tokens", "id"),
    market: await one("token_market", "token_id"),
    users: await one("users", "fid"),
    addresses: await one("user_addresses", "address, fid"),
    follows: await one("follows", "follower_fid, followed_fid"),
  };
}

describe("seedDatabase", () => {
  it("seeds the counts asked for, records the run, and is deterministic per seed", async () => {
    const summary = await seedDatabase({ tokens: TOKENS, seed: "7" });
    expect(summary).toMatchObject({ tokens: TOKENS, users: usersFor(TOKENS), seed: "7" });
    const first = await digest();
    expect(first.tokens.n).toBe(TOKENS);
    expect(first.users.n).toBe(usersFor(TOKENS));
    expect(first.follows.n).toBe(summary.follows);
    expect(first.market.n).toBeGreaterThan(TOKENS * 0.7);
    expect(first.market.n).toBeLessThan(TOKENS);
    expect(first.addresses.n).toBeGreaterThan(usersFor(TOKENS) * 0.8);
    expect(await currentDataset()).toEqual({ tokens: TOKENS, seed: "7", generator: generatorId(), finished: true });

    await expect(seedDatabase({ tokens: TOKENS, seed: "7" })).rejects.toThrow(/already holds/);
    expect(await seedIfEmpty()).toBeNull();

    await seedDatabase({ tokens: TOKENS, seed: "7", reset: true });
    expect(await digest()).toEqual(first);

    await seedDatabase({ tokens: TOKENS, seed: "8", reset: true });
    const other = await digest();
    expect(other.tokens.n).toBe(TOKENS);
    expect(other.tokens.d).not.toBe(first.tokens.d);
    expect(await currentDataset()).toMatchObject({ seed: "8", finished: true });

    // The id sequence continues after the seeded ids, so later inserts do not collide.
    const { rows } = await sql<{ id: number }>`
      INSERT INTO tokens (deployed_at, contract_address, name, symbol, msg_sender, admin)
      VALUES (now(), ${`0x${"ab".repeat(20)}`}, 'x', 'X', ${`0x${"cd".repeat(20)}`}, ${`0x${"cd".repeat(20)}`}) RETURNING id`.execute(
      db(),
    );
    expect(rows[0].id).toBe(TOKENS + 1);
  });

  it("fills every token field with realistic values", async () => {
    await seedDatabase({ tokens: TOKENS, seed: "shapes", reset: true });
    const rows = await db().selectFrom("tokens").selectAll().orderBy("id").execute();
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: TOKENS }, (_, i) => i + 1));
    const share = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).length / rows.length;
    const published = z.fromJSONSchema(jsonSchema(tokenObject.shape.extensions, "output")); // closed objects
    for (const row of rows) {
      expect(row.contract_address).toMatch(/^0x[0-9a-f]{40}$/);
      expect(row.pool_address).toMatch(row.type === "clanker_v4" ? /^0x[0-9a-f]{64}$/ : /^0x[0-9a-f]{40}$/);
      expect(row.msg_sender).toMatch(/^0x[0-9a-f]{40}$/);
      expect(row.admin).toMatch(/^0x[0-9a-f]{40}$/);
      expect(row.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(row.name.length).toBeGreaterThan(0);
      expect(row.symbol).toMatch(/^[A-Z0-9]{1,8}$/);
      expect(row.social_context).toHaveProperty("interface");
      expect(row.metadata).toMatchObject({ socialMediaUrls: expect.any(Array), auditUrls: [] });
      expect(row.tags).toEqual({
        champagne: expect.any(Boolean),
        verified: expect.any(Boolean),
        knownInterfaceDeployer: expect.any(Boolean),
      });
      expect(row.supply).toMatch(/^\d+$/);
      expect(row.deployed_at.getTime()).toBeLessThanOrEqual(row.created_at.getTime());
      expect(() => toTokenObject(row)).not.toThrow();
      // A v4 token's pool names its hook, and its extensions (as the indexer writes them) carry that hook.
      const hook = (row.pool_config as { poolHook?: string } | null)?.poolHook;
      if (row.type === "clanker_v4" && row.pool_config) {
        expect(hook).toMatch(/^0x[0-9a-fA-F]{40}$/);
        expect(published.parse(row.extensions)).toMatchObject({ fees: { hook_address: hook } });
      } else expect(row.extensions).toBeNull();
      // A legacy token as the indexer writes it: Base, WETH, the computed 1% pool, its factory, locker and LP NFT.
      expect(TOKEN_GENERATIONS).toContain(row.type);
      if (row.type === "clanker_v4") expect(row.lp_nft_id).toBeNull();
      else {
        const legacy = PRODUCTION_LEGACY_FACTORIES[8453]!.find((f) => f.type === row.type)!;
        const weth = "0x4200000000000000000000000000000000000006";
        const pool = uniswapV3PoolAddress(UNISWAP_V3[8453]!, row.contract_address as `0x${string}`, weth, 10_000);
        expect(row).toMatchObject({ chain_id: 8453, pair: "WETH", pool_address: pool.toLowerCase() });
        expect(row.factory_address).toBe(legacy.factory.toLowerCase());
        if (legacy.locker) expect(row.locker_address).toBe(legacy.locker.toLowerCase());
        expect(row.lp_nft_id).toMatch(/^[1-9]\d*$/);
        if (row.type !== "clanker_v3_1") expect(row.pool_config).toBeNull();
      }
    }
    expect(
      share((r) => Boolean((r.extensions as { fees?: { recipients?: unknown } } | null)?.fees?.recipients)),
    ).toBeGreaterThan(0.1);
    expect(share((r) => r.chain_id === 8453)).toBeGreaterThan(0.8);
    expect(share((r) => r.pair === "WETH")).toBeGreaterThan(0.8);
    expect(share((r) => r.type === "clanker_v4")).toBeGreaterThan(0.2);
    expect(share((r) => r.type !== "clanker_v4")).toBeGreaterThan(0.2);
    expect(share((r) => r.requestor_fid !== null)).toBeGreaterThan(0.7);
    // Creators are skewed: the busiest one launched far more than the average.
    const perFid = new Map<number, number>();
    for (const r of rows)
      if (r.requestor_fid !== null) perFid.set(r.requestor_fid, (perFid.get(r.requestor_fid) ?? 0) + 1);
    expect(Math.max(...perFid.values())).toBeGreaterThan((3 * TOKENS) / perFid.size);
    // Deployments spread over about two years.
    const times = rows.map((r) => r.deployed_at.getTime());
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(365 * 86_400_000);
    // Users' verified addresses match user_addresses, and follow counts match follows.
    const { rows: mismatched } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM users u
      WHERE u.follower_count <> (SELECT count(*) FROM follows f WHERE f.followed_fid = u.fid)
         OR cardinality(u.verified_addresses) <> (SELECT count(*) FROM user_addresses a WHERE a.fid = u.fid)`.execute(
      db(),
    );
    expect(mismatched[0].n).toBe(0);
  });

  it("seedIfEmpty seeds a fresh database once", async () => {
    await resetSeededData();
    const summary = await seedIfEmpty(50);
    expect(summary?.tokens).toBe(50);
    expect(await seedIfEmpty(50)).toBeNull();
  });
});

describe("Prng", () => {
  it("repeats per label and differs across labels", () => {
    const take = (p: Prng) => Array.from({ length: 5 }, () => p.next());
    expect(take(new Prng("a"))).toEqual(take(new Prng("a")));
    expect(take(new Prng("a"))).not.toEqual(take(new Prng("b")));
    expect(take(new Prng("a").fork("x"))).toEqual(take(new Prng("a").fork("x")));
  });

  it("draws Zipf ranks in range with rank 0 the most frequent", () => {
    const rng = new Prng("zipf");
    const zipf = new Zipf(100, 1);
    const counts = new Array(100).fill(0);
    for (let i = 0; i < 20_000; i++) counts[zipf.sample(rng)]++;
    expect(counts[0]).toBe(Math.max(...counts));
    expect(counts[0]).toBeGreaterThan(counts[50] * 10);
  });
});
