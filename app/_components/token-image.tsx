"use client";
// A token's picture: its img_url, or (none, or one that fails to load) the app's generated placeholder.
import { useState } from "react";

export const placeholderOf = (address: string, symbol: string) =>
  `/placeholders/${address.toLowerCase()}.svg?label=${encodeURIComponent(symbol.replace(/[^\p{L}\p{N}]/gu, "").slice(0, 2))}`;

export function TokenImage({
  src,
  address,
  symbol,
  size = "thumb",
}: {
  src: string | null;
  address: string;
  symbol: string;
  size?: "thumb" | "large";
}) {
  const fallback = placeholderOf(address, symbol);
  const [failed, setFailed] = useState(false);
  return (
    // biome-ignore lint/performance/noImgElement: pictures come from any host a token names (img_url); next/image would need each host allow-listed and would proxy them
    <img
      className={size}
      src={!src || failed ? fallback : src}
      alt=""
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      data-testid="token-image"
    />
  );
}
