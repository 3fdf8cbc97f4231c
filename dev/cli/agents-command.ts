// `npm run agents`: ingest a JSON-lines file of agent records, or score the leaderboard. The entry point
// (dev/cli/agents.ts) only runs this with the process's arguments, so tests run the same command in process.
import type { LeaderboardInterval } from "@/db/tables/leaderboard";
import { parseArgs } from "./args";
import { computeLeaderboard } from "@/lib/domains/leaderboard/compute";
import { ingestFile } from "./agents-file";
import { INTERVALS } from "@/lib/domains/leaderboard/scoring";

export const AGENTS_USAGE =
  "usage: npm run agents -- ingest <file.jsonl> [--skip-invalid] [--enqueue] [--no-score]\n" +
  "       npm run agents -- score [--interval 24h|7d|30d]";

const BOOLEAN_FLAGS = ["skip-invalid", "enqueue", "no-score"];
const VALUE_FLAGS = ["interval"];

type AgentsArgs = { command?: string; file?: string; booleans: Set<string>; interval?: string };

/** Unknown flags, a value given to a flag that takes none, and extra words are refused. */
export function parseAgentsArgs(argv: readonly string[]): AgentsArgs {
  const { positionals, flags } = parseArgs(argv, { booleans: BOOLEAN_FLAGS });
  const unknown = Object.keys(flags).find((name) => !BOOLEAN_FLAGS.includes(name) && !VALUE_FLAGS.includes(name));
  if (unknown !== undefined) throw new Error(`unknown option --${unknown}\n${AGENTS_USAGE}`);
  const valued = BOOLEAN_FLAGS.find((name) => typeof flags[name] === "string");
  if (valued !== undefined) throw new Error(`--${valued} takes no value\n${AGENTS_USAGE}`);
  if (flags.interval === true) throw new Error(`--interval needs a value\n${AGENTS_USAGE}`);
  const [command, file, ...extra] = positionals;
  if (extra.length) throw new Error(`unexpected argument ${extra[0]}\n${AGENTS_USAGE}`);
  const booleans = new Set(BOOLEAN_FLAGS.filter((name) => flags[name] === true));
  return { command, file, booleans, interval: flags.interval as string | undefined };
}

async function score(intervals: readonly LeaderboardInterval[]) {
  for (const interval of intervals) {
    const result = await computeLeaderboard(interval);
    console.log(`scored ${interval}: ${result.agents} agents ranked`);
  }
}

async function ingest(file: string, booleans: Set<string>) {
  const skipInvalid = booleans.has("skip-invalid");
  const report = await ingestFile(file, {
    skipInvalid,
    enqueue: booleans.has("enqueue"),
    onProgress: (line) => process.stderr.write(`\rline ${line}`),
  });
  process.stderr.write("\n");
  for (const bad of report.invalid.slice(0, 20)) console.error(`line ${bad.line}: ${bad.error}`);
  if (report.invalid.length > 20) console.error(`… and ${report.invalid.length - 20} more invalid lines`);
  if (report.invalid.length && !skipInvalid) {
    throw new Error(
      `${report.invalid.length} invalid lines; nothing was written (--skip-invalid ingests the valid ones)`,
    );
  }
  console.log(
    `${report.lines} lines: ${report.agents} agents, ${report.runs} runs, ${report.casts} casts, ${report.interactions} interactions` +
      (report.jobs ? ` (activity in ${report.jobs} queued jobs)` : ""),
  );
  // Queued activity is scored by the schedules once the jobs have run.
  if (!booleans.has("no-score") && !report.jobs) await score(INTERVALS);
}

export async function agentsCommand(argv: readonly string[]): Promise<void> {
  const { command, file, booleans, interval } = parseAgentsArgs(argv);
  if (command === "ingest" && file && interval === undefined) return ingest(file, booleans);
  if (command === "score" && !file && booleans.size === 0) {
    if (interval !== undefined && !INTERVALS.includes(interval as LeaderboardInterval)) throw new Error(AGENTS_USAGE);
    return score(interval ? [interval as LeaderboardInterval] : INTERVALS);
  }
  throw new Error(AGENTS_USAGE);
}
