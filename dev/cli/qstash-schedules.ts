// npm run qstash:schedules -- [--url <https://host>] [--dry-run] [--all | --delete]
import { runCommand } from "./args";
import { QSTASH_SCHEDULES_CLI, qstashSchedulesCommand } from "./qstash-schedules-command";

// runCommand answers --help and refuses a bad command line before anything is read or sent.
await runCommand(QSTASH_SCHEDULES_CLI, async (args) => void (await qstashSchedulesCommand(args)));
