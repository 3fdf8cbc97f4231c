// Runs `next dev` / `next start` as a child of the npm command: signals forwarded, children cleaned up.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { constants } from "node:os";

const STOP_GRACE_MS = 10_000;

/** Loads .env files exactly as Next will, so this command and the server it spawns read the same configuration. */
export function loadEnvFiles(dev: boolean): void {
  const require = createRequire(import.meta.url);
  const { loadEnvConfig } = require("@next/env") as typeof import("@next/env");
  loadEnvConfig(process.cwd(), dev, { info: () => {}, error: console.error });
}

/**
 * Throws a one-line error when `port` cannot be listened on (taken by another server, or privileged), naming the
 * way out, so the command stops before its migrations and seed rather than with Next's stack trace after them.
 */
export async function ensurePortFree(port: number, command: string): Promise<void> {
  const problem = await new Promise<string | null>((resolve) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) =>
      resolve(error.code === "EADDRINUSE" ? "is taken (by another server?)" : `cannot be used (${error.code})`),
    );
    // The address Next listens on: every interface, IPv6 and IPv4.
    probe.listen(port, () => probe.close(() => resolve(null)));
  });
  if (problem)
    throw new Error(`port ${port} ${problem}: stop that server, or choose another: PORT=${port + 1} ${command}`);
}

/**
 * Spawns `next <args>` with `env` and resolves with its exit code once it has exited and `cleanup` ran.
 * SIGINT/SIGTERM/SIGHUP are passed on (a terminal's Ctrl-C reaches both anyway); a child that does not stop
 * within 10 s is killed.
 */
export function runNext(args: string[], env: NodeJS.ProcessEnv, cleanup: () => Promise<void>): Promise<number> {
  const require = createRequire(import.meta.url);
  const child = spawn(process.execPath, [require.resolve("next/dist/bin/next"), ...args], { stdio: "inherit", env });
  let killTimer: NodeJS.Timeout | undefined;
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    killTimer ??= setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    killTimer.unref();
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) process.on(signal, forward);
  // If this process dies some other way, do not leave the server running.
  const killOnExit = () => child.kill("SIGKILL");
  process.on("exit", killOnExit);
  return new Promise((resolve) => {
    child.on("exit", async (code, signal) => {
      if (killTimer) clearTimeout(killTimer);
      for (const s of signals) process.off(s, forward);
      process.off("exit", killOnExit);
      try {
        await cleanup();
      } catch (error) {
        console.error("cleanup failed:", error);
      }
      resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 1) : 1));
    });
  });
}
