// One-line JSON logs on stdout; details of internal errors go here and never into a response.
import { config } from "./config";
import { bigintAsString } from "./json";

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, "silent">;

function write(level: Level, message: string, fields?: Record<string, unknown>) {
  if (levels[level] < levels[config().LOG_LEVEL]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }, (key, v) =>
    v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : bigintAsString(key, v),
  );
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(`${line}\n`);
}

export const log = {
  debug: (m: string, f?: Record<string, unknown>) => write("debug", m, f),
  info: (m: string, f?: Record<string, unknown>) => write("info", m, f),
  warn: (m: string, f?: Record<string, unknown>) => write("warn", m, f),
  error: (m: string, f?: Record<string, unknown>) => write("error", m, f),
};
