// npm run agents -- ingest <file.jsonl> [--skip-invalid] [--enqueue] [--no-score] | score [--interval 24h|7d|30d]
import { agentsCommand } from "./agents-command";
import { runCommand } from "./args";

await runCommand(() => agentsCommand(process.argv.slice(2)));
