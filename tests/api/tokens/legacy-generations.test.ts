// Tokens of every earlier generation (v0 to v3.1), deployed on the local chain at the platform's legacy factory
// addresses with the platform SDK's ABIs, are indexed by the token follower and found by every lookup a client uses,
// with the members the platform gives a token of that generation.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import type { Address } from "viem";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { enqueue } from "@/lib/platform/jobs/define";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { jobs } from "@/lib/domains/jobs";
import { followTokenCreatedJob } from "@/lib/domains/launch/indexer/jobs";
import { GET as tokenByAddress } from "@/app/api/get-token-by-address/route";
import { GET as tokensList } from "@/app/api/tokens/route";
import { GET as search } from "@/app/api/tokens/search/route";
import { GET as byAdmin } from "@/app/api/tokens/fetch-by-admin/route";
import { GET as deployedByAddress } from "@/app/api/tokens/fetch-deployed-by-address/route";
import { GET as deployedByFid } from "@/app/api/tokens/fetch-deployed-by-fid/route";
import { GET as tokensByFid } from "@/app/api/get-tokens-by-fid/route";
import { GET as byPool } from "@/app/api/tokens/fetch-by-pool-address/route";
import { LOCAL_LEGACY_FACTORIES } from "@/dev/chain/local";
import { useTestChain } from "@/tests/helpers/chain";
import {
  BASE_USDC_ADDRESS,
  LEGACY_GENERATIONS,
  deployLegacyToken,
  platformPoolAddress,
  type LegacyDeployment,
  type LegacyGeneration,
} from "@/tests/helpers/legacy-chain";
import { partnerKey, startIssuer, type Issuer } from "@/tests/helpers/auth";
import { call } from "@/tests/helpers/http";

const chain = useTestChain();
let issuer: Issuer;
let key: string;
const partner = () => ({ "x-api-key": key });

beforeAll(async () => {
  issuer = await startIssuer();
  key = await partnerKey("legacy-generations");
});
afterAll(() => issuer.close());
beforeEach(async () => {
  // The chain is reverted after each test: the follower's checkpoints go with the tokens (in whichever table this
  // schema keeps them).
  for (const table of ["tokens", "jobs", "chain_checkpoints", "token_index_checkpoints", "quarantined_events"]) {
    const { rows } = await sql<{ t: string | null }>`SELECT to_regclass(${table})::text AS t`.execute(db());
    if (rows[0]?.t) await sql`DELETE FROM ${sql.table(table)}`.execute(db());
  }
  process.env.LEGACY_FACTORIES_8453 = LOCAL_LEGACY_FACTORIES;
  resetConfig();
});
afterEach(() => {
  delete process.env.LEGACY_FACTORIES_8453;
  resetConfig();
});

const FID = 4242n;
/** The generations whose TokenCreated carries the requester's fid and cast. */
const WITH_FID: readonly LegacyGeneration[] = ["clanker", "clanker_v2", "clanker_v3"];
const castOf = (g: LegacyGeneration) => `0xca57${g.length.toString(16).padStart(36, "0")}`;
const nameOf = (g: LegacyGeneration) => `Heirloom ${g.replaceAll("_", " ")}`;

async function runIndexer() {
  await enqueue(followTokenCreatedJob, { chainId: 8453 });
  const outcomes = await runDueJobs(jobs);
  expect(outcomes.map((o) => [o.status, o.error ?? null])).toEqual([["done", null]]);
}

const lower = (a: string | null) => a?.toLowerCase();
const addressesOf = (rows: { contract_address: string }[]) => rows.map((r) => lower(r.contract_address)).sort();

describe("tokens of the earlier generations", () => {
  it("are indexed from their factories and found by address, search, creator, admin, fid and pool", async () => {
    const c = chain();
    const deployer = c.accounts[2]!;
    const deployed = new Map<LegacyGeneration, LegacyDeployment>();
    for (const g of LEGACY_GENERATIONS) {
      const withFid = WITH_FID.includes(g);
      deployed.set(
        g,
        await deployLegacyToken(c, g, {
          name: nameOf(g),
          symbol: `H${g.length}`,
          deployer,
          fid: withFid ? FID : undefined,
          castHash: withFid ? castOf(g) : undefined,
          image: g === "proxy" ? undefined : `https://img.example/${g}.png`,
          metadata: g === "clanker_v3_1" ? JSON.stringify({ description: "an heirloom" }) : undefined,
        }),
      );
    }
    await runIndexer();

    for (const [g, d] of deployed) {
      const res = await call(tokenByAddress, `/api/get-token-by-address?address=${d.address}`, { headers: partner() });
      expect(res.status, `${g}: ${res.text}`).toBe(200);
      const t = res.body.data;
      expect(lower(t.contract_address), g).toBe(lower(d.address));
      expect(t, g).toMatchObject({
        type: g,
        name: nameOf(g),
        symbol: `H${g.length}`,
        tx_hash: d.txHash,
        chain_id: 8453,
        requestor_fid: WITH_FID.includes(g) ? Number(FID) : null,
        cast_hash: WITH_FID.includes(g) ? castOf(g) : null,
      });
      // The pool its factory created (the local Uniswap V3 stand-in deploys pools elsewhere than Base's CREATE2).
      expect(lower(t.pool_address), `${g} pool`).toBe(lower(d.pool));
      expect(t.pair, `${g} pair`).toBe("WETH");
      expect(lower(t.locker_address), `${g} locker`).toBe(lower(d.locker));
      expect(lower(t.factory_address), `${g} factory`).toBe(lower(d.factory));
      expect(lower(t.admin), `${g} admin`).toBe(lower(deployer));
      expect(lower(t.msg_sender), `${g} msg_sender`).toBe(lower(g === "clanker_v3_1" ? d.sender : deployer));

      const pool = await call(byPool, `/api/tokens/fetch-by-pool-address?poolAddress=${d.pool}`);
      expect(pool.status, pool.text).toBe(200);
      expect(lower(pool.body.data!.contract_address), `${g} by pool`).toBe(lower(d.address));

      const q = encodeURIComponent(nameOf(g));
      const listed = await call(tokensList, `/api/tokens?q=${q}`);
      expect(listed.status, listed.text).toBe(200);
      expect(addressesOf(listed.body.data), `${g} in /api/tokens?q=`).toContain(lower(d.address));
      const found = await call(search, `/api/tokens/search?q=${q}`);
      expect(found.status, found.text).toBe(200);
      expect(addressesOf(found.body.data), `${g} in search`).toContain(lower(d.address));
    }

    const all = [...deployed.values()].map((d) => lower(d.address)).sort();
    const byCreator = await call(deployedByAddress, `/api/tokens/fetch-deployed-by-address?address=${deployer}`);
    expect(byCreator.status, byCreator.text).toBe(200);
    expect(addressesOf(byCreator.body.data)).toEqual(all);
    const admin = await call(byAdmin, `/api/tokens/fetch-by-admin?admin=${deployer}`, { headers: partner() });
    expect(admin.status, admin.text).toBe(200);
    expect(addressesOf(admin.body.data)).toEqual(all);

    const withFid = WITH_FID.map((g) => lower(deployed.get(g)!.address)).sort();
    const fidDeployed = await call(deployedByFid, `/api/tokens/fetch-deployed-by-fid?fid=${FID}`);
    expect(fidDeployed.status, fidDeployed.text).toBe(200);
    expect(addressesOf(fidDeployed.body.data)).toEqual(withFid);
    const fidTokens = await call(tokensByFid, `/api/get-tokens-by-fid?fid=${FID}`, { headers: partner() });
    expect(fidTokens.status, fidTokens.text).toBe(200);
    expect(addressesOf(fidTokens.body.data)).toEqual(withFid);

    const types = await call(tokensList, "/api/tokens?limit=20");
    expect(types.status, types.text).toBe(200);
    expect(new Set(types.body.data.map((t: { type: string }) => t.type))).toEqual(new Set(LEGACY_GENERATIONS));
  });

  it("pair with the token and fee tier their pool was created with, not only WETH at 1%", async () => {
    process.env.DEPLOY_QUOTE_TOKENS = `8453:USDC:${BASE_USDC_ADDRESS}:6:10000`;
    resetConfig();
    const c = chain();
    const usdc = { pairedToken: BASE_USDC_ADDRESS };
    const deployed = [
      await deployLegacyToken(c, "clanker_v2", { name: "Paired v2", ...usdc, fee: 3_000 }),
      await deployLegacyToken(c, "clanker_v3", { name: "Paired v3", ...usdc }),
      await deployLegacyToken(c, "clanker_v3_1", { name: "Paired v3.1", ...usdc }),
      await deployLegacyToken(c, "clanker", { name: "Cheap v1", fee: 500 }),
    ];
    await runIndexer();
    delete process.env.DEPLOY_QUOTE_TOKENS;
    resetConfig();
    for (const d of deployed) {
      const res = await call(tokenByAddress, `/api/get-token-by-address?address=${d.address}`, { headers: partner() });
      expect(res.status, res.text).toBe(200);
      const t = res.body.data;
      expect([t.name, lower(t.pool_address), t.pair]).toEqual([
        t.name,
        lower(d.pool),
        lower(d.pairedToken) === lower(BASE_USDC_ADDRESS) ? "USDC" : "WETH",
      ]);
      expect(d.pool).not.toBe(platformPoolAddress(d.address));
    }
  });

  it("index a second run without duplicates, and a later legacy token from the checkpoint on", async () => {
    const c = chain();
    const first = await deployLegacyToken(c, "clanker_v2", { name: "First heirloom", fid: FID });
    await runIndexer();
    await runIndexer();
    const later: Address = (await deployLegacyToken(c, "clanker_v3_1", { name: "Later heirloom" })).address;
    await runIndexer();
    const rows = await db().selectFrom("tokens").select(["contract_address", "type"]).orderBy("id").execute();
    expect(rows.map((r) => [lower(r.contract_address), r.type])).toEqual([
      [lower(first.address), "clanker_v2"],
      [lower(later), "clanker_v3_1"],
    ]);
  });
});
