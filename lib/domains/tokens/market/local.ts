// The market refresh on the local market (the embedded default's provider, no network): one run writes the due
// tokens' rows at this moment and the history points they miss, so a demo started days after it was seeded, or
// left stopped for a while, has current figures and a whole chart after its first run. Tokens that really exist on
// a served chain (the local chain's, deployed there and indexed) take their figures from their pool instead.
import { parseAbi, zeroAddress, type Address, type Hex } from "viem";
import { db } from "@/db";
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import {
  chainSettings,
  configuredChainIds,
  getLatestBlockNumber,
  getPublicClient,
  readInBatches,
} from "@/lib/platform/chain";
import {
  appendChainSnapshots,
  appendLocalSnapshots,
  findDueLocalMarketTokens,
  findLocalChainCandidates,
  upsertChainMarketRows,
  upsertLocalMarketRows,
  type ChainMarketFigures,
  type LocalChainCandidate,
} from "@/lib/domains/tokens/queries/local-market";
import { furthestCheckpoint } from "@/lib/platform/checkpoints";
import { getMarketCap } from "./marketcap";
import type { RefreshReport } from "./refresh";

/** Tokens one run writes at most: the whole demo dataset, in a few statements. */
export const LOCAL_REFRESH_MAX = 2_000;
/** Tokens on chain one run reads at most (the rest wait for the next run, their rows kept). */
export const LOCAL_CHAIN_READS_MAX = 100;

/** The local factory's record of where the V3-style pool of a v4 pool id lives (dev/chain/contracts/Factory.sol). */
const poolOfAbi = parseAbi(["function poolOf(bytes32 poolId) view returns (address)"]);

type ChainReading = { priced: ChainMarketFigures[]; held: Set<number>; calls: number };

/** The pool contract of each v4 token (its pool id through the factory's poolOf): null when the read failed. */
async function poolContracts(chainId: number, tokens: LocalChainCandidate[]): Promise<(Address | null)[]> {
  const client = getPublicClient(chainId);
  const v4 = tokens.filter((t) => t.pool_address.length === 66);
  const byId = new Map<number, Address | null>();
  if (v4.length) {
    const address = chainSettings(chainId).contracts.factory;
    const results = address
      ? await client.multicall({
          allowFailure: true,
          contracts: v4.map((t) => ({
            address,
            abi: poolOfAbi,
            functionName: "poolOf" as const,
            args: [t.pool_address as Hex] as const,
          })),
        })
      : [];
    v4.forEach((t, i) => {
      const r = results[i];
      byId.set(t.id, r?.status === "success" ? r.result : null);
    });
  }
  return tokens.map((t) => (t.pool_address.length === 66 ? byId.get(t.id)! : (t.pool_address as Address)));
}

/**
 * The figures of the due tokens that are on a served chain: their block at or below its head (the chain's, or the
 * indexer's when the chain does not answer), and a pool there. A pool id the factory does not know is the seed's:
 * such a token stays on the local market. A failed read keeps the token's row as it is (`held`).
 */
async function readChainFigures(ids: readonly number[]): Promise<ChainReading> {
  const reading: ChainReading = { priced: [], held: new Set(), calls: 0 };
  const candidates = await findLocalChainCandidates(db(), ids, configuredChainIds());
  const byChain = new Map<number, LocalChainCandidate[]>();
  for (const c of candidates) byChain.set(c.chain_id, [...(byChain.get(c.chain_id) ?? []), c]);
  let budget = LOCAL_CHAIN_READS_MAX;
  for (const [chainId, list] of byChain) {
    let head: number | null;
    try {
      reading.calls++;
      head = Number(await getLatestBlockNumber(chainId));
    } catch (error) {
      log.warn("local market: chain head unreadable", { chainId, error: (error as Error).message });
      head = null;
    }
    const onChain = list.filter((t) => t.block_number <= (head ?? -1));
    if (head === null) {
      // The highest block the token indexer has covered (any factory).
      const indexed = (await furthestCheckpoint("token-created", chainId)) ?? -1;
      for (const t of list) if (t.block_number <= indexed) reading.held.add(t.id);
      continue;
    }
    const now = onChain.slice(0, budget);
    for (const t of onChain.slice(budget)) reading.held.add(t.id);
    budget -= now.length;
    if (now.length === 0) continue;
    await readPools(chainId, now, reading);
  }
  return reading;
}

/** Each token's market cap as GET /api/marketcap computes it, its reads batched; a failure holds the token. */
async function readPools(chainId: number, tokens: LocalChainCandidate[], reading: ChainReading): Promise<void> {
  let pools: (Address | null)[];
  try {
    reading.calls++;
    pools = await poolContracts(chainId, tokens);
  } catch (error) {
    log.warn("local market: pool ids unreadable", { chainId, error: (error as Error).message });
    for (const t of tokens) reading.held.add(t.id);
    return;
  }
  const unread = tokens.filter((_, i) => pools[i] === null);
  if (unread.length) log.warn("local market: pool ids unreadable", { chainId, tokens: unread.length });
  for (const t of unread) reading.held.add(t.id);
  const reads = tokens.flatMap((t, i) => {
    const pool = pools[i];
    if (pool === null) return [];
    if (pool === zeroAddress) return []; // not deployed here: the local market's figures
    return [
      async () => {
        try {
          reading.calls++;
          const { marketCap } = await getMarketCap({
            chainId,
            poolAddress: pool.toLowerCase() as Address,
            tokenAddress: t.contract_address.toLowerCase() as Address,
          });
          const wholeTokens = Number(BigInt(t.supply)) / 1e18;
          reading.priced.push({ token_id: t.id, market_cap_usd: marketCap, price_usd: marketCap / wholeTokens });
        } catch (error) {
          log.warn("local market: pool unreadable", { chainId, pool, error: (error as Error).message });
          reading.held.add(t.id);
        }
      },
    ];
  });
  await readInBatches(reads);
}

/** Refreshes the tokens due at `at` (rows older than half a refresh period, or none), or the due among `tokenIds`. */
export async function refreshLocalMarket(
  maxTokens = LOCAL_REFRESH_MAX,
  tokenIds?: number[],
  at = new Date(),
): Promise<RefreshReport> {
  // Half a period: a run that starts a little early (a late previous run) still finds the rows due.
  const staleSeconds = config().MARKET_REFRESH_INTERVAL_SECONDS / 2;
  const ids = await findDueLocalMarketTokens(db(), at, staleSeconds, maxTokens, tokenIds);
  const chain = await readChainFigures(ids);
  const onChain = new Set([...chain.held, ...chain.priced.map((r) => r.token_id)]);
  const local = ids.filter((id) => !onChain.has(id));
  const updated =
    (await upsertLocalMarketRows(db(), local, at)) + (await upsertChainMarketRows(db(), chain.priced, at));
  await appendLocalSnapshots(db(), local, at, true);
  await appendChainSnapshots(db(), chain.priced, at);
  return { pools: ids.length, updated, unchanged: ids.length - updated, calls: chain.calls };
}
