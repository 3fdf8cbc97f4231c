// Every npm command explains itself: `--help` prints its usage and exits 0 having done nothing, and an unknown
// option is refused with the usage on stderr and exit code 2. The commands run as child processes, in parallel.
import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { type CliSpec, helpText, parseCli, UsageError } from "@/dev/cli/args";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every package.json script that runs a TypeScript file with tsx, by script name. */
const scripts = Object.entries(
  (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts,
).flatMap(([name, script]) => {
  const file = /^tsx (\S+\.ts)$/.exec(script)?.[1];
  return file ? [{ name, file, command: name === "start" ? "npm start" : `npm run ${name}` }] : [];
});

/** What a command writes when it runs for real: none of it may change. */
const WATCHED = [
  "app/_openapi/routes.generated.ts",
  "dev/chain/artifacts",
  "docs/reliability.md",
  "tests/reliability/results",
  "tests/bench/results",
  "tests/e2e/artifacts",
  "tests/api/typed-client",
];

function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of WATCHED) {
    const full = path.join(ROOT, rel);
    if (!existsSync(full)) continue;
    const stat = statSync(full);
    out[rel] = `${stat.mtimeMs}`;
    if (stat.isDirectory())
      for (const entry of readdirSync(full)) out[`${rel}/${entry}`] = `${statSync(path.join(full, entry)).mtimeMs}`;
  }
  return out;
}

type Run = { code: number | null; stdout: string; stderr: string; dataDir: string[] };

/** Runs `node --import tsx <file> <args>` with a DATA_DIR of its own and no DATABASE_URL. */
function run(file: string, args: string[]): Promise<Run> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tls-cli-help-"));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent", NODE_OPTIONS: "" };
  delete env.DATABASE_URL;
  delete env.RPC_URL_8453;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", file, ...args],
      { cwd: ROOT, env, timeout: 300_000 },
      (error, stdout, stderr) => {
        const written = readdirSync(dataDir);
        rmSync(dataDir, { recursive: true, force: true });
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr, dataDir: written });
      },
    );
  });
}

/** Runs every case, a few at a time (each is a Node process loading tsx; the machine may have two cores). */
async function runAll<T>(cases: T[], one: (c: T) => Promise<Run>): Promise<Run[]> {
  const results: Run[] = new Array(cases.length);
  let next = 0;
  const lane = async () => {
    while (next < cases.length) {
      const i = next++;
      results[i] = await one(cases[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, Math.max(4, availableParallelism() * 2)) }, lane));
  return results;
}

describe("npm commands", () => {
  it("are all found in package.json", () => {
    expect(scripts.map((s) => s.name).sort()).toEqual(
      expect.arrayContaining([
        "agents",
        "apikey",
        "bench",
        "chain",
        "contracts:compile",
        "db:migrate",
        "db:seed",
        "dev",
        "dev:token",
        "openapi:manifest",
        "reliability",
        "start",
        "test:e2e",
        "tokens",
        "trust",
      ]),
    );
  });

  it("answer --help and -h with their usage, exit 0 and do nothing; refuse an unknown option with exit 2", async () => {
    const before = snapshot();
    const cases = [
      ...scripts.map((s) => ({ ...s, args: ["--help"], kind: "help" as const })),
      ...scripts.map((s) => ({ ...s, args: ["--no-such-option"], kind: "refused" as const })),
      // Help wins wherever it stands: after a subcommand, beside a mistake, in its short form.
      ...scripts
        .filter((s) => s.name === "apikey")
        .map((s) => ({ ...s, args: ["list", "--bogus", "-h"], kind: "help" as const })),
    ];
    const results = await runAll(cases, (c) => run(c.file, c.args));
    const failures: string[] = [];
    cases.forEach((c, i) => {
      const { code, stdout, stderr, dataDir } = results[i];
      const what = `${c.command} ${c.args.join(" ")}`;
      const shown = `exit ${code}\nstdout: ${stdout.slice(0, 400)}\nstderr: ${stderr.slice(0, 800)}`;
      if (dataDir.length) failures.push(`${what}: wrote ${dataDir.join(", ")} into DATA_DIR`);
      if (c.kind === "help") {
        if (code !== 0 || !stdout.startsWith(`Usage: ${c.command}`) || !/\n {2}-h, --help {2}/.test(stdout))
          failures.push(`${what}: expected the help and exit 0\n${shown}`);
      } else if (code !== 2 || stdout !== "" || !/^unknown option --no-such-option\nusage: /.test(stderr)) {
        failures.push(`${what}: expected the refusal and exit 2\n${shown}`);
      } else if (!stderr.includes(`usage: ${c.command}`)) failures.push(`${what}: the usage names another command`);
    });
    expect(failures).toEqual([]);
    expect(snapshot()).toEqual(before);
  }, 600_000); // well under a minute on two idle cores; much longer when the machine is shared
});

describe("parseCli", () => {
  const spec = {
    command: "npm run example",
    synopsis: ["do <thing> [--count N] [--dry-run]"],
    description: "An example.",
    options: {
      count: { type: "string", value: "N", description: "how many" },
      "dry-run": { type: "boolean", short: "n", description: "change nothing" },
    },
    positionals: 2,
  } as const satisfies CliSpec;
  const withRest = { ...spec, positionals: 0, rest: true } as const satisfies CliSpec;

  it("reads options (inline, next word, short) and positionals in any order", () => {
    expect(parseCli(spec, ["--count", "3", "do", "-n", "it"])).toEqual({
      values: { count: "3", "dry-run": true },
      positionals: ["do", "it"],
      rest: [],
    });
    expect(parseCli(spec, ["do", "--count=4"])?.values).toEqual({ count: "4" });
  });

  it("hands the words after -- over as the command to run when the spec takes one", () => {
    expect(parseCli(withRest, ["-n", "--", "next", "dev", "--help"])).toEqual({
      values: { "dry-run": true },
      positionals: [],
      rest: ["next", "dev", "--help"],
    });
  });

  it("answers null for --help or -h, even beside a mistake", () => {
    expect(parseCli(spec, ["--help"])).toBeNull();
    expect(parseCli(spec, ["do", "-h"])).toBeNull();
    expect(parseCli(spec, ["--bogus", "a", "b", "c", "--help"])).toBeNull();
  });

  it.each([
    [["--bogus"], "unknown option --bogus"],
    [["-x"], "unknown option -x"],
    [["--count"], "--count needs a value"],
    [["--count", "--dry-run"], "--count needs a value"],
    [["--dry-run=yes"], "--dry-run takes no value"],
    [["a", "b", "c"], "unexpected argument c"],
    [["--help=yes"], "--help takes no value"],
  ])("refuses %o: %s, with the usage", (argv, problem) => {
    expect(() => parseCli(spec, argv)).toThrow(UsageError);
    expect(() => parseCli(spec, argv)).toThrow(
      `${problem}\nusage: npm run example -- do <thing> [--count N] [--dry-run]`,
    );
  });

  it("refuses words after -- when the spec runs no command", () => {
    expect(() => parseCli({ ...spec, positionals: 0 }, ["--", "x"])).toThrow("unexpected argument x");
  });

  it("prints the usage, the description and every option with its value", () => {
    expect(helpText(spec)).toBe(
      [
        "Usage: npm run example -- do <thing> [--count N] [--dry-run]",
        "",
        "An example.",
        "",
        "Options:",
        "      --count <N>  how many",
        "  -n, --dry-run    change nothing",
        "  -h, --help       print this help and exit",
        "",
      ].join("\n"),
    );
  });
});
