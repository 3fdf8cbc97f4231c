// The figures of tests/reliability/measure/launch-latency.measure.ts and their section of docs/BENCH.md. In a module
// of its own: a test file exports nothing (importing one would run its tests again).
import path from "node:path";
import { writeSection } from "../../bench/report";

type Percentiles = { p50: number | null; p95: number | null; p99: number | null };
type Rate = { total: number; byMethod: Record<string, number> };

export type LaunchLatency = {
  at: string;
  commit: string | null;
  blockMs: number;
  intervalMs: number;
  streamPollMs: number;
  tokens: number;
  deployEveryMs: number;
  listMs: Percentiles;
  streamMs: Percentiles;
  maxListMs: number;
  rpcPerMinute: { idle: Rate; load: Rate };
  passed: boolean;
  failures: string[];
};

const HEADING = "## Launch latency";
export const BENCH_DOCUMENT = path.resolve(import.meta.dirname, "../../../docs/BENCH.md");

const ms = (v: number | null) => (v === null ? "–" : String(v));
const methods = (r: Rate) =>
  Object.entries(r.byMethod)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([m, n]) => `${m} ${n}`)
    .join(", ");

/** The section: how it was run, the latencies, the RPC requests a minute. */
export function renderLaunchLatency(f: LaunchLatency): string {
  return [
    HEADING,
    "",
    `Written by \`npm run reliability\` (tests/reliability/measure/launch-latency.measure.ts), run of ${f.at}` +
      `${f.commit ? ` on commit ${f.commit}` : ""}; \`npm run bench\` rewrites the sections above and keeps this one. ` +
      "A block every " +
      `${f.blockMs} ms on the local chain, ${f.tokens} tokens deployed straight at the factory, one every ` +
      `${f.deployEveryMs} ms; the head follower as on a self-hosted server (\`HEAD_FOLLOW_INTERVAL_MS=${f.intervalMs}\`, ` +
      `\`STREAM_POLL_MS=${f.streamPollMs}\`). Latency: from the block being mined to the token's first sight, in ms.`,
    "",
    "| served by | p50 | p95 | p99 | goal p95 | met |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    `| GET /api/tokens (polled every 100 ms) | ${ms(f.listMs.p50)} | ${ms(f.listMs.p95)} | ${ms(f.listMs.p99)} | 5000 | ${f.listMs.p95 !== null && f.listMs.p95 <= 5000 ? "yes" : "no"} |`,
    `| GET /api/tokens/stream | ${ms(f.streamMs.p50)} | ${ms(f.streamMs.p95)} | ${ms(f.streamMs.p99)} | 5000 | ${f.streamMs.p95 !== null && f.streamMs.p95 <= 5000 ? "yes" : "no"} |`,
    "",
    "RPC requests a minute to the chain, by method:",
    "",
    "| state | requests a minute | by method |",
    "| --- | ---: | --- |",
    `| idle (blocks, no tokens) | ${f.rpcPerMinute.idle.total} | ${methods(f.rpcPerMinute.idle)} |`,
    `| under the load | ${f.rpcPerMinute.load.total} | ${methods(f.rpcPerMinute.load)} |`,
    "",
  ].join("\n");
}

/** Puts the section in docs/BENCH.md: in place of the one there, else at the end. */
export function writeLaunchLatency(f: LaunchLatency, document = BENCH_DOCUMENT): void {
  writeSection(document, renderLaunchLatency(f));
}
