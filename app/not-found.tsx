// The 404 page of every page path (an unknown page, token or creator): the site's header, a way back, a search.
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Not found", robots: { index: false } };

export default function NotFound() {
  return (
    <section className="card not-found" data-testid="not-found">
      <h1>Not found</h1>
      <p>Nothing is at this address: no page, or no token or creator indexed under it.</p>
      <search>
        <form action="/" method="get">
          <label htmlFor="not-found-q" className="visually-hidden">
            Search tokens
          </label>
          <input
            id="not-found-q"
            name="q"
            type="search"
            placeholder="name, symbol or address"
            maxLength={100}
            enterKeyHint="search"
          />
          <button type="submit">Search</button>
        </form>
      </search>
      <p>
        <a href="/">All tokens</a> · <a href="/live">Live launches</a> · <a href="/docs">API reference</a>
      </p>
    </section>
  );
}
