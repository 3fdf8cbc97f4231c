"use client";
// The token explorer: search and filters over GET /api/tokens, keyset cursor paging (a stack of cursors for "back").
import { useEffect, useState } from "react";
import { getJson, shortAddress, usd } from "./api";

type Token = {
  contract_address: string;
  name: string;
  symbol: string;
  img_url: string | null;
  chain_id: number;
  deployed_at: string;
  msg_sender: string | null;
  related?: { market?: { marketCap: string | null; priceChangePercent24h: string | null } | null };
};
type Page = { data: Token[]; total: number; cursor: string | null };
type Filters = { q: string; sortBy: string; chainId: string; sort: string };

const PAGE_SIZE = 20;

function listUrl(f: Filters, cursor: string | null): string {
  const p = new URLSearchParams({ limit: String(PAGE_SIZE), includeMarket: "true", sort: f.sort });
  if (f.q.trim()) p.set("q", f.q.trim());
  if (f.sortBy) p.set("sortBy", f.sortBy);
  if (f.chainId) p.set("chainId", f.chainId);
  if (cursor) p.set("cursor", cursor);
  return `/api/tokens?${p}`;
}

export function Explorer() {
  const [draft, setDraft] = useState<Filters>({ q: "", sortBy: "", chainId: "", sort: "desc" });
  const [filters, setFilters] = useState<Filters>(draft);
  const [cursors, setCursors] = useState<(string | null)[]>([null]); // cursors[i] opens page i
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    const ctrl = new AbortController();
    setLoading(true);
    getJson<Page>(listUrl(filters, cursor), ctrl.signal)
      .then((p) => {
        setPage(p);
        setError(null);
      })
      .catch((e: Error) => e.name !== "AbortError" && setError(e.message))
      .finally(() => setLoading(false));
    return () => ctrl.abort();
  }, [filters, cursor]);

  const apply = (e?: React.FormEvent) => {
    e?.preventDefault();
    setFilters(draft);
    setCursors([null]);
  };
  const set = (key: keyof Filters) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setDraft({ ...draft, [key]: e.target.value });

  return (
    <>
      <search>
        <form className="card filters" onSubmit={apply}>
          <label>
            Search
            <input name="q" value={draft.q} onChange={set("q")} placeholder="name, symbol or address" maxLength={100} />
          </label>
          <label>
            Sort by
            <select name="sortBy" value={draft.sortBy} onChange={set("sortBy")}>
              <option value="">Newest</option>
              <option value="market-cap">Market cap</option>
              <option value="tx-h24">Transactions 24 h</option>
              <option value="price-percent-h24">Price change 24 h</option>
              <option value="price-percent-h1">Price change 1 h</option>
            </select>
          </label>
          <label>
            Order
            <select name="sort" value={draft.sort} onChange={set("sort")}>
              <option value="desc">Descending</option>
              <option value="asc">Ascending</option>
            </select>
          </label>
          <label>
            Chain
            <select name="chainId" value={draft.chainId} onChange={set("chainId")}>
              <option value="">Any</option>
              <option value="8453">Base</option>
              <option value="84532">Base Sepolia</option>
              <option value="1">Ethereum</option>
              <option value="42161">Arbitrum</option>
              <option value="31337">Local</option>
            </select>
          </label>
          <div className="submit">
            <button type="submit">Apply</button>
          </div>
        </form>
      </search>
      <section className="card" aria-busy={loading}>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {page && (
          <p className="sub" data-testid="total">
            {page.total} token{page.total === 1 ? "" : "s"} · page {cursors.length}
          </p>
        )}
        <ul className="list" data-testid="results">
          {page?.data.map((t) => (
            <li key={`${t.chain_id}:${t.contract_address}`}>
              {t.img_url ? (
                // biome-ignore lint/performance/noImgElement: thumbnails come from any host a token names (img_url); next/image would need each host allow-listed and would proxy them
                <img className="thumb" src={t.img_url} alt="" loading="lazy" referrerPolicy="no-referrer" />
              ) : (
                <span className="thumb" />
              )}
              <div className="grow">
                <a href={`/tokens/${t.contract_address}`}>
                  {t.name} <span className="badge">{t.symbol}</span>
                </a>
                <div className="sub">
                  chain {t.chain_id} · {new Date(t.deployed_at).toLocaleString()} · by {shortAddress(t.msg_sender)}
                </div>
              </div>
              <div className="num hide-sm">{usd(t.related?.market?.marketCap)}</div>
            </li>
          ))}
          {page && !page.data.length && <li>No tokens match.</li>}
        </ul>
        <div className="pager">
          <button
            type="button"
            onClick={() => setCursors(cursors.slice(0, -1))}
            disabled={cursors.length < 2 || loading}
          >
            Previous
          </button>
          <button
            type="button"
            onClick={() => page?.cursor && setCursors([...cursors, page.cursor])}
            disabled={!page?.cursor || loading}
          >
            Next
          </button>
        </div>
      </section>
    </>
  );
}
