// Cache-Control policies, named after the interface's caching table (part 8).
export type CachePolicy = { cacheControl: string; vary?: string };

const edge = (seconds: number, swr = seconds): CachePolicy => ({
  cacheControl: `public, max-age=0, s-maxage=${seconds}, stale-while-revalidate=${swr}`,
});
/**
 * Partner answers depend on the API key, so no shared cache may keep them: the interface's durations
 * apply to the caller's own cache only (docs/compat.md "Deliberate differences").
 */
const privateFor = (seconds: number): CachePolicy => ({ cacheControl: `private, max-age=${seconds}` });

export const cachePolicy = {
  none: { cacheControl: "no-store" },
  // An event stream: never kept, and never compressed or rewritten on the way (a buffering proxy would hold events).
  eventStream: { cacheControl: "no-store, no-transform" },
  tokensList: edge(2),
  tokenByAddress: privateFor(120),
  lpInfo: privateFor(120),
  tokensByFid: privateFor(5),
  isBlocked: privateFor(60),
  trending: edge(300),
  creatorEarnings: edge(3600),
  creator: edge(30),
  userByFid: edge(300),
  userByAddress: edge(86_400),
  marketcap: edge(5),
  // Snapshots arrive once per market refresh (MARKET_REFRESH_INTERVAL_SECONDS): a minute at the edge.
  marketHistory: edge(60),
  // Static configuration: an hour at the edge.
  factories: edge(3600),
  leaderboardPublic: { cacheControl: "public, s-maxage=30, stale-while-revalidate=60", vary: "Cookie" },
  leaderboardAdmin: { cacheControl: "private, no-store", vary: "Cookie" },
  leaderboardRuns: edge(30),
} satisfies Record<string, CachePolicy>;
