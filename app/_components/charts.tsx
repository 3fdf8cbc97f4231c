"use client";
// The explorer's pictures, as inline SVG drawn here (no chart library, no third party): a line chart over time,
// a progress bar against a goal, a share bar and a sparkline. Each is an image with a text alternative.
import { useEffect, useRef, useState } from "react";
import { usd } from "./api";

export type Point = { at: string; value: number | null };

const H = 200;
const PAD = { top: 12, right: 12, bottom: 24, left: 64 };

const dateLabel = (iso: string) => new Date(iso).toLocaleDateString("en-US", { month: "short", day: "numeric" });

/** A line (with its area) of values over time; the y axis labelled in USD at its low and high. */
export function LineChart({ points, label }: { points: Point[]; label: string }) {
  // Drawn at the width it is shown at (not stretched), so its labels keep their shape at any width.
  const box = useRef<HTMLElement>(null);
  const [W, setW] = useState(600);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setW(Math.max(200, Math.round(entry.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const known = points.filter((p): p is { at: string; value: number } => p.value !== null && Number.isFinite(p.value));
  if (known.length < 2)
    return (
      <figure className="chart" ref={box}>
        <p className="sub">Not enough history yet.</p>
      </figure>
    );
  const times = known.map((p) => new Date(p.at).getTime());
  const values = known.map((p) => p.value);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  let [lo, hi] = [Math.min(...values), Math.max(...values)];
  if (hi === lo) [lo, hi] = [lo * 0.9, hi * 1.1 || 1];
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0 || 1)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  const line = known.map((p, i) => `${i ? "L" : "M"}${x(times[i]).toFixed(1)},${y(p.value).toFixed(1)}`).join("");
  const base = (H - PAD.bottom).toFixed(1);
  const area = `${line}L${x(t1).toFixed(1)},${base}L${x(t0).toFixed(1)},${base}Z`;
  const first = values[0];
  const last = values[values.length - 1];
  const change = first ? ((last - first) / first) * 100 : 0;
  const summary = `${label} from ${dateLabel(known[0].at)} to ${dateLabel(known[known.length - 1].at)}: ${usd(first)} to ${usd(last)} (${change >= 0 ? "+" : ""}${change.toFixed(1)} %), low ${usd(Math.min(...values))}, high ${usd(Math.max(...values))}`;
  return (
    <figure className="chart" ref={box}>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={summary}>
        <title>{summary}</title>
        {[hi, (hi + lo) / 2, lo].map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="grid" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="axis">
              {usd(v)}
            </text>
          </g>
        ))}
        <path d={area} className={change >= 0 ? "area up" : "area down"} />
        <path d={line} className={change >= 0 ? "line up" : "line down"} />
        <text x={PAD.left} y={H - 6} className="axis">
          {dateLabel(known[0].at)}
        </text>
        <text x={W - PAD.right} y={H - 6} textAnchor="end" className="axis">
          {dateLabel(known[known.length - 1].at)}
        </text>
      </svg>
      <figcaption className="sub">{summary}</figcaption>
    </figure>
  );
}

/** A bar filled to `value` of `max`, with marks at `marks` (e.g. a minimum goal), labelled by `children`. */
export function ProgressBar({
  value,
  max,
  marks = [],
  label,
}: {
  value: number;
  max: number;
  marks?: { at: number; label: string }[];
  label: string;
}) {
  const share = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  return (
    <div className="progress">
      <div
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
        aria-valuetext={label}
      >
        <div className="progress-fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
        {marks.map((m) => (
          <div
            key={m.label}
            className="progress-mark"
            style={{ left: `${Math.min(100, (m.at / (max || 1)) * 100).toFixed(1)}%` }}
            title={m.label}
          />
        ))}
      </div>
      <div className="sub">{label}</div>
    </div>
  );
}

/** A small line of counts (oldest first), drawn to fit a table cell; failed runs as a second, red line. */
export function Sparkline({ values, failed, label }: { values: number[]; failed?: number[]; label: string }) {
  const w = 120;
  const h = 28;
  const max = Math.max(1, ...values, ...(failed ?? []));
  const path = (xs: number[]) =>
    xs
      .map(
        (v, i) =>
          `${i ? "L" : "M"}${((i / Math.max(1, xs.length - 1)) * (w - 2) + 1).toFixed(1)},${(h - 2 - (v / max) * (h - 4)).toFixed(1)}`,
      )
      .join("");
  return (
    <svg className="spark" viewBox={`0 0 ${w} ${h}`} width={w} height={h} role="img" aria-label={label}>
      <title>{label}</title>
      {failed?.some((v) => v > 0) && <path d={path(failed)} className="spark-failed" />}
      <path d={path(values)} className="spark-line" />
    </svg>
  );
}
