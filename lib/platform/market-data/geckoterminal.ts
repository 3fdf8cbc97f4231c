// GeckoTerminal's public API v2 (https://api.geckoterminal.com/api/v2; the same paths serve CoinGecko's
// on-chain Pro API): trending pools of a network, and up to 30 pools by address in one call. Every call
// has a timeout; 429 and 5xx carry their Retry-After; answers are validated with zod.
import { z } from "zod";
import { config } from "@/lib/core/config";
import { ProviderUnavailableError } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { retryAfterMs } from "@/lib/platform/neynar/client";
import { ADDRESS_TEXT, BYTES32_TEXT, SOLANA_ADDRESS_TEXT } from "@/lib/core/evm";
import { traceProviderCall } from "@/lib/core/telemetry";
import { marketDataProvider } from "./local";

/** Documented maximum of addresses per /pools/multi call on the public API. */
export const MULTI_POOLS_MAX = 30;
/** The trending list has at most 10 pages. */
export const TRENDING_PAGES = 10;
export const TRENDING_DURATIONS = ["5m", "1h", "6h", "24h"] as const;
export type TrendingDuration = (typeof TRENDING_DURATIONS)[number];

/** GeckoTerminal network ids of the chains the service knows. */
export const NETWORKS: Readonly<Record<number, string>> = {
  1: "eth",
  10: "optimism",
  56: "bsc",
  130: "unichain",
  137: "polygon_pos",
  8453: "base",
  42161: "arbitrum",
  43114: "avax",
};

/** The aggregator could not answer: timeout, network, non-2xx, or a body of the wrong shape. */
export class MarketProviderError extends ProviderUnavailableError {
  override name = "MarketProviderError";
  constructor(
    message: string,
    retryAfterSeconds = 5,
    readonly status?: number,
  ) {
    super("geckoterminal", message, { retryAfterSeconds });
  }
}

/** Whether the aggregator is the market-data provider (lib/platform/market-data/local.ts: the others). */
export function marketProviderEnabled(): boolean {
  return marketDataProvider() === "geckoterminal";
}

const decimal = z
  .union([z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/), z.number().finite().transform(String)])
  .nullish()
  .transform((v) => v ?? null);
const windows = <T extends z.ZodType>(value: T) =>
  z
    .object({ m5: value.optional(), h1: value.optional(), h6: value.optional(), h24: value.optional() })
    .nullish()
    .transform((v) => v ?? {});
const trades = z.object({ buys: z.number().int().nonnegative(), sells: z.number().int().nonnegative() }).nullish();
const related = z.object({ data: z.object({ id: z.string() }).nullish() }).nullish();

export const poolSchema = z.object({
  id: z.string(),
  attributes: z.object({
    address: z.string().regex(new RegExp(`^(${ADDRESS_TEXT}|${BYTES32_TEXT}|${SOLANA_ADDRESS_TEXT})$`)),
    name: z.string().nullish(),
    pool_created_at: z.string().nullish(),
    base_token_price_usd: decimal,
    quote_token_price_usd: decimal,
    fdv_usd: decimal,
    market_cap_usd: decimal,
    reserve_in_usd: decimal,
    price_change_percentage: windows(decimal),
    transactions: windows(trades),
    volume_usd: windows(decimal),
  }),
  relationships: z.object({ base_token: related, quote_token: related }).nullish(),
});
export type GeckoPool = z.infer<typeof poolSchema>;

const poolsResponse = z.object({ data: z.array(poolSchema) });

async function getJson(path: string, params: Record<string, string>): Promise<unknown> {
  const c = config();
  const url = new URL(`${c.GECKOTERMINAL_BASE_URL.replace(/\/+$/, "")}${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  let response: Response;
  try {
    // The operation is the path with its pool addresses named, not listed.
    const operation = path.replace(/\/pools\/multi\/.*/, "/pools/multi/{addresses}");
    response = await traceProviderCall("geckoterminal", operation, () =>
      fetch(url, {
        headers: {
          accept: "application/json",
          ...(c.GECKOTERMINAL_API_KEY ? { "x-cg-pro-api-key": c.GECKOTERMINAL_API_KEY } : {}),
        },
        signal: AbortSignal.timeout(c.PROVIDER_TIMEOUT_MS),
      }),
    );
  } catch (error) {
    const name = (error as Error)?.name;
    throw new MarketProviderError(
      name === "TimeoutError" || name === "AbortError"
        ? "the market-data aggregator timed out"
        : "the market-data aggregator is unreachable",
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    const wait = retryAfterMs(response.headers.get("retry-after"));
    log.warn("geckoterminal call failed", { path, status: response.status });
    throw new MarketProviderError(
      `the market-data aggregator answered ${response.status}`,
      wait === null ? 5 : Math.max(1, Math.ceil(wait / 1000)),
      response.status,
    );
  }
  try {
    return JSON.parse(await response.text());
  } catch {
    throw new MarketProviderError("the market-data aggregator sent a body that is not JSON");
  }
}

async function getPools(path: string, params: Record<string, string>): Promise<GeckoPool[]> {
  const parsed = poolsResponse.safeParse(await getJson(path, params));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MarketProviderError(
      `the market-data aggregator sent an unexpected answer (${issue?.path.join(".") || "body"}: ${issue?.message})`,
    );
  }
  return parsed.data.data;
}

/** GET /networks/{network}/trending_pools: one page (1..10) of the network's trending pools. */
export function trendingPools(network: string, page: number, duration: TrendingDuration): Promise<GeckoPool[]> {
  return getPools(`/networks/${encodeURIComponent(network)}/trending_pools`, { page: String(page), duration });
}

/** GET /networks/{network}/pools/multi/{addresses}: pools the aggregator knows, of at most 30 asked. */
export function poolsByAddress(network: string, addresses: string[]): Promise<GeckoPool[]> {
  if (addresses.length === 0) return Promise.resolve([]);
  if (addresses.length > MULTI_POOLS_MAX) throw new Error(`at most ${MULTI_POOLS_MAX} pools per call`);
  return getPools(
    `/networks/${encodeURIComponent(network)}/pools/multi/${addresses.map(encodeURIComponent).join(",")}`,
    {},
  );
}

/**
 * The token address of a relationship id such as `base_0xabc…` or `polygon_pos_0xabc…`: network ids may
 * hold underscores, addresses (hex or base58) never do.
 */
export function relationshipAddress(id: string | undefined | null): string | null {
  const at = id ? id.lastIndexOf("_") : -1;
  return at < 0 ? null : id!.slice(at + 1);
}
