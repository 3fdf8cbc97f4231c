// GET /creators/{address}/opengraph-image: the creator's share card (name, tokens launched, market cap), 1200×630.
import { usd } from "@/app/_components/api";
import { CARD_SIZE, shareCard } from "@/app/_server/share-card";
import { isEvmAddress } from "@/lib/core/evm";
import { creatorProfile } from "@/lib/domains/creators/profile";

export const alt = "The creator's name and launched tokens";
export const size = CARD_SIZE;
export const contentType = "image/png";

export default async function CreatorCard({ params }: { params: Promise<{ address: string }> }) {
  const { address } = await params;
  if (!isEvmAddress(address))
    return shareCard({ seed: address, badge: "?", title: "No such creator", subtitle: "", figures: [] });
  const profile = await creatorProfile(address.toLowerCase());
  const wallet = profile.address ?? address;
  const user = profile.user as { username?: string | null; display_name?: string | null; fid: number } | null;
  const handle = user ? `@${user.username ?? user.fid}` : `${wallet.slice(0, 6)}…${wallet.slice(-4)}`;
  return shareCard({
    seed: wallet.toLowerCase(),
    badge: user?.username ?? wallet.slice(2),
    title: user?.display_name || handle,
    subtitle: user?.display_name ? handle : "Creator",
    figures: [
      { label: "Tokens launched", value: profile.stats.tokensLaunched.toLocaleString("en-US") },
      { label: "Market cap (sum)", value: usd(profile.stats.totalMarketCapUsd) },
    ],
  });
}
