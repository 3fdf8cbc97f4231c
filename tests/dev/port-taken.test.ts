// `npm run dev` and `npm start` on a port another server holds: one line naming the port and the way out, exit 1,
// before any migration or seed (the data directory stays empty), never Next's stack trace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const tsx = createRequire(import.meta.url).resolve("tsx/cli");
const dataDir = mkdtempSync(path.join(tmpdir(), "tls-port-"));
let holder: Server;
let port: number;

beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  port = (holder.address() as { port: number }).port;
});

afterAll(() => {
  holder.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function run(file: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "silent" };
  delete env.DATABASE_URL;
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, [tsx, file], { env, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe("a taken port", () => {
  it.each([
    ["dev/cli/dev.ts", "npm run dev"],
    ["dev/cli/start.ts", "npm start"],
  ])("%s says so in one line and exits 1 before touching the database", async (file, command) => {
    const res = await run(file);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `port ${port} is taken (by another server?): stop that server, or choose another: PORT=${port + 1} ${command}\n`,
    );
    expect(res.stdout).toBe("");
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
