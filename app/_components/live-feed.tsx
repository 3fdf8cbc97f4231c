"use client";
// The live feed: every frame of GET /api/tokens/stream as it arrives (tokens, and the stream's own ready, gap and
// end notices), newest first. `chainId` in the page's URL filters the stream.
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { shortAddress } from "./api";
import { chainLabel, useChains } from "./chains";
import { TokenImage } from "./token-image";
import type { RowToken } from "./token-rows";
import { type StreamNotice, useTokenStream } from "./token-stream";

type Token = Omit<RowToken, "related">;
type Entry = { kind: "token"; token: Token; id: string; at: Date } | ({ kind: "notice" } & StreamNotice);

/** Entries kept on the page. */
const KEEP = 200;

export function LiveFeed() {
  const params = useSearchParams();
  const chainId = /^\d{1,10}$/.test(params.get("chainId") ?? "") ? params.get("chainId") : null;
  const [entries, setEntries] = useState<Entry[]>([]);
  const add = (e: Entry) => setEntries((list) => [e, ...list].slice(0, KEEP));
  const path = `/api/tokens/stream${chainId ? `?chainId=${chainId}` : ""}`;
  const state = useTokenStream<Token>(
    path,
    (token, id) => add({ kind: "token", token, id, at: new Date() }),
    (notice) => add({ kind: "notice", ...notice }),
  );
  const chains = useChains(entries.flatMap((e) => (e.kind === "token" ? [e.token.chain_id] : [])));
  const tokens = entries.filter((e) => e.kind === "token").length;

  return (
    <section className="card" aria-label="Live feed">
      <div className="list-head">
        <p className="sub">
          <span className="badge" data-testid="live-state">
            {state}
          </span>{" "}
          {tokens} new token{tokens === 1 ? "" : "s"} since this page opened · <code>GET {path}</code>
        </p>
      </div>
      <ul className="list" data-testid="live-feed">
        {entries.map((e) =>
          e.kind === "token" ? (
            <li key={e.id} className="fresh">
              <TokenImage
                src={e.token.img_url}
                chainId={e.token.chain_id}
                address={e.token.contract_address}
                symbol={e.token.symbol}
              />
              <div className="grow">
                <a href={`/tokens/${e.token.contract_address}?chainId=${e.token.chain_id}`}>
                  <bdi>{e.token.name}</bdi>{" "}
                  <span className="badge">
                    <bdi>{e.token.symbol}</bdi>
                  </span>
                </a>
                <div className="sub">
                  {chainLabel(chains, e.token.chain_id)} · deployed {new Date(e.token.deployed_at).toLocaleString()} ·
                  by {shortAddress(e.token.msg_sender)}
                </div>
              </div>
              <div className="num sub">{e.at.toLocaleTimeString()}</div>
            </li>
          ) : (
            <li key={`${e.event}-${e.at.getTime()}-${Math.random()}`} className="sub">
              <div className="grow">
                <span className="badge">{e.event}</span>{" "}
                {e.event === "gap" ? (
                  <>
                    missed events: <a href={String(e.data.list)}>read them from the list</a>
                  </>
                ) : e.event === "end" ? (
                  "the stream ended; reconnecting where it was"
                ) : (
                  "connected"
                )}
              </div>
              <div className="num">{e.at.toLocaleTimeString()}</div>
            </li>
          ),
        )}
        {!entries.length && <li className="sub">Waiting for new launches…</li>}
      </ul>
    </section>
  );
}
