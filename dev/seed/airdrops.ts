// Seeds airdrops: about one per 300 tokens, on v4-era tokens (the newer half of the ids), each a published
// tree of a few dozen to a few thousand leaves, so claims, proofs and allocation pages answer from the start.
import { sql } from "kysely";
import type { DomainSeeder, SeedContext } from "./types";
import { leafAccounts, seedTrees, spreadTokenIds, TREE_TABLES, type SeedTree } from "./trees";
import { airdropOwner } from "@/lib/domains/airdrops/service";

/** About one airdrop per 300 tokens, at least 3 (none without tokens). */
export const airdropsFor = (tokens: number) => (tokens ? Math.max(3, Math.round(tokens / 300)) : 0);

const WEI = 10n ** 18n;

async function run(ctx: SeedContext) {
  const ids = spreadTokenIds(ctx, airdropsFor(ctx.tokens.count), 0.5);
  if (!ids.length) return;
  const { rows } = await sql<{ id: number; contract_address: string }>`
    SELECT id, contract_address FROM tokens WHERE id = ANY(${ids}::int8[]) ORDER BY id`.execute(ctx.db);
  const account = await leafAccounts(ctx);
  const trees: SeedTree[] = rows.map((token) => {
    const r = ctx.rng.fork(`airdrop/${token.id}`);
    const leaves = Math.max(2, Math.min(5000, Math.round(r.logNormal(60, 1))));
    const values: (readonly [string, bigint])[] = [];
    for (let i = 0; i < leaves; i++) {
      // A few claimers are listed twice (a dump may hold several leaves of one account).
      const claimer = i > 0 && r.chance(0.02) ? values[r.int(i)][0] : account(r);
      values.push([claimer, BigInt(Math.ceil(r.logNormal(20_000, 1.5))) * WEI + BigInt(r.int(1000)) * 10n ** 15n]);
    }
    return { owner: airdropOwner(token.contract_address), values };
  });
  await seedTrees(ctx, "airdrop", trees);
}

export const airdropsSeeder: DomainSeeder = {
  name: "airdrops",
  version: 1,
  tables: TREE_TABLES,
  run,
};
