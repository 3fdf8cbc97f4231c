"use client";
// Dense token rows, as market sites show them: the token, then price, 1 h and 24 h change, transactions, volume,
// market cap and age. A grid of columns under sortable headers on wide screens; on a phone each row holds the
// token's line and, below it, the figures in two labelled lines of four. The explorer and the creator page use them.
import { percent, price, shortAddress, usd } from "./api";
import { type ChainInfo, chainLabel } from "./chains";
import { TokenImage } from "./token-image";

export type Market = {
  marketCap: number | null;
  priceUsd?: number | null;
  volume24h?: number | null;
  priceChangePercent1h: number | null;
  priceChangePercent24h: number | null;
  txCount24h: number | null;
};
export type RowToken = {
  contract_address: string;
  name: string;
  symbol: string;
  img_url: string | null;
  chain_id: number;
  deployed_at: string;
  msg_sender: string | null;
  related?: { market?: Market | null };
};

const tone = (v: number | null | undefined) => (!v ? "" : v > 0 ? " up" : " down");
const count = (v: number | null | undefined) => (v === null || v === undefined ? "—" : v.toLocaleString("en-US"));

/** The time since `iso` in one short unit: "45 s", "12 min", "2 h", "3 d", "5 mo", "2 y". */
export function age(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 1000));
  if (!Number.isFinite(s)) return "—";
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  if (s < 86_400 * 60) return `${Math.floor(s / 86_400)} d`;
  if (s < 86_400 * 730) return `${Math.floor(s / (86_400 * 30.44))} mo`;
  return `${Math.floor(s / (86_400 * 365.25))} y`;
}

/** A column of the rows: its title, the API's sortBy that orders by it ("" is newest first), its cell. */
type Column = { key: string; title: string; sortBy?: string; cell: (t: RowToken) => { text: string; tone?: string } };

export const COLUMNS: Column[] = [
  { key: "price", title: "Price", cell: (t) => ({ text: price(t.related?.market?.priceUsd) }) },
  {
    key: "h1",
    title: "1 h",
    sortBy: "price-percent-h1",
    cell: (t) => ({
      text: percent(t.related?.market?.priceChangePercent1h),
      tone: tone(t.related?.market?.priceChangePercent1h),
    }),
  },
  {
    key: "h24",
    title: "24 h",
    sortBy: "price-percent-h24",
    cell: (t) => ({
      text: percent(t.related?.market?.priceChangePercent24h),
      tone: tone(t.related?.market?.priceChangePercent24h),
    }),
  },
  { key: "txns", title: "Txns", sortBy: "tx-h24", cell: (t) => ({ text: count(t.related?.market?.txCount24h) }) },
  { key: "volume", title: "Volume", cell: (t) => ({ text: usd(t.related?.market?.volume24h) }) },
  {
    key: "mcap",
    title: "Market cap",
    sortBy: "market-cap",
    cell: (t) => ({ text: usd(t.related?.market?.marketCap) }),
  },
  { key: "age", title: "Age", sortBy: "", cell: (t) => ({ text: age(t.deployed_at) }) },
];

/** Full names of the columns, for the headers' accessible names and the phone's labels. */
export const COLUMN_NAMES: Record<string, string> = {
  price: "Price",
  h1: "Change 1 h",
  h24: "Change 24 h",
  txns: "Transactions 24 h",
  volume: "Volume 24 h",
  mcap: "Market cap",
  age: "Age",
};

export type Sorting = { sortBy: string; sort: "asc" | "desc"; onSort: (sortBy: string, sort: "asc" | "desc") => void };

/** The header row: a button per sortable column (a second click reverses it), a plain title for the others. */
export function RowsHeader({ sorting }: { sorting?: Sorting }) {
  // Without sorting, the titles only repeat the labels every row carries for screen readers.
  const holder = sorting
    ? { className: "rows-head", role: "toolbar", "aria-label": "Sort the tokens" }
    : { className: "rows-head static", "aria-hidden": true };
  return (
    <div {...holder} data-testid="rows-head">
      <span className="rows-token">Token</span>
      {COLUMNS.map((c) => {
        if (!sorting || c.sortBy === undefined)
          return (
            <span key={c.key} className={`rows-fig rows-plain col-${c.key}`}>
              {c.title}
            </span>
          );
        const active = sorting.sortBy === c.sortBy;
        const next = active && sorting.sort === "desc" ? "asc" : "desc";
        return (
          <button
            key={c.key}
            type="button"
            className={`rows-fig rows-sort col-${c.key}${active ? " active" : ""}`}
            aria-pressed={active}
            aria-label={`${c.title}: sort by ${COLUMN_NAMES[c.key].toLowerCase()}${active ? `, now ${sorting.sort === "desc" ? (c.sortBy ? "largest" : "newest") : c.sortBy ? "smallest" : "oldest"} first` : ""}`}
            onClick={() => sorting.onSort(c.sortBy!, active ? next : "desc")}
            data-testid={`sort-${c.key}`}
          >
            {c.title}
            <span aria-hidden="true" className="arrow">
              {active ? (sorting.sort === "desc" ? " ↓" : " ↑") : ""}
            </span>
          </button>
        );
      })}
    </div>
  );
}

export function TokenRow({ token: t, chains, fresh }: { token: RowToken; chains: ChainInfo[]; fresh?: boolean }) {
  return (
    <li className={`row${fresh ? " fresh" : ""}`}>
      <div className="rows-token">
        <TokenImage src={t.img_url} chainId={t.chain_id} address={t.contract_address} symbol={t.symbol} />
        <div className="grow">
          <a href={`/tokens/${t.contract_address}?chainId=${t.chain_id}`} className="token-link">
            <bdi>{t.name}</bdi>{" "}
            <span className="badge">
              <bdi>{t.symbol}</bdi>
            </span>
          </a>
          <div className="sub">
            <span data-testid="chain-name">{chainLabel(chains, t.chain_id)}</span> · by {shortAddress(t.msg_sender)}
          </div>
        </div>
      </div>
      {COLUMNS.map((c) => {
        const { text, tone: sign = "" } = c.cell(t);
        return (
          <div key={c.key} className={`rows-fig col-${c.key}`} data-testid={`cell-${c.key}`}>
            <span className="rows-label">{c.title}</span>
            <span className={`num${sign}`}>{text}</span>
          </div>
        );
      })}
    </li>
  );
}

/** The rows of `tokens` under their header; `sorting` makes the header's columns sort the list. */
export function TokenRows({
  tokens,
  chains,
  sorting,
  fresh,
  empty = "No tokens match.",
}: {
  tokens: RowToken[] | undefined;
  chains: ChainInfo[];
  sorting?: Sorting;
  fresh?: Set<string>;
  empty?: string;
}) {
  return (
    <div className="rows">
      <RowsHeader sorting={sorting} />
      <ul className="list rows-list" data-testid="results">
        {tokens?.map((t) => (
          <TokenRow
            key={`${t.chain_id}:${t.contract_address}`}
            token={t}
            chains={chains}
            fresh={fresh?.has(`${t.chain_id}:${t.contract_address}`)}
          />
        ))}
        {tokens && !tokens.length && <li>{empty}</li>}
      </ul>
    </div>
  );
}
