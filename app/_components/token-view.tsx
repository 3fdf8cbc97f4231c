"use client";
// A token page: the token, its creator and stored market data (/api/tokens address search), its market history as
// a chart (/api/tokens/market-history), airdrop (allocations, and its claimed share as a bar from
// /api/airdrops/claimed) and presale (presales by id, with progress against its goal), each read from the public
// API and shown independently. The page (server) hands it the chain's name and block explorer.
import { useEffect, useState } from "react";
import { getJson, percent, price, shortAddress, usd } from "./api";
import { LineChart, ProgressBar } from "./charts";
import { CopyButton, Hash } from "./hash";
import { TokenImage } from "./token-image";
import { isolated } from "./user-text";

export type BlockExplorer = { name: string; url: string };

/** A social link from the token's metadata: http(s) only, shown by its platform's name and host. */
function socialLinks(metadata: unknown): { label: string; url: string }[] {
  const list = (metadata as { socialMediaUrls?: unknown } | null)?.socialMediaUrls;
  if (!Array.isArray(list)) return [];
  const names: Record<string, string> = { x: "X", twitter: "X", telegram: "Telegram", website: "Website" };
  return list.slice(0, 10).flatMap((entry) => {
    const { platform, url } = (entry ?? {}) as Record<string, unknown>;
    if (typeof url !== "string" || !/^https?:\/\//i.test(url)) return [];
    try {
      const host = new URL(url).host;
      const name = typeof platform === "string" && platform ? (names[platform.toLowerCase()] ?? platform) : host;
      return [{ label: `${name}`, url }];
    } catch {
      return [];
    }
  });
}

type Loaded<T> = { value?: T; error?: string };

function useApi<T>(path: string | null): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({});
  useEffect(() => {
    if (!path) return;
    const ctrl = new AbortController();
    getJson<T>(path, ctrl.signal).then(
      (value) => setState({ value }),
      (e: Error) => e.name !== "AbortError" && setState({ error: e.message }),
    );
    return () => ctrl.abort();
  }, [path]);
  return state;
}

const WEI = 10n ** 18n;
/** Wei (decimal text) as ETH for people: up to 4 decimals, never through a float of the whole amount. */
function eth(wei: string | null | undefined): string {
  if (!wei || !/^\d+$/.test(wei)) return "—";
  const v = BigInt(wei);
  const frac = ((v % WEI) * 10_000n) / WEI;
  return `${(v / WEI).toLocaleString("en-US")}${frac ? `.${frac.toString().padStart(4, "0").replace(/0+$/, "")}` : ""} ETH`;
}
/** value / max of two wei amounts as a number for drawing (exact enough: 1e-6). */
const ratio = (value: string, max: string) =>
  BigInt(max) > 0n ? Number((BigInt(value) * 1_000_000n) / BigInt(max)) / 1e6 : 0;

type Metric = "marketCap" | "priceUsd";
const HISTORY_DAYS = [7, 30, 90];

function MarketHistory({ address, chainId }: { address: string; chainId: number }) {
  const [days, setDays] = useState(30);
  const [metric, setMetric] = useState<Metric>("marketCap");
  const history = useApi<{ points: { at: string; marketCap: number | null; priceUsd: number | null }[] }>(
    `/api/tokens/market-history?address=${address}&chainId=${chainId}&days=${days}`,
  );
  return (
    <section className="card" data-testid="market-chart">
      <div className="card-head">
        <h2>{metric === "marketCap" ? "Market cap" : "Price"} over time</h2>
        <div className="toggles">
          <label>
            <span className="visually-hidden">Figure</span>
            <select value={metric} onChange={(e) => setMetric(e.target.value as Metric)}>
              <option value="marketCap">Market cap</option>
              <option value="priceUsd">Price</option>
            </select>
          </label>
          <label>
            <span className="visually-hidden">Period</span>
            <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {HISTORY_DAYS.map((d) => (
                <option key={d} value={d}>
                  {d} days
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      {history.error ? (
        <p className="sub">{history.error}</p>
      ) : history.value ? (
        <LineChart
          label={metric === "marketCap" ? "Market cap" : "Price"}
          points={history.value.points.map((p) => ({ at: p.at, value: p[metric] }))}
        />
      ) : (
        <p className="sub">Loading…</p>
      )}
    </section>
  );
}

function Presale({ chainId, presaleId }: { chainId: number; presaleId: number }) {
  const found = useApi<{ presales: any[] }>(`/api/presales?chainId=${chainId}&presaleId=${presaleId}&limit=1`);
  const p = found.value?.presales[0];
  if (!p)
    return <p className="sub">{found.error ?? (found.value ? `Presale #${presaleId} is not indexed.` : "Loading…")}</p>;
  const max = p.max_eth_goal ?? "0";
  const min = p.min_eth_goal ?? "0";
  return (
    <div data-testid="presale">
      <ProgressBar
        value={ratio(p.eth_raised, max)}
        max={1}
        marks={BigInt(max) > 0n ? [{ at: ratio(min, max), label: `minimum goal ${eth(min)}` }] : []}
        label={`${eth(p.eth_raised)} raised of ${eth(max)} (minimum ${eth(min)})`}
      />
      <dl className="kv">
        <dt>Presale</dt>
        <dd>#{p.presale_id}</dd>
        <dt>Status</dt>
        <dd>{p.status_name}</dd>
        <dt>Ends</dt>
        <dd>{p.end_time ? new Date(p.end_time).toLocaleString() : "—"}</dd>
      </dl>
    </div>
  );
}

/** Token wei (18 decimals, as the factory's tokens have) for people: whole tokens, up to 2 decimals. */
function tokenAmount(wei: string, symbol: string): string {
  const v = BigInt(wei);
  const frac = ((v % WEI) * 100n) / WEI;
  return `${(v / WEI).toLocaleString("en-US")}${frac ? `.${frac.toString().padStart(2, "0").replace(/0+$/, "")}` : ""} ${symbol}`;
}

type Claimed = { claimed: string; claimers: number; total: string | null; claimedShare: number | null };

/** The airdrop's claimed share of its tree, from the claims the service indexes (/api/airdrops/claimed). */
function AirdropClaimed({ address, symbol }: { address: string; symbol: string }) {
  const found = useApi<Claimed>(`/api/airdrops/claimed?tokenAddress=${address}`);
  const c = found.value;
  if (!c || c.total === null || c.claimedShare === null) return null;
  const percent = (Math.min(1, c.claimedShare) * 100).toFixed(1);
  return (
    <div data-testid="airdrop-claimed">
      <ProgressBar
        value={ratio(c.claimed, c.total)}
        max={1}
        label={`${tokenAmount(c.claimed, isolated(symbol))} claimed of ${tokenAmount(c.total, isolated(symbol))} (${percent} %, ${c.claimers} ${c.claimers === 1 ? "account" : "accounts"})`}
      />
    </div>
  );
}

function Airdrop({ address, symbol }: { address: string; symbol: string }) {
  const airdrop = useApi<any>(`/api/airdrops/allocations?tokenAddress=${address}&limit=5`);
  if (!airdrop.value) return <p className="sub">{airdrop.error ? "No airdrop." : "Loading…"}</p>;
  return (
    <>
      <AirdropClaimed address={address} symbol={symbol} />
      <dl className="kv">
        <dt>Recipients</dt>
        <dd>{airdrop.value.totalCount}</dd>
        <dt>Merkle root</dt>
        <dd>
          <Hash value={airdrop.value.merkleRoot} />
        </dd>
      </dl>
    </>
  );
}

export function TokenView({
  address,
  chainId,
  chainName,
  explorer,
}: {
  address: string;
  chainId: number;
  chainName: string;
  explorer: BlockExplorer | null;
}) {
  // The public list answers an address search with the token, its market data and its creator's profile.
  const found = useApi<{ data: any[] }>(
    `/api/tokens?q=${encodeURIComponent(address)}&includeMarket=true&includeUser=true&limit=5&chainId=${chainId}`,
  );
  const t = found.value?.data.find((x) => x.contract_address.toLowerCase() === address.toLowerCase());
  const link = (kind: "token" | "address" | "tx", value: string) =>
    explorer ? `${explorer.url}/${kind}/${value}` : undefined;
  if (found.error)
    return (
      <p className="error" role="alert">
        {found.error}
      </p>
    );
  if (found.value && !t)
    return (
      <p className="error" role="alert">
        No token has this address.
      </p>
    );
  if (!t) return <p>Loading…</p>;
  const m = t.related?.market;
  const user = t.related?.user;
  const change = m?.priceChangePercent24h;
  const socials = socialLinks(t.metadata);
  const poolIsAddress = typeof t.pool_address === "string" && /^0x[0-9a-fA-F]{40}$/.test(t.pool_address);
  return (
    <>
      <div className="title">
        <TokenImage src={t.img_url} chainId={t.chain_id} address={t.contract_address} symbol={t.symbol} size="large" />
        <div className="grow">
          <h1 data-testid="token-name">
            <bdi>{t.name}</bdi>{" "}
            <span className="badge">
              <bdi>{t.symbol}</bdi>
            </span>
          </h1>
          <p className="sub">
            <span data-testid="chain-name">{chainName}</span> · deployed {new Date(t.deployed_at).toLocaleDateString()}
            {user && (
              <>
                {" "}
                · by{" "}
                <a href={`/creators/${user.verified_addresses?.eth_addresses?.[0] ?? t.msg_sender}`}>
                  @<bdi>{user.username ?? user.fid}</bdi>
                </a>
              </>
            )}
          </p>
          <p className="address-line">
            <Hash value={t.contract_address} href={link("token", t.contract_address)} testId="token-address" />
            <CopyButton value={t.contract_address} what="token address" />
          </p>
        </div>
      </div>
      {(socials.length > 0 || explorer) && (
        <nav className="links" aria-label="Links" data-testid="token-links">
          {explorer && (
            <a href={link("token", t.contract_address)} rel="noopener noreferrer" target="_blank">
              {explorer.name}
            </a>
          )}
          {socials.map((s) => (
            <a
              key={s.url}
              href={s.url}
              rel="noopener noreferrer nofollow ugc"
              target="_blank"
              data-testid="social-link"
            >
              <bdi>{s.label}</bdi>
            </a>
          ))}
        </nav>
      )}
      <div className="figures">
        <div className="figure">
          <span className="sub">Market cap</span>
          <strong>{usd(m?.marketCap)}</strong>
        </div>
        <div className="figure">
          <span className="sub">Price</span>
          <strong title={m?.priceUsd ? usd(m.priceUsd) : undefined}>{price(m?.priceUsd)}</strong>
        </div>
        <div className="figure">
          <span className="sub">24 h</span>
          <strong className={change > 0 ? "up" : change < 0 ? "down" : ""}>{percent(change)}</strong>
        </div>
        <div className="figure">
          <span className="sub">Volume 24 h</span>
          <strong>{usd(m?.volume24h)}</strong>
        </div>
      </div>
      {t.metadata?.description && (
        <section className="card">
          <h2>About</h2>
          <p className="prose" data-testid="token-description">
            <bdi>{t.metadata.description}</bdi>
          </p>
        </section>
      )}
      <MarketHistory address={t.contract_address} chainId={t.chain_id} />
      <section className="card">
        <h2>Presale</h2>
        {t.presale_id ? <Presale chainId={t.chain_id} presaleId={t.presale_id} /> : <p className="sub">No presale.</p>}
      </section>
      <section className="card">
        <h2>Token</h2>
        <dl className="kv">
          <dt>Address</dt>
          <dd>
            <Hash value={t.contract_address} href={link("token", t.contract_address)} />
            <CopyButton value={t.contract_address} what="token address" />
          </dd>
          <dt>Chain</dt>
          <dd>
            {chainName} ({t.chain_id})
          </dd>
          <dt>Pool</dt>
          <dd>
            {t.pool_address ? (
              <>
                <Hash
                  value={t.pool_address}
                  href={poolIsAddress ? link("address", t.pool_address) : undefined}
                  testId="pool"
                />
                <CopyButton value={t.pool_address} what={poolIsAddress ? "pool address" : "pool id"} />
              </>
            ) : (
              "—"
            )}
          </dd>
          <dt>Paired with</dt>
          <dd>{t.pair ? <bdi>{t.pair}</bdi> : "—"}</dd>
          <dt>Starting cap</dt>
          <dd>{t.starting_market_cap ?? "—"}</dd>
          <dt>Transactions 24 h</dt>
          <dd>{m?.txCount24h ?? "—"}</dd>
          <dt>Deployed in</dt>
          <dd>
            {t.tx_hash ? (
              <>
                <Hash value={t.tx_hash} href={link("tx", t.tx_hash)} testId="deploy-tx" />
                <CopyButton value={t.tx_hash} what="transaction hash" />
              </>
            ) : (
              "—"
            )}
          </dd>
        </dl>
      </section>
      <section className="card">
        <h2>Creator</h2>
        <dl className="kv">
          <dt>Deployer</dt>
          <dd>
            {t.msg_sender ? (
              <>
                <a href={`/creators/${t.msg_sender}`} className="hash" data-testid="creator-link">
                  {shortAddress(t.msg_sender)}
                </a>{" "}
                {explorer && (
                  <a href={link("address", t.msg_sender)} rel="noopener noreferrer" target="_blank" className="sub">
                    {explorer.name}
                  </a>
                )}
              </>
            ) : (
              "—"
            )}
          </dd>
          <dt>Admin</dt>
          <dd>
            {t.admin ? (
              <a href={`/creators/${t.admin}`} className="hash">
                {shortAddress(t.admin)}
              </a>
            ) : (
              "—"
            )}
          </dd>
          <dt>Farcaster</dt>
          <dd>
            {user ? (
              <>
                @<bdi>{user.username ?? user.fid}</bdi>
              </>
            ) : (
              (t.requestor_fid ?? "—")
            )}
          </dd>
        </dl>
      </section>
      <section className="card">
        <h2>Airdrop</h2>
        <Airdrop address={t.contract_address} symbol={t.symbol} />
      </section>
    </>
  );
}
