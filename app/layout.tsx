// Root layout of the pages (explorer, token and creator pages, API reference): plain CSS, no external assets.
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./site.css";

export const metadata = {
  title: "Token launch explorer",
  description: "Launched tokens, creators and the API reference",
};
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
