"use client";
// A creator page, as the server read it (GET /creators/{address}): the profile (name, handle, picture), launch
// statistics (tokens per chain as bars) and a page of the creator's tokens in the explorer's rows, paged by ?page=.
import { useState } from "react";
import { usd } from "./api";
import { chainLabel, useChains } from "./chains";
import { ProgressBar } from "./charts";
import { Hash, CopyButton } from "./hash";
import { placeholderOf } from "./token-image";
import { type RowToken, TokenRows } from "./token-rows";

type User = { fid: number; username?: string | null; display_name?: string | null; pfp_url?: string | null };
export type CreatorProfile = {
  user: unknown;
  address: string;
  stats: {
    tokensLaunched: number;
    firstLaunchAt: string | null;
    latestLaunchAt: string | null;
    tokensByChain: Record<string, number>;
    totalMarketCapUsd: number;
    complete: boolean;
    sampleSize: number;
  };
};

/** The profile's picture through the service's proxy, or the generated one when it has none or it fails. */
function Avatar({ user, address }: { user: User | null; address: string }) {
  const fallback = placeholderOf(address, user?.username ?? address.slice(2));
  const [failed, setFailed] = useState(false);
  const source = user?.pfp_url && /^https?:\/\//i.test(user.pfp_url) ? `/images/users/${user.fid}` : null;
  return (
    // biome-ignore lint/performance/noImgElement: the service's own picture proxy and placeholders, as TokenImage
    <img
      className="avatar"
      src={!source || failed ? fallback : source}
      alt=""
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      data-testid="creator-avatar"
    />
  );
}

export function CreatorView({
  profile,
  tokens,
  page,
  pages,
}: {
  profile: CreatorProfile;
  tokens: RowToken[];
  page: number;
  pages: number;
}) {
  const { stats } = profile;
  const user = (profile.user ?? null) as User | null;
  const byChain = Object.entries(stats.tokensByChain)
    .map(([id, n]) => [Number(id), n] as const)
    .sort((a, b) => b[1] - a[1]);
  const chains = useChains([...byChain.map(([id]) => id), ...tokens.map((t) => t.chain_id)]);
  const most = Math.max(1, ...byChain.map(([, n]) => n));
  const first = (page - 1) * 20 + 1;
  const pageLink = (n: number) => (n === 1 ? `/creators/${profile.address}` : `/creators/${profile.address}?page=${n}`);
  return (
    <>
      <div className="title">
        <Avatar user={user} address={profile.address} />
        <div className="grow">
          <h1 data-testid="creator-name">
            {user ? (
              <>
                {user.display_name && (
                  <>
                    <bdi>{user.display_name}</bdi>{" "}
                  </>
                )}
                <span className={user.display_name ? "badge" : undefined}>
                  @<bdi>{user.username ?? user.fid}</bdi>
                </span>
              </>
            ) : (
              "Creator"
            )}
          </h1>
          <p className="address-line">
            <Hash value={profile.address} />
            <CopyButton value={profile.address} what="creator's address" />
          </p>
        </div>
      </div>
      <section className="card">
        <dl className="kv">
          <dt>Tokens launched</dt>
          <dd data-testid="tokens-launched">{stats.tokensLaunched}</dd>
          <dt>First / latest</dt>
          <dd>
            {stats.firstLaunchAt ? new Date(stats.firstLaunchAt).toLocaleDateString() : "—"} /{" "}
            {stats.latestLaunchAt ? new Date(stats.latestLaunchAt).toLocaleDateString() : "—"}
          </dd>
          <dt>Market cap (sum)</dt>
          <dd>
            {usd(stats.totalMarketCapUsd)}
            {stats.complete ? "" : ` (newest ${stats.sampleSize})`}
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
      <section className="card" aria-label="Tokens">
        <div className="list-head">
          <h2>Tokens</h2>
          <p className="sub" data-testid="creator-range">
            {tokens.length ? `${first}–${first + tokens.length - 1} of ${stats.tokensLaunched}` : ""} · page {page} of{" "}
            {pages}
          </p>
        </div>
        <TokenRows tokens={tokens} chains={chains} empty="No tokens yet." />
        {pages > 1 && (
          <nav className="pager" aria-label="Pages of tokens">
            {page > 1 ? (
              <a href={pageLink(page - 1)} rel="prev">
                Previous
              </a>
            ) : (
              <span />
            )}
            {page < pages && (
              <a href={pageLink(page + 1)} rel="next" data-testid="next-page">
                Next
              </a>
            )}
          </nav>
        )}
      </section>
    </>
  );
}
