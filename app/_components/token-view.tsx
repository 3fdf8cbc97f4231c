"use client";
// A token page: the token, its creator and stored market data (/api/tokens address search), airdrop
// (allocations) and presale state (presales list), each read from the public API and shown independently.
import { useEffect, useState } from "react";
import { getJson, shortAddress, usd } from "./api";

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

export function TokenView({ address }: { address: string }) {
  // The public list answers an address search with the token, its market data and its creator's profile.
  const found = useApi<{ data: any[] }>(
    `/api/tokens?q=${encodeURIComponent(address)}&includeMarket=true&includeUser=true&limit=5`,
  );
  const t = found.value?.data.find((x) => x.contract_address.toLowerCase() === address.toLowerCase());
  const airdrop = useApi<any>(t ? `/api/airdrops/allocations?tokenAddress=${t.contract_address}&limit=5` : null);
  const presales = useApi<{ presales: any[] }>(t?.presale_id ? `/api/presales?chainId=${t.chain_id}&limit=100` : null);
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
  const presale = presales.value?.presales.find((p) => p.presale_id === t.presale_id);
  const user = t.related?.user;
  return (
    <>
      <h1 data-testid="token-name">
        {t.name} <span className="badge">{t.symbol}</span>
      </h1>
      <section className="card">
        <h2>Token</h2>
        <dl className="kv">
          <dt>Address</dt>
          <dd>{t.contract_address}</dd>
          <dt>Chain</dt>
          <dd>{t.chain_id}</dd>
          <dt>Deployed</dt>
          <dd>{new Date(t.deployed_at).toLocaleString()}</dd>
          <dt>Pool</dt>
          <dd>{t.pool_address ?? "—"}</dd>
          <dt>Paired with</dt>
          <dd>{t.pair ?? "—"}</dd>
          <dt>Starting cap</dt>
          <dd>{t.starting_market_cap ?? "—"}</dd>
          <dt>Transaction</dt>
          <dd>{t.tx_hash}</dd>
          {t.metadata?.description && (
            <>
              <dt>Description</dt>
              <dd>{t.metadata.description}</dd>
            </>
          )}
        </dl>
      </section>
      <section className="card">
        <h2>Creator</h2>
        <dl className="kv">
          <dt>Deployer</dt>
          <dd>{t.msg_sender ? <a href={`/creators/${t.msg_sender}`}>{t.msg_sender}</a> : "—"}</dd>
          <dt>Admin</dt>
          <dd>{t.admin ? <a href={`/creators/${t.admin}`}>{shortAddress(t.admin)}</a> : "—"}</dd>
          <dt>Farcaster</dt>
          <dd>{user ? `@${user.username ?? user.fid}` : (t.requestor_fid ?? "—")}</dd>
        </dl>
      </section>
      <section className="card">
        <h2>Market</h2>
        {m ? (
          <dl className="kv">
            <dt>Market cap</dt>
            <dd>{usd(m.marketCap)}</dd>
            <dt>Price</dt>
            <dd>{usd(m.priceUsd)}</dd>
            <dt>Volume 24 h</dt>
            <dd>{usd(m.volume24h)}</dd>
            <dt>Change 1 h / 24 h</dt>
            <dd>
              {m.priceChangePercent1h ?? "—"} % / {m.priceChangePercent24h ?? "—"} %
            </dd>
            <dt>Transactions 24 h</dt>
            <dd>{m.txCount24h ?? "—"}</dd>
          </dl>
        ) : (
          <p className="sub">No market data yet.</p>
        )}
      </section>
      <section className="card">
        <h2>Airdrop</h2>
        {airdrop.value ? (
          <dl className="kv">
            <dt>Recipients</dt>
            <dd>{airdrop.value.totalCount}</dd>
            <dt>Merkle root</dt>
            <dd>{airdrop.value.merkleRoot}</dd>
          </dl>
        ) : (
          <p className="sub">{airdrop.error ? "No airdrop." : "Loading…"}</p>
        )}
      </section>
      <section className="card">
        <h2>Presale</h2>
        {!t.presale_id ? (
          <p className="sub">No presale.</p>
        ) : presale ? (
          <dl className="kv">
            <dt>Status</dt>
            <dd>{presale.status_name}</dd>
            <dt>Raised (wei)</dt>
            <dd>{presale.eth_raised}</dd>
            <dt>Goal (wei)</dt>
            <dd>
              {presale.min_eth_goal} – {presale.max_eth_goal}
            </dd>
            <dt>Ends</dt>
            <dd>{presale.end_time ?? "—"}</dd>
          </dl>
        ) : (
          <p className="sub">{presales.error ?? `Presale #${t.presale_id}`}</p>
        )}
      </section>
    </>
  );
}
