"use client";
// The token explorer: search and filters over GET /api/tokens, keyset cursor paging. Its state lives in the URL
// (q, sortBy, sort, chainId, and `pages`, the cursors of the pages before this one), so Back restores a search and
// a search can be shared as a link.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { getJson, shortAddress, usd } from "./api";
import { chainLabel, useChains } from "./chains";
import { TokenImage } from "./token-image";
import { useTokenStream } from "./token-stream";

type Market = {
  marketCap: number | null;
  priceChangePercent1h: number | null;
  priceChangePercent24h: number | null;
  txCount24h: number | null;
};
type Token = {
  contract_address: string;
  name: string;
  symbol: string;
  img_url: string | null;
  chain_id: number;
  deployed_at: string;
  msg_sender: string | null;
  related?: { market?: Market | null };
};
type Page = { data: Token[]; total: number; cursor: string | null };
type Filters = { q: string; sortBy: string; chainId: string; sort: string };

const PAGE_SIZE = 20;
const SORTS: Record<string, string> = {
  "": "Newest",
  "market-cap": "Market cap",
  "tx-h24": "Transactions 24 h",
  "price-percent-h24": "Price change 24 h",
  "price-percent-h1": "Price change 1 h",
};

const percent = (v: number | null | undefined) =>
  v === null || v === undefined ? "—" : `${v > 0 ? "+" : ""}${v.toFixed(2)} %`;

/** The figure a row shows: the one the list is sorted by, else the market cap. */
function column(sortBy: string): { title: string; value: (m: Market | null | undefined) => string; tone?: boolean } {
  switch (sortBy) {
    case "tx-h24":
      return { title: "Transactions 24 h", value: (m) => (m?.txCount24h ?? "—").toLocaleString() };
    case "price-percent-h24":
      return { title: "Change 24 h", value: (m) => percent(m?.priceChangePercent24h), tone: true };
    case "price-percent-h1":
      return { title: "Change 1 h", value: (m) => percent(m?.priceChangePercent1h), tone: true };
    default:
      return { title: "Market cap", value: (m) => usd(m?.marketCap) };
  }
}

function filtersOf(params: URLSearchParams): Filters {
  const sortBy = params.get("sortBy") ?? "";
  return {
    q: params.get("q") ?? "",
    sortBy: sortBy in SORTS ? sortBy : "",
    chainId: /^\d{1,10}$/.test(params.get("chainId") ?? "") ? params.get("chainId")! : "",
    sort: params.get("sort") === "asc" ? "asc" : "desc",
  };
}

/** The page's own URL for filters and the cursors of the pages before the one shown. */
function pageUrl(path: string, f: Filters, pages: string[]): string {
  const p = new URLSearchParams();
  if (f.q.trim()) p.set("q", f.q.trim());
  if (f.sortBy) p.set("sortBy", f.sortBy);
  if (f.sort !== "desc") p.set("sort", f.sort);
  if (f.chainId) p.set("chainId", f.chainId);
  if (pages.length) p.set("pages", pages.join(","));
  const query = p.toString();
  return query ? `${path}?${query}` : path;
}

/** The stream that feeds the list, when it shows the newest tokens first on page 1 (a search has no stream). */
function streamUrl(f: Filters, pages: string[]): string | null {
  if (pages.length || f.q.trim() || f.sortBy || f.sort !== "desc") return null;
  const p = new URLSearchParams({ includeMarket: "true" });
  if (f.chainId) p.set("chainId", f.chainId);
  return `/api/tokens/stream?${p}`;
}

function listUrl(f: Filters, cursor: string | undefined): string {
  const p = new URLSearchParams({ limit: String(PAGE_SIZE), includeMarket: "true", sort: f.sort });
  if (f.q.trim()) p.set("q", f.q.trim());
  if (f.sortBy) p.set("sortBy", f.sortBy);
  if (f.chainId) p.set("chainId", f.chainId);
  if (cursor) p.set("cursor", cursor);
  return `/api/tokens?${p}`;
}

export function Explorer() {
  const params = useSearchParams();
  const router = useRouter();
  const path = usePathname();
  const filters = filtersOf(params);
  const pages = (params.get("pages") ?? "").split(",").filter(Boolean); // cursors of page 2, 3, … up to this one
  const cursor = pages.at(-1);
  const [draft, setDraft] = useState<Filters>(filters);
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const request = listUrl(filters, cursor);
  const chains = useChains(page?.data.map((t) => t.chain_id));
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const keyOf = (t: Token) => `${t.chain_id}:${t.contract_address}`;
  // New launches go on top as they are indexed, without a reload; the page keeps its size.
  const live = useTokenStream<Token>(streamUrl(filters, pages), (token) => {
    setPage((p) => {
      if (!p || p.data.some((t) => keyOf(t) === keyOf(token))) return p;
      return { ...p, data: [token, ...p.data].slice(0, PAGE_SIZE), total: p.total + 1 };
    });
    setFresh((f) => new Set(f).add(keyOf(token)));
  });

  // Back and Forward change the URL: the form follows it.
  const paramsKey = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: filtersOf(params) is new each render; paramsKey names it
  useEffect(() => setDraft(filtersOf(params)), [paramsKey]);

  useEffect(() => {
    const ctrl = new AbortController();
    setLoading(true);
    getJson<Page>(request, ctrl.signal)
      .then((p) => {
        setPage(p);
        setError(null);
      })
      .catch((e: Error) => e.name !== "AbortError" && setError(e.message))
      .finally(() => setLoading(false));
    return () => ctrl.abort();
  }, [request]);

  const go = (f: Filters, next: string[]) => router.push(pageUrl(path, f, next), { scroll: false });
  const apply = (e?: React.FormEvent) => {
    e?.preventDefault();
    go(draft, []);
  };
  const set = (key: keyof Filters) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setDraft({ ...draft, [key]: e.target.value });
  const shown = column(filters.sortBy);
  const servedChains = chains.filter((c) => c.served);

  return (
    <>
      <search>
        <form className="card filters" onSubmit={apply}>
          <label>
            Search
            <input
              name="q"
              type="search"
              value={draft.q}
              onChange={set("q")}
              placeholder="name, symbol or address"
              maxLength={100}
            />
          </label>
          <label>
            Sort by
            <select name="sortBy" value={draft.sortBy} onChange={set("sortBy")}>
              {Object.entries(SORTS).map(([value, title]) => (
                <option key={value} value={value}>
                  {title}
                </option>
              ))}
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
            <select name="chainId" value={draft.chainId} onChange={set("chainId")} data-testid="chain-filter">
              <option value="">Any</option>
              {servedChains.map((c) => (
                <option key={c.chainId} value={c.chainId}>
                  {c.name}
                </option>
              ))}
              {draft.chainId && !servedChains.some((c) => String(c.chainId) === draft.chainId) && (
                <option value={draft.chainId}>{chainLabel(chains, Number(draft.chainId))}</option>
              )}
            </select>
          </label>
          <div className="submit">
            <button type="submit">Apply</button>
          </div>
        </form>
      </search>
      <section className="card" aria-busy={loading} aria-label="Tokens">
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {page && (
          <div className="list-head">
            <p className="sub" data-testid="total">
              {page.total} token{page.total === 1 ? "" : "s"} · page {pages.length + 1}
            </p>
            {live !== "off" && (
              <span className="badge" data-testid="live-state" title="New launches appear here as they are indexed">
                {live}
              </span>
            )}
            <span className="sub" data-testid="column-title">
              {shown.title}
            </span>
          </div>
        )}
        <ul className="list" data-testid="results">
          {page?.data.map((t) => {
            const value = shown.value(t.related?.market);
            return (
              <li key={keyOf(t)} className={fresh.has(keyOf(t)) ? "fresh" : undefined}>
                <TokenImage src={t.img_url} chainId={t.chain_id} address={t.contract_address} symbol={t.symbol} />
                <div className="grow">
                  <a href={`/tokens/${t.contract_address}?chainId=${t.chain_id}`}>
                    <bdi>{t.name}</bdi>{" "}
                    <span className="badge">
                      <bdi>{t.symbol}</bdi>
                    </span>
                  </a>
                  <div className="sub">
                    <span data-testid="chain-name">{chainLabel(chains, t.chain_id)}</span> ·{" "}
                    {new Date(t.deployed_at).toLocaleString()} · by {shortAddress(t.msg_sender)}
                  </div>
                </div>
                <div
                  className={`num${shown.tone ? (value.startsWith("+") ? " up" : value.startsWith("-") ? " down" : "") : ""}${filters.sortBy ? "" : " hide-sm"}`}
                  data-testid="column-value"
                >
                  {value}
                </div>
              </li>
            );
          })}
          {page && !page.data.length && <li>No tokens match.</li>}
        </ul>
        <div className="pager">
          <button type="button" onClick={() => go(filters, pages.slice(0, -1))} disabled={!pages.length || loading}>
            Previous
          </button>
          <button
            type="button"
            onClick={() => page?.cursor && go(filters, [...pages, page.cursor])}
            disabled={!page?.cursor || loading}
          >
            Next
          </button>
        </div>
      </section>
    </>
  );
}
