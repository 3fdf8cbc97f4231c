// npm run agents -- ingest <file.jsonl> [--skip-invalid] [--enqueue] [--no-score] | score [--interval 24h|7d|30d]
import { AGENTS_CLI, agentsCommand } from "./agents-command";
import { runCommand } from "./args";

// runCommand answers --help and refuses a bad command line before the database is opened.
await runCommand(AGENTS_CLI, () => agentsCommand(process.argv.slice(2)));
