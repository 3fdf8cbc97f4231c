// GET /creators/{address}?page=: a creator wallet's page: its profile and statistics, and every token it launched
// (deployed from its wallets or requested by its profile), 20 a page. Read on the server: 404 for an address with
// neither a profile nor a token.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { usd } from "@/app/_components/api";
import { CreatorView } from "@/app/_components/creator-view";
import { clip, isolate } from "@/app/_server/site";
import { CREATOR_PAGE_SIZE, creatorTokenPage, MAX_CREATOR_PAGE } from "@/app/_server/tokens";
import { isEvmAddress } from "@/lib/core/evm";
import { creatorProfile } from "@/lib/domains/creators/profile";

type Props = { params: Promise<{ address: string }>; searchParams: Promise<{ page?: string | string[] }> };

/** The profile and statistics, read once per request (metadata and page). */
const profileOf = cache(async (address: string) => {
  if (!isEvmAddress(address)) return null;
  const profile = await creatorProfile(address.toLowerCase());
  if (!profile.user && profile.stats.tokensLaunched === 0) return null;
  // Plain data for the client component (the user object is a stored provider document).
  return JSON.parse(JSON.stringify({ ...profile, address: profile.address ?? address })) as typeof profile & {
    address: string;
  };
});

const userOf = (user: unknown) =>
  (user ?? null) as {
    fid: number;
    username?: string | null;
    display_name?: string | null;
    pfp_url?: string | null;
    verified_addresses?: { eth_addresses?: string[] };
  } | null;

/** The name a creator goes by: the profile's display name and handle, else the wallet. */
function nameOf(profile: NonNullable<Awaited<ReturnType<typeof profileOf>>>): string {
  const user = userOf(profile.user);
  if (!user) return profile.address;
  const handle = `@${user.username ?? user.fid}`;
  return user.display_name ? `${isolate(user.display_name)} (${isolate(handle)})` : isolate(handle);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { address } = await params;
  const profile = await profileOf(address);
  if (!profile) return { title: "No such creator", robots: { index: false } };
  const title = `${nameOf(profile)}: launched tokens`;
  const { stats } = profile;
  const description = clip(
    `${stats.tokensLaunched} token${stats.tokensLaunched === 1 ? "" : "s"} launched${
      stats.latestLaunchAt ? `, the latest on ${stats.latestLaunchAt.slice(0, 10)}` : ""
    }; market cap ${usd(stats.totalMarketCapUsd)}${stats.complete ? "" : ` (newest ${stats.sampleSize})`}.`,
    200,
  );
  const url = `/creators/${profile.address}`;
  return {
    title,
    description,
    alternates: { canonical: url },
    openGraph: { title, description, url, type: "profile", siteName: "Launch explorer" },
    twitter: { card: "summary_large_image", title, description, images: [`${url}/opengraph-image`] },
  };
}

export default async function CreatorPage({ params, searchParams }: Props) {
  const { address } = await params;
  const profile = await profileOf(address);
  if (!profile) notFound();
  const asked = (await searchParams).page;
  const pages = Math.max(1, Math.min(MAX_CREATOR_PAGE, Math.ceil(profile.stats.tokensLaunched / CREATOR_PAGE_SIZE)));
  const page = typeof asked === "string" && /^\d{1,4}$/.test(asked) ? Math.min(Math.max(1, Number(asked)), pages) : 1;
  const user = userOf(profile.user);
  const tokens = await creatorTokenPage(
    {
      fids: user ? [user.fid] : [],
      addresses: [...new Set([address, ...(user?.verified_addresses?.eth_addresses ?? [])])],
    },
    page,
  );
  return <CreatorView profile={profile} tokens={JSON.parse(JSON.stringify(tokens))} page={page} pages={pages} />;
}
