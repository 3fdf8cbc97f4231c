// npm run agents -- ingest <file.jsonl> [--skip-invalid] [--enqueue] [--no-score] | score [--interval 24h|7d|30d]
import { computeLeaderboard } from "../leaderboard/compute";
import { ingestFile } from "../leaderboard/file";
import { INTERVALS } from "../leaderboard/scoring";
import type { LeaderboardInterval } from "../../db/tables/leaderboard";
import { parseArgs, runCommand } from "./args";

const usage =
  "usage: npm run agents -- ingest <file.jsonl> [--skip-invalid] [--enqueue] [--no-score]\n" +
  "       npm run agents -- score [--interval 24h|7d|30d]";

async function score(intervals: readonly LeaderboardInterval[]) {
  for (const interval of intervals) {
    const result = await computeLeaderboard(interval);
    console.log(`scored ${interval}: ${result.agents} agents ranked`);
  }
}

await runCommand(async () => {
  const { positionals, flags } = parseArgs();
  const [command, file] = positionals;
  if (command === "ingest" && file) {
    const report = await ingestFile(file, {
      skipInvalid: flags["skip-invalid"] === true,
      enqueue: flags.enqueue === true,
      onProgress: (line) => process.stderr.write(`\rline ${line}`),
    });
    process.stderr.write("\n");
    for (const bad of report.invalid.slice(0, 20)) console.error(`line ${bad.line}: ${bad.error}`);
    if (report.invalid.length > 20) console.error(`… and ${report.invalid.length - 20} more invalid lines`);
    if (report.invalid.length && flags["skip-invalid"] !== true) {
      throw new Error(`${report.invalid.length} invalid lines; nothing was written (--skip-invalid ingests the valid ones)`);
    }
    console.log(
      `${report.lines} lines: ${report.agents} agents, ${report.runs} runs, ${report.casts} casts, ${report.interactions} interactions` +
        (report.jobs ? ` (activity in ${report.jobs} queued jobs)` : ""),
    );
    if (flags["no-score"] !== true && !report.jobs) await score(INTERVALS);
  } else if (command === "score") {
    const interval = flags.interval;
    if (interval !== undefined && !INTERVALS.includes(interval as LeaderboardInterval)) throw new Error(usage);
    await score(interval ? [interval as LeaderboardInterval] : INTERVALS);
  } else {
    throw new Error(usage);
  }
});
