"use client";
// A creator page: profile, launch statistics and recent tokens from GET /api/creator/{address}.
import { useEffect, useState } from "react";
import { getJson, usd } from "./api";

export function CreatorView({ address }: { address: string }) {
  const [data, setData] = useState<any>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    getJson(`/api/creator/${encodeURIComponent(address)}`, ctrl.signal).then(
      setData,
      (e: Error) => e.name !== "AbortError" && setError(e.message),
    );
    return () => ctrl.abort();
  }, [address]);
  if (error)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!data) return <p>Loading…</p>;
  return (
    <>
      <h1 data-testid="creator-name">{data.user ? `@${data.user.username ?? data.user.fid}` : data.address}</h1>
      <section className="card">
        <dl className="kv">
          <dt>Address</dt>
          <dd>{data.address}</dd>
          <dt>Tokens launched</dt>
          <dd>{data.stats.tokensLaunched}</dd>
          <dt>First / latest</dt>
          <dd>
            {data.stats.firstLaunchAt ?? "—"} / {data.stats.latestLaunchAt ?? "—"}
          </dd>
          <dt>Market cap (sum)</dt>
          <dd>
            {usd(data.stats.totalMarketCapUsd)}
            {data.stats.complete ? "" : ` (newest ${data.stats.sampleSize})`}
          </dd>
        </dl>
      </section>
      <section className="card">
        <h2>Recent tokens</h2>
        <ul className="list">
          {data.recentTokens.map((t: any) => (
            <li key={`${t.chain_id}:${t.contract_address}`}>
              <div className="grow">
                <a href={`/tokens/${t.contract_address}`}>
                  {t.name} <span className="badge">{t.symbol}</span>
                </a>
                <div className="sub">
                  chain {t.chain_id} · {new Date(t.deployed_at).toLocaleString()}
                </div>
              </div>
              <div className="num">{usd(t.related?.market?.marketCap)}</div>
            </li>
          ))}
          {!data.recentTokens.length && <li>No tokens yet.</li>}
        </ul>
      </section>
    </>
  );
}
