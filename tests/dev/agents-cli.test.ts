// `npm run agents`: boolean flags never take the next word as their value (`ingest --skip-invalid file`),
// unknown options are refused before anything is read, and the real command ingests and scores a file.
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { db } from "@/db";
import { agentsCommand, parseAgentsArgs } from "@/dev/cli/agents-command";
import { startEmbeddedServer } from "@/db/embedded-server";
import { activity, agent, writeJsonLines } from "@/tests/unit/leaderboard/fixtures";

// The database is shared by the file's tests: each counts the rows of its own agents.
const count = async (table: "agents" | "agent_runs" | "agent_scores", agentIds: string[]) => {
  const column = table === "agents" ? "id" : "agent_id";
  const query = db()
    .selectFrom(table)
    .select(({ fn }) => fn.countAll().as("n"))
    .where(column, "in", agentIds);
  return Number((await query.executeTakeFirstOrThrow()).n);
};

afterEach(() => vi.restoreAllMocks());

describe("parseAgentsArgs", () => {
  it.each([
    [["ingest", "--skip-invalid", "a.jsonl"]],
    [["ingest", "a.jsonl", "--skip-invalid"]],
    [["--skip-invalid", "ingest", "a.jsonl"]],
  ])("keeps the file wherever a boolean flag stands: %o", (argv) => {
    expect(parseAgentsArgs(argv)).toEqual({
      command: "ingest",
      file: "a.jsonl",
      booleans: new Set(["skip-invalid"]),
      interval: undefined,
    });
  });

  it("reads every boolean flag and --interval's value, inline or as the next word", () => {
    const parsed = parseAgentsArgs(["ingest", "--enqueue", "--no-score", "a.jsonl", "--skip-invalid"]);
    expect(parsed.booleans).toEqual(new Set(["enqueue", "no-score", "skip-invalid"]));
    expect(parsed.file).toBe("a.jsonl");
    expect(parseAgentsArgs(["score", "--interval", "24h"]).interval).toBe("24h");
    expect(parseAgentsArgs(["score", "--interval=30d"]).interval).toBe("30d");
  });

  it.each([
    [["ingest", "--skip-invalids", "a.jsonl"], "unknown option --skip-invalids"],
    [["ingest", "a.jsonl", "b.jsonl"], "unexpected argument b.jsonl"],
    [["score", "--interval"], "--interval needs a value"],
  ])("refuses %o", (argv, message) => {
    expect(() => parseAgentsArgs(argv)).toThrow(message);
  });
});

describe("agentsCommand", () => {
  it("ingests the valid lines of a file with --skip-invalid before it, then scores every interval", async () => {
    vi.spyOn(process.stderr, "write").mockReturnValue(true);
    const errors = vi.spyOn(console, "error").mockReturnValue();
    const logs = vi.spyOn(console, "log").mockReturnValue();
    const file = writeJsonLines([
      agent(1),
      ...activity(1),
      { type: "run", agentId: "droid-001", id: "bad", at: "yesterday", outcome: "failed" },
      agent(2),
      ...activity(2),
    ]);
    await agentsCommand(["ingest", "--skip-invalid", file]);
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^line \d+: at/));
    expect(logs).toHaveBeenCalledWith(expect.stringContaining("2 agents, 3 runs"));
    expect(logs.mock.calls.map(([line]) => line).filter((l) => /^scored/.test(String(l)))).toEqual([
      "scored 24h: 2 agents ranked",
      "scored 7d: 2 agents ranked",
      "scored 30d: 2 agents ranked",
    ]);
    expect(await count("agents", ["droid-001", "droid-002"])).toBe(2);
    expect(await count("agent_runs", ["droid-001", "droid-002"])).toBe(3);
    expect(await count("agent_scores", ["droid-001", "droid-002"])).toBe(6);
  });

  it("writes nothing for an invalid line without --skip-invalid, or for an unknown option", async () => {
    vi.spyOn(process.stderr, "write").mockReturnValue(true);
    vi.spyOn(console, "error").mockReturnValue();
    const file = writeJsonLines([agent(3), ...activity(3), { type: "nope" }]);
    await expect(agentsCommand(["ingest", file, "--no-score"])).rejects.toThrow("1 invalid lines; nothing was written");
    await expect(agentsCommand(["ingest", "--skip-invalid=yes", file])).rejects.toThrow(
      "--skip-invalid takes no value",
    );
    await expect(agentsCommand(["score", "--interval", "1y"])).rejects.toThrow("usage:");
    expect(await count("agents", ["droid-003"])).toBe(0);
  });
});

describe("npm run agents (a separate process on the test database)", () => {
  afterAll(async () => (await startEmbeddedServer())?.stop());

  it("ingests `ingest --skip-invalid <file> --no-score` and exits 0", async () => {
    // Without DATABASE_URL the command reaches this process's embedded database through its server.
    await startEmbeddedServer();
    const file = writeJsonLines([agent(4), ...activity(4), "not json" as unknown as object]);
    const tsx = createRequire(import.meta.url).resolve("tsx/cli");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [tsx, "dev/cli/agents.ts", "ingest", "--skip-invalid", file, "--no-score"],
      {
        env: { ...process.env, LOG_LEVEL: "silent" },
        timeout: 60_000,
      },
    );
    expect(stdout).toMatch(/1 agents, 4 runs, 4 casts, 12 interactions/);
    expect(await count("agents", ["droid-004"])).toBe(1);
    expect(await count("agent_runs", ["droid-004"])).toBe(4);
    expect(await count("agent_scores", ["droid-004"])).toBe(0);
  }, 90_000);
});
