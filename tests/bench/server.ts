// The server under test: `next build`, `next start` on a free port in its own process group, readiness
// through /api/ping, memory of its process tree from /proc, and a stop that never leaves it behind.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, openSync, readdirSync, readFileSync, writeFileSync, closeSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { prepareDistDir } from "@/dev/cli/dist-dir";
import type { ServerProcess } from "./scenarios/types";

const root = path.resolve(import.meta.dirname, "../..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");

export function buildIsPresent(): boolean {
  return existsSync(path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"));
}

export async function nextBuild(): Promise<void> {
  // A build into NEXT_DIST_DIR type-checks with that directory's own tsconfig (next.config.mjs).
  prepareDistDir(process.env.NEXT_DIST_DIR || ".next", root);
  const child = spawn(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`next build failed (exit ${code})`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Pids of a process and all its descendants (next start may fork workers). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]) ?? []));
  return out;
}

function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

export type RunningServer = ServerProcess & {
  baseUrl: string;
  logFile: string;
  /** Sends a signal to every process of the server (SIGUSR2 starts and stops the profiler of a profiled one). */
  signal(name: NodeJS.Signals): void;
  stop(): Promise<void>;
};

const PROFILER = path.join(import.meta.dirname, "profile/preload.cjs");

/**
 * `next start` on the port. With `profileDir`, every process of the server loads the profiler
 * (profile/preload.cjs), which writes its profiles there.
 */
export async function startServer(
  port: number,
  env: NodeJS.ProcessEnv,
  logFile: string,
  profileDir?: string,
): Promise<RunningServer> {
  const log = openSync(logFile, "a");
  const profiling = profileDir
    ? { NODE_OPTIONS: `${env.NODE_OPTIONS ?? ""} --require ${PROFILER}`.trim(), BENCH_PROFILE_DIR: profileDir }
    : {};
  const child: ChildProcess = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...env, ...profiling, PORT: String(port), NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", log, log],
    detached: true, // its own process group: stop() ends it and whatever it forked
  });
  closeSync(log);
  const pid = child.pid!;
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.on("exit", () => {
      exited = true;
      resolve();
    }),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const memory = () => {
    const pids = processTree(pid);
    return {
      rssBytes: pids.reduce((sum, p) => sum + statusKb(p, "VmRSS"), 0) * 1024,
      peakRssBytes: pids.reduce((sum, p) => sum + statusKb(p, "VmHWM"), 0) * 1024,
    };
  };
  const server: RunningServer = {
    pid,
    baseUrl,
    logFile,
    memory,
    resetPeak() {
      try {
        for (const p of processTree(pid)) writeFileSync(`/proc/${p}/clear_refs`, "5");
        return true;
      } catch {
        return false;
      }
    },
    signal(name) {
      process.kill(-pid, name);
    },
    async sampleMemory(fn) {
      let peak = memory().rssBytes;
      const timer = setInterval(() => (peak = Math.max(peak, memory().rssBytes)), 20);
      try {
        const result = await fn();
        return { result, peakRssBytes: Math.max(peak, memory().rssBytes) };
      } finally {
        clearInterval(timer);
      }
    },
    async stop() {
      if (exited) return;
      try {
        process.kill(-pid, "SIGTERM");
      } catch {
        return;
      }
      const killed = await Promise.race([
        exit.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 5000)),
      ]);
      if (!killed) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    },
  };
  await waitForPing(baseUrl, () => exited, 90_000);
  return server;
}

async function waitForPing(baseUrl: string, exited: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited()) throw new Error("the server exited before answering /api/ping (see its log)");
    try {
      const res = await fetch(`${baseUrl}/api/ping`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer /api/ping within ${timeoutMs / 1000} s`);
}
