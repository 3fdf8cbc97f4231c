// The results table of `npm run bench` and the JSON written beside it.
import type { Stats } from "./load";

export type ScenarioResult = {
  name: string;
  description: string;
  requestCount: number;
  http?: Stats;
  frameworkFloor?: Stats;
  dbFloor?: Stats;
  extraFloors: Array<{ name: string } & Stats>;
  metrics: Array<{ name: string; value: number | string; unit?: string }>;
  /** p50 − (db floor p50 + framework floor p50), ms, over the samples of every round */
  overheadP50?: number;
  /** the same, round by round (how much the figure moves from one round to the next) */
  roundOverheadsP50?: number[];
  error?: string;
};

const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? "-" : v.toFixed(2));
const pair = (s: Stats | undefined) => (s ? `${ms(s.p50)} / ${ms(s.p99)}` : "-");
const signed = (v: number | undefined) =>
  v === undefined || Number.isNaN(v) ? "-" : (v >= 0 ? "+" : "") + v.toFixed(2);

/** endpoint p50 − (db floor p50 + framework floor p50), ms; without a database floor, only the framework's */
export function overheadOf(http: Stats, frameworkFloor: Stats, dbFloor?: Stats): number {
  return Math.round((http.p50 - (dbFloor?.p50 ?? 0) - frameworkFloor.p50) * 1000) / 1000;
}

export function overhead(r: ScenarioResult): number | undefined {
  return r.http && r.frameworkFloor ? overheadOf(r.http, r.frameworkFloor, r.dbFloor) : undefined;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

export function renderTable(results: ScenarioResult[]): string {
  const rows = results.map((r) => {
    const failures = r.http?.failures ? ` (${r.http.failures} non-2xx!)` : "";
    return [
      r.name + (r.error ? " (failed)" : ""),
      ms(r.http?.p50),
      ms(r.http?.p99),
      r.http ? r.http.rps.toFixed(0) + failures : "-",
      pair(r.dbFloor),
      pair(r.frameworkFloor),
      signed(r.overheadP50),
      r.roundOverheadsP50?.length
        ? `${signed(Math.min(...r.roundOverheadsP50))} … ${signed(Math.max(...r.roundOverheadsP50))}`
        : "-",
    ];
  });
  const out = [
    table(
      [
        "scenario",
        "p50 ms",
        "p99 ms",
        "req/s",
        "db floor p50/p99",
        "framework floor p50/p99",
        "p50 − (db + fw) p50",
        "rounds: min … max",
      ],
      rows,
    ),
  ];
  const extras = results.flatMap((r) =>
    r.extraFloors.map((f) => [`${r.name}: ${f.name}`, ms(f.p50), ms(f.p99), f.rps.toFixed(0)]),
  );
  if (extras.length) out.push("", table(["extra floor", "p50 ms", "p99 ms", "ops/s"], extras));
  const metrics = results.flatMap((r) =>
    r.metrics.map((m) => [`${r.name}: ${m.name}`, `${m.value}${m.unit ? ` ${m.unit}` : ""}`]),
  );
  if (metrics.length) out.push("", table(["metric", "value"], metrics));
  const failed = results.filter((r) => r.error || r.http?.failures);
  for (const r of failed) {
    out.push(`\n${r.name}: ${r.error ?? `statuses ${JSON.stringify(r.http?.statuses)}`}`);
  }
  return out.join("\n");
}
