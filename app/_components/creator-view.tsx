"use client";
// A creator page: profile, launch statistics (tokens per chain as bars) and recent tokens from GET /api/creator/{address}.
import { useEffect, useState } from "react";
import { getJson, usd } from "./api";
import { chainLabel, useChains } from "./chains";
import { ProgressBar } from "./charts";
import { TokenImage } from "./token-image";

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
  const byChain = Object.entries((data?.stats.tokensByChain ?? {}) as Record<string, number>)
    .map(([id, n]) => [Number(id), n] as const)
    .sort((a, b) => b[1] - a[1]);
  const chains = useChains([...byChain.map(([id]) => id), ...(data?.recentTokens ?? []).map((t: any) => t.chain_id)]);
  if (error)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!data) return <p>Loading…</p>;
  const most = Math.max(1, ...byChain.map(([, n]) => n));
  return (
    <>
      <h1 data-testid="creator-name">
        {data.user ? (
          <>
            @<bdi>{data.user.username ?? data.user.fid}</bdi>
          </>
        ) : (
          data.address
        )}
      </h1>
      <section className="card">
        <dl className="kv">
          <dt>Address</dt>
          <dd>{data.address}</dd>
          <dt>Tokens launched</dt>
          <dd>{data.stats.tokensLaunched}</dd>
          <dt>First / latest</dt>
          <dd>
            {data.stats.firstLaunchAt ? new Date(data.stats.firstLaunchAt).toLocaleDateString() : "—"} /{" "}
            {data.stats.latestLaunchAt ? new Date(data.stats.latestLaunchAt).toLocaleDateString() : "—"}
          </dd>
          <dt>Market cap (sum)</dt>
          <dd>
            {usd(data.stats.totalMarketCapUsd)}
            {data.stats.complete ? "" : ` (newest ${data.stats.sampleSize})`}
          </dd>
        </dl>
      </section>
      {byChain.length > 0 && (
        <section className="card" data-testid="launches-by-chain">
          <h2>Launches by chain</h2>
          {byChain.map(([id, n]) => (
            <ProgressBar
              key={id}
              value={n}
              max={most}
              label={`${chainLabel(chains, id)}: ${n} token${n === 1 ? "" : "s"}`}
            />
          ))}
        </section>
      )}
      <section className="card">
        <h2>Recent tokens</h2>
        <ul className="list">
          {data.recentTokens.map((t: any) => (
            <li key={`${t.chain_id}:${t.contract_address}`}>
              <TokenImage src={t.img_url} chainId={t.chain_id} address={t.contract_address} symbol={t.symbol} />
              <div className="grow">
                <a href={`/tokens/${t.contract_address}?chainId=${t.chain_id}`}>
                  <bdi>{t.name}</bdi>{" "}
                  <span className="badge">
                    <bdi>{t.symbol}</bdi>
                  </span>
                </a>
                <div className="sub">
                  {chainLabel(chains, t.chain_id)} · {new Date(t.deployed_at).toLocaleString()}
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
