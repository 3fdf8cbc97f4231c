// npm run qstash:schedules -- [--url <https://host>] [--dry-run] [--all | --delete] | --build
import { readCli, runCommand } from "./args";
import { QSTASH_SCHEDULES_CLI, qstashSchedulesCommand } from "./qstash-schedules-command";

// The build step reads the production .env files, as `next build` and the migrations step do.
if (readCli(QSTASH_SCHEDULES_CLI).values.build)
  (process.env as Record<string, string | undefined>).NODE_ENV ??= "production";

// runCommand answers --help and refuses a bad command line before anything is read or sent.
await runCommand(QSTASH_SCHEDULES_CLI, async (args) => void (await qstashSchedulesCommand(args)));
