// Ingests a JSON-lines file of agent records (`npm run agents -- ingest <file>`): validates every line
// first, writes the agents, then streams their activity in batches (directly, or as ingest jobs).
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { enqueue } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import { ingestRecords, type IngestCounts } from "@/lib/domains/leaderboard/ingest";
import { ingestAgentActivityJob, MAX_INGEST_BATCH } from "@/lib/domains/leaderboard/jobs";
import { parseRecordLine, type ActivityRecord } from "@/lib/domains/leaderboard/records";

export type FileIngestOptions = {
  skipInvalid?: boolean;
  enqueue?: boolean;
  batchSize?: number;
  onProgress?: (lines: number) => void;
};
export type FileIngestReport = IngestCounts & {
  lines: number;
  invalid: { line: number; error: string }[];
  jobs: number;
};

type Parsed = { line: number; raw?: unknown; record?: ActivityRecord; error?: string };

async function* readRecords(file: string): AsyncGenerator<Parsed> {
  const reader = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  let line = 0;
  for await (const text of reader) {
    line++;
    if (!text.trim()) continue;
    yield { line, ...parseRecordLine(text) };
  }
}

export async function ingestFile(file: string, options: FileIngestOptions = {}): Promise<FileIngestReport> {
  const batchSize = Math.min(options.batchSize ?? 2000, MAX_INGEST_BATCH);
  const report: FileIngestReport = { lines: 0, invalid: [], jobs: 0, agents: 0, runs: 0, casts: 0, interactions: 0 };
  const agents: ActivityRecord[] = [];
  // Pass 1: nothing is written unless every line is valid (or the caller accepts skipping bad ones).
  for await (const p of readRecords(file)) {
    report.lines = p.line;
    if (p.error) report.invalid.push({ line: p.line, error: p.error });
    else if (p.record!.type === "agent") agents.push(p.record!);
  }
  if (report.invalid.length && !options.skipInvalid) return report;
  // Agents are written first and directly, so activity batches (and jobs) never wait for them.
  for (let i = 0; i < agents.length; i += batchSize) add(report, await ingestRecords(agents.slice(i, i + batchSize)));

  let batch: Parsed[] = [];
  const flush = async () => {
    if (!batch.length) return;
    if (options.enqueue) {
      await enqueue(ingestAgentActivityJob, { records: batch.map((p) => p.raw) as never });
      report.jobs++;
    } else add(report, await ingestRecords(batch.map((p) => p.record!)));
    options.onProgress?.(batch[batch.length - 1].line);
    batch = [];
  };
  for await (const p of readRecords(file)) {
    if (p.error || p.record!.type === "agent") continue;
    batch.push(p);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  if (report.jobs) await dispatchJobs();
  return report;
}

function add(report: FileIngestReport, counts: IngestCounts) {
  report.agents += counts.agents;
  report.runs += counts.runs;
  report.casts += counts.casts;
  report.interactions += counts.interactions;
}
