"use client";
// A token's picture: its img_url through the service's picture proxy, or (none, or one that fails to load) the
// app's generated placeholder. The page never loads img_url itself: its host would learn every viewer's address.
import { useState } from "react";

export const placeholderOf = (address: string, symbol: string) =>
  `/placeholders/${address.toLowerCase()}.svg?label=${encodeURIComponent(symbol.replace(/[^\p{L}\p{N}]/gu, "").slice(0, 2))}`;

/** The app's own generated pictures, as the demo data stores them (one path segment, no way out of the folder). */
const OWN_PLACEHOLDER = /^\/placeholders\/[A-Za-z0-9_-]+\.svg(\?[A-Za-z0-9=%&_.-]*)?$/;

/**
 * Where the page loads a token's picture from: a stored placeholder path as it is, a web URL through the proxy
 * (which refuses internal addresses), anything else (javascript:, data:, ipfs:) not at all.
 */
export function pictureSource(imgUrl: string | null, chainId: number, address: string): string | null {
  if (!imgUrl) return null;
  if (OWN_PLACEHOLDER.test(imgUrl)) return imgUrl;
  if (/^https?:\/\//i.test(imgUrl)) return `/images/tokens/${chainId}/${encodeURIComponent(address)}`;
  return null;
}

export function TokenImage({
  src,
  chainId,
  address,
  symbol,
  size = "thumb",
}: {
  src: string | null;
  chainId: number;
  address: string;
  symbol: string;
  size?: "thumb" | "large";
}) {
  const fallback = placeholderOf(address, symbol);
  const [failed, setFailed] = useState(false);
  const source = pictureSource(src, chainId, address);
  return (
    // biome-ignore lint/performance/noImgElement: pictures come from the service (its placeholders and picture proxy); next/image would add its own optimizer on top
    <img
      className={size}
      src={!source || failed ? fallback : source}
      alt=""
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      data-testid="token-image"
    />
  );
}
