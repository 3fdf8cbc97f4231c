// GET /api/tokens/market-history: the token's stored market snapshots (one per market refresh), for its chart.
import { db } from "@/db";
import { checksum } from "@/lib/core/evm";
import { notFound } from "@/lib/core/errors";
import { findMarketSnapshots } from "../queries/market";
import { findTokenOnChain } from "../queries/lookups";
import { MARKET_HISTORY_MAX_POINTS } from "../schemas";

export async function marketHistory(query: { address: string; chainId: number; days: number }) {
  const token = await findTokenOnChain(db(), "contract_address", query.address.toLowerCase(), query.chainId);
  if (!token) throw notFound(`no token ${query.address} on chain ${query.chainId}`);
  const since = new Date(Date.now() - query.days * 86_400_000);
  const rows = await findMarketSnapshots(db(), Number(token.id), since, MARKET_HISTORY_MAX_POINTS);
  return {
    address: checksum(token.contract_address)!,
    chainId: token.chain_id,
    points: rows.map((r) => ({
      at: r.taken_at.toISOString(),
      marketCap: r.market_cap_usd,
      priceUsd: r.price_usd,
      volume24h: r.volume_24h_usd,
    })),
  };
}
