// GET /tokens/{address}/opengraph-image: the token's share card (name, symbol, chain, market figures), 1200×630.
import { percent, usd } from "@/app/_components/api";
import { chainNameOf } from "@/app/_server/chains";
import { CARD_SIZE, shareCard } from "@/app/_server/share-card";
import { tokensAt } from "@/app/_server/tokens";

export const alt = "The token's name, chain and market figures";
export const size = CARD_SIZE;
export const contentType = "image/png";

export default async function TokenCard({ params }: { params: Promise<{ address: string }> }) {
  const { address } = await params;
  const t = (await tokensAt(address))[0];
  if (!t)
    return shareCard({
      seed: address,
      badge: "?",
      title: "No such token",
      subtitle: address.slice(0, 42),
      figures: [],
    });
  const m = t.market;
  return shareCard({
    seed: t.address.toLowerCase(),
    badge: t.symbol,
    title: t.name,
    subtitle: `$${t.symbol} on ${chainNameOf(t.chainId)}`,
    figures: [
      { label: "Market cap", value: usd(m?.marketCap) },
      { label: "Price", value: usd(m?.priceUsd) },
      { label: "24 h", value: percent(m?.priceChangePercent24h) },
    ],
  });
}
