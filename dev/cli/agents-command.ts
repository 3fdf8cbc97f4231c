// `npm run agents`: ingest a JSON-lines file of agent records, or score the leaderboard. The entry point
// (dev/cli/agents.ts) only runs this with the process's arguments, so tests run the same command in process.
import type { LeaderboardInterval } from "@/db/tables/leaderboard";
import { type CliSpec, helpText, parseCli, UsageError } from "./args";

export const AGENTS_CLI = {
  command: "npm run agents",
  synopsis: ["ingest <file.jsonl> [--skip-invalid] [--enqueue] [--no-score]", "score [--interval 24h|7d|30d]"],
  description:
    "ingest: reads a JSON-lines file of agents, runs, casts and interactions (every line is validated before\n" +
    "anything is written), then scores the leaderboard. score: scores every interval, or the one given.",
  options: {
    "skip-invalid": { type: "boolean", description: "ingest: write the valid lines when some are invalid" },
    enqueue: {
      type: "boolean",
      description: "ingest: queue the activity as jobs (the schedules score it once they have run)",
    },
    "no-score": { type: "boolean", description: "ingest: do not score afterwards" },
    interval: { type: "string", value: "24h|7d|30d", description: "score: only this interval" },
  },
  positionals: 2,
} as const satisfies CliSpec;

type AgentsArgs = { command?: string; file?: string; booleans: Set<string>; interval?: string; help?: true };

/** Unknown flags, a value given to a flag that takes none, and extra words are refused (UsageError). */
export function parseAgentsArgs(argv: readonly string[]): AgentsArgs {
  const args = parseCli(AGENTS_CLI, argv);
  if (!args) return { booleans: new Set(), help: true };
  const [command, file] = args.positionals;
  const { interval, ...flags } = args.values;
  const booleans = new Set(Object.keys(flags).filter((name) => flags[name as keyof typeof flags] === true));
  return { command, file, booleans, interval };
}

// The leaderboard's modules are loaded by the subcommands, so --help and a refused command line stay light.
async function score(intervals: readonly LeaderboardInterval[]) {
  const { computeLeaderboard } = await import("@/lib/domains/leaderboard/compute");
  for (const interval of intervals) {
    const result = await computeLeaderboard(interval);
    console.log(`scored ${interval}: ${result.agents} agents ranked`);
  }
}

async function ingest(file: string, booleans: Set<string>, intervals: readonly LeaderboardInterval[]) {
  const { ingestFile } = await import("./agents-file");
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
  if (!booleans.has("no-score") && !report.jobs) await score(intervals);
}

export async function agentsCommand(argv: readonly string[]): Promise<void> {
  const { command, file, booleans, interval, help } = parseAgentsArgs(argv);
  if (help) return void process.stdout.write(helpText(AGENTS_CLI));
  if (command === "ingest") {
    if (!file) throw new UsageError(AGENTS_CLI, "ingest needs a file");
    if (interval !== undefined) throw new UsageError(AGENTS_CLI, "ingest takes no --interval");
  } else if (command === "score") {
    if (file) throw new UsageError(AGENTS_CLI, `unexpected argument ${file}`);
    if (booleans.size) throw new UsageError(AGENTS_CLI, `score takes no --${[...booleans][0]}`);
  } else throw new UsageError(AGENTS_CLI, command ? `unknown command ${command}` : "no command given");
  const { INTERVALS } = await import("@/lib/domains/leaderboard/scoring");
  if (command === "ingest") return ingest(file!, booleans, INTERVALS);
  if (interval !== undefined && !INTERVALS.includes(interval as LeaderboardInterval))
    throw new UsageError(AGENTS_CLI, `--interval must be one of ${INTERVALS.join(", ")}`);
  return score(interval ? [interval as LeaderboardInterval] : INTERVALS);
}
