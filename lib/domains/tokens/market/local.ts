// The market refresh on the local market (the embedded default's provider, no network): one run writes the due
// tokens' rows at this moment and the history points they miss, so a demo started days after it was seeded, or
// left stopped for a while, has current figures and a whole chart after its first run.
import { db } from "@/db";
import { config } from "@/lib/core/config";
import {
  appendLocalSnapshots,
  findDueLocalMarketTokens,
  upsertLocalMarketRows,
} from "@/lib/domains/tokens/queries/local-market";
import type { RefreshReport } from "./refresh";

/** Tokens one run writes at most: the whole demo dataset, in a few statements. */
export const LOCAL_REFRESH_MAX = 2_000;

/** Refreshes the tokens due at `at` (rows older than half a refresh period, or none), or the due among `tokenIds`. */
export async function refreshLocalMarket(
  maxTokens = LOCAL_REFRESH_MAX,
  tokenIds?: number[],
  at = new Date(),
): Promise<RefreshReport> {
  // Half a period: a run that starts a little early (a late previous run) still finds the rows due.
  const staleSeconds = config().MARKET_REFRESH_INTERVAL_SECONDS / 2;
  const ids = await findDueLocalMarketTokens(db(), at, staleSeconds, maxTokens, tokenIds);
  const updated = await upsertLocalMarketRows(db(), ids, at);
  await appendLocalSnapshots(db(), ids, at, true);
  return { pools: ids.length, updated, unchanged: ids.length - updated, calls: 0 };
}
