// Root layout of the pages (explorer, token and creator pages, API reference): plain CSS, no external assets.
import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { siteOrigin } from "./_server/site";
import "./site.css";

export async function generateMetadata(): Promise<Metadata> {
  return {
    // The base of the share cards' absolute image URLs.
    metadataBase: await siteOrigin(),
    title: { default: "Token launch explorer", template: "%s · Launch explorer" },
    description: "Launched tokens, creators and the API reference",
    openGraph: { siteName: "Launch explorer", type: "website" },
  };
}
export const viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request, never prerendered: Next puts the request's CSP nonce (proxy.ts) on its scripts.
  await connection();
  return (
    <html lang="en">
      <body>
        <header className="top">
          <a href="/" className="brand">
            Launch explorer
          </a>
          <nav>
            <a href="/">Tokens</a>
            <a href="/live">Live</a>
            <a href="/leaderboard">Leaderboard</a>
            <a href="/docs">API reference</a>
          </nav>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
