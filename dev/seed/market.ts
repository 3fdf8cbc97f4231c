// Market history for the demo: the local market's points (lib/platform/market-data/local.ts), every 6 hours over
// the 30 days before the seed ran, for every token up to HISTORY_TOKENS (the whole demo dataset). Their market rows
// come from the market refresh, whose first run on a started server writes them at that moment from the same
// figures, so a card, a list row and the end of its chart agree. Bounded so a bench dataset of a million tokens
// stays small.
import { appendLocalSnapshots } from "@/lib/domains/tokens/queries/local-market";
import type { DomainSeeder, SeedContext } from "./types";

export const HISTORY_TOKENS = 2_000;
const BATCH = 500;

async function run(ctx: SeedContext) {
  const last = Math.min(ctx.tokens.lastId, ctx.tokens.firstId + HISTORY_TOKENS - 1);
  const at = new Date();
  for (let from = ctx.tokens.firstId; from <= last; from += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, last - from + 1) }, (_, i) => from + i);
    await appendLocalSnapshots(ctx.db, ids, at, false);
  }
}

export const marketSeeder: DomainSeeder = {
  name: "market",
  version: 2,
  tables: ["token_market_snapshots"],
  run,
};
