"use client";
// The agents' leaderboard (GET /api/droid/leaderboard) with each agent's runs over the scoring window as a
// sparkline (GET /api/droid/leaderboard/runs). The interval is in the URL (?interval=24h|7d|30d).
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { getJson } from "./api";
import { Sparkline } from "./charts";
import { isolated } from "./user-text";

type Row = {
  rank: number;
  agentId: string;
  agentName: string;
  token: { chainId: number; address: string; name: string; symbol: string };
  runs: { total: number; succeeded: number; failed: number };
  castMetrics: { casts: number; interactions: number };
  lastActiveAt: string;
  computedAt: string;
};
type Series = { agentId: string; succeeded: number[]; failed: number[] };

const INTERVALS = { "24h": "24 hours", "7d": "7 days", "30d": "30 days" } as const;
type Interval = keyof typeof INTERVALS;

export function LeaderboardView() {
  const params = useSearchParams();
  const router = useRouter();
  const path = usePathname();
  const asked = params.get("interval");
  const interval: Interval = asked && asked in INTERVALS ? (asked as Interval) : "7d";
  const [rows, setRows] = useState<Row[] | null>(null);
  const [series, setSeries] = useState<Map<string, Series>>(new Map());
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const ctrl = new AbortController();
    setRows(null);
    getJson<{ data: Row[] }>(`/api/droid/leaderboard?interval=${interval}&limit=50`, ctrl.signal)
      .then(async (page) => {
        setRows(page.data);
        setError(null);
        if (!page.data.length) return;
        const ids = page.data.map((r) => r.agentId).join(",");
        const runs = await getJson<{ agents: Series[] }>(
          `/api/droid/leaderboard/runs?interval=${interval}&agentIds=${encodeURIComponent(ids)}`,
          ctrl.signal,
        );
        setSeries(new Map(runs.agents.map((a) => [a.agentId, a])));
      })
      .catch((e: Error) => e.name !== "AbortError" && setError(e.message));
    return () => ctrl.abort();
  }, [interval]);

  return (
    <>
      <form className="card filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Scoring window
          <select
            name="interval"
            value={interval}
            onChange={(e) => router.push(`${path}?interval=${e.target.value}`, { scroll: false })}
          >
            {Object.entries(INTERVALS).map(([value, title]) => (
              <option key={value} value={value}>
                {title}
              </option>
            ))}
          </select>
        </label>
      </form>
      <section className="card" aria-busy={!rows && !error} aria-label="Agents">
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {rows && !rows.length && <p>No agent has been scored for this window yet.</p>}
        {rows && rows.length > 0 && (
          <div className="table-wrap">
            <table className="board" data-testid="leaderboard">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Runs</th>
                  <th scope="col">Runs over {INTERVALS[interval]}</th>
                  <th scope="col" className="hide-sm">
                    Casts
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => {
                  const s = series.get(r.agentId);
                  return (
                    <tr key={r.agentId}>
                      <td className="num">{r.rank}</td>
                      <td>
                        <div className="agent">
                          <bdi>{r.agentName}</bdi>
                        </div>
                        <a className="sub" href={`/tokens/${r.token.address}?chainId=${r.token.chainId}`}>
                          <bdi>{r.token.symbol}</bdi>
                        </a>
                      </td>
                      <td className="num">
                        {r.runs.total}
                        {r.runs.failed > 0 && <div className="sub down">{r.runs.failed} failed</div>}
                      </td>
                      <td>
                        {s ? (
                          <Sparkline
                            values={s.succeeded}
                            failed={s.failed}
                            label={`${isolated(r.agentName)}: ${s.succeeded.reduce((a, b) => a + b, 0)} succeeded and ${s.failed.reduce((a, b) => a + b, 0)} failed runs over ${INTERVALS[interval]}`}
                          />
                        ) : (
                          <span className="sub">…</span>
                        )}
                      </td>
                      <td className="num hide-sm">{r.castMetrics.casts}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {rows?.[0] && <p className="sub">Scored {new Date(rows[0].computedAt).toLocaleString()}</p>}
      </section>
    </>
  );
}
