// The site's absolute origin, for the share cards' image URLs: PUBLIC_BASE_URL when set, else the request's host.
import { headers } from "next/headers";
import { config } from "@/lib/core/config";

export async function siteOrigin(): Promise<URL> {
  const configured = config().PUBLIC_BASE_URL;
  if (configured) return new URL(configured);
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto") ?? (/^(localhost|127\.|\[::1\])/.test(host) ? "http" : "https");
  return new URL(`${proto.split(",")[0]}://${host.split(",")[0]}`);
}

/** Text from a chain or a profile in a title or a card: isolated (U+2068 … U+2069), as user-text.ts explains. */
export const isolate = (text: string): string => `\u2068${text}\u2069`;

/** At most `max` characters, cut at a word where one is near. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
