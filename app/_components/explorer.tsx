"use client";
// The token explorer: search and filters over GET /api/tokens, keyset cursor paging. Its state lives in the URL
// (q, sortBy, sort, chainId, and `pages`, the cursors of the pages before this one), so Back restores a search and
// a search can be shared as a link.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { getJson } from "./api";
import { chainLabel, useChains } from "./chains";
import { COLUMN_NAMES, COLUMNS, type RowToken, TokenRows } from "./token-rows";
import { useTokenStream } from "./token-stream";

type Token = RowToken;
type Page = { data: Token[]; total: number; cursor: string | null };
type Filters = { q: string; sortBy: string; chainId: string; sort: string };

const PAGE_SIZE = 20;
/** The list's orders: the API's sortBy values ("" is newest first), named as the headers name them. */
const SORTS: Record<string, string> = Object.fromEntries(
  COLUMNS.filter((c) => c.sortBy !== undefined).map((c) => [c.sortBy, COLUMN_NAMES[c.key]]),
);
/** How long typing pauses before the search applies itself. */
const TYPING_MS = 500;

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

  const go = (f: Filters, next: string[], replace = false) => {
    const url = pageUrl(path, f, next);
    if (replace) router.replace(url, { scroll: false });
    else router.push(url, { scroll: false });
  };
  // Typing searches by itself once it pauses (the URL replaced, not stacked: Back skips the half-typed words).
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined);
  const shown = useRef(filters);
  shown.current = filters;
  const search = (e?: React.FormEvent) => {
    e?.preventDefault();
    clearTimeout(typing.current);
    go({ ...filters, q: draft.q }, []);
  };
  const onType = (e: React.ChangeEvent<HTMLInputElement>) => {
    const q = e.target.value;
    setDraft({ ...draft, q });
    clearTimeout(typing.current);
    typing.current = setTimeout(() => {
      const now = shown.current;
      if (q.trim() !== now.q.trim()) go({ ...now, q }, [], Boolean(now.q.trim()));
    }, TYPING_MS);
  };
  useEffect(() => () => clearTimeout(typing.current), []);
  const servedChains = chains.filter((c) => c.served);
  const order = filters.sortBy
    ? `${SORTS[filters.sortBy]}, ${filters.sort === "asc" ? "smallest" : "largest"} first`
    : `${filters.sort === "asc" ? "Oldest" : "Newest"} first`;

  return (
    <>
      <search>
        <form className="card filters" onSubmit={search}>
          <label>
            Search
            <input
              name="q"
              type="search"
              value={draft.q}
              onChange={onType}
              placeholder="name, symbol or address"
              maxLength={100}
              enterKeyHint="search"
            />
          </label>
          <label>
            Chain
            <select
              name="chainId"
              value={draft.chainId}
              onChange={(e) => go({ ...filters, q: draft.q, chainId: e.target.value }, [])}
              data-testid="chain-filter"
            >
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
            <span className="sub" data-testid="sort-order" aria-live="polite">
              {order}
            </span>
          </div>
        )}
        <TokenRows
          tokens={page?.data}
          chains={chains}
          fresh={fresh}
          sorting={{
            sortBy: filters.sortBy,
            sort: filters.sort === "asc" ? "asc" : "desc",
            onSort: (sortBy, sort) => go({ ...filters, q: draft.q, sortBy, sort }, []),
          }}
        />
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
