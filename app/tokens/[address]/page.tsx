// GET /tokens/{address}?chainId=: one token's page. The server answers 404 for an address no chain holds, and names
// the chains that hold it when the link's chainId is another; the token itself is read by the client component.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { percent, usd } from "@/app/_components/api";
import { TokenView } from "@/app/_components/token-view";
import { blockExplorerOf, chainNameOf } from "@/app/_server/chains";
import { clip, isolate } from "@/app/_server/site";
import { pick, type TokenSummary, tokensAt } from "@/app/_server/tokens";

type Props = {
  params: Promise<{ address: string }>;
  searchParams: Promise<{ chainId?: string | string[] }>;
};

async function read({ params, searchParams }: Props) {
  const { address } = await params;
  const chainId = (await searchParams).chainId;
  const chain = typeof chainId === "string" && /^\d{1,10}$/.test(chainId) ? Number(chainId) : undefined;
  const found = await tokensAt(address);
  return { address, chain, found, token: pick(found, chain) };
}

/** The sentence a shared link shows under the title: the figures known, then the token's own description. */
function describe(t: TokenSummary): string {
  const m = t.market;
  const figures = [
    m?.marketCap != null && `market cap ${usd(m.marketCap)}`,
    m?.priceUsd != null && `price ${usd(m.priceUsd)}`,
    m?.priceChangePercent24h != null && `24 h ${percent(m.priceChangePercent24h)}`,
  ].filter(Boolean);
  const about = t.description ? clip(t.description, 160) : `A token launched on ${chainNameOf(t.chainId)}.`;
  if (!figures.length) return about;
  const line = figures.join(" · ");
  return `${line[0].toUpperCase()}${line.slice(1)}. ${about}`;
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { found, token } = await read(props);
  if (!found.length) return { title: "No such token", robots: { index: false } };
  const t = token ?? found[0];
  const title = `${isolate(t.name)} (${isolate(t.symbol)}) on ${chainNameOf(t.chainId)}`;
  const description = describe(t);
  const url = `/tokens/${t.address}?chainId=${t.chainId}`;
  return {
    title,
    description,
    alternates: { canonical: url },
    ...(token ? {} : { robots: { index: false } }),
    openGraph: { title, description, url, type: "website", siteName: "Launch explorer" },
    twitter: { card: "summary_large_image", title, description, images: [`/tokens/${t.address}/opengraph-image`] },
  };
}

export default async function TokenPage(props: Props) {
  const { address, chain, found, token } = await read(props);
  if (!found.length) notFound();
  if (!token)
    return (
      <section className="card" data-testid="other-chain">
        <h1>Not on {chainNameOf(chain!)}</h1>
        <p>
          No token has this address on {chainNameOf(chain!)} (chain {chain}). Found on{" "}
          {found.map((t, i) => (
            <span key={t.chainId}>
              {i ? ", " : ""}
              <a href={`/tokens/${t.address}?chainId=${t.chainId}`}>
                {chainNameOf(t.chainId)}: <bdi>{t.name}</bdi>
              </a>
            </span>
          ))}
          .
        </p>
      </section>
    );
  return (
    <TokenView
      address={address}
      chainId={token.chainId}
      chainName={chainNameOf(token.chainId)}
      explorer={blockExplorerOf(token.chainId)}
    />
  );
}
