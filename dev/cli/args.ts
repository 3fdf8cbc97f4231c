// The npm commands' argument reader: node:util parseArgs (strict) behind one spec per command, with --help.
import { writeSync } from "node:fs";
import { parseArgs } from "node:util";

export type CliOption = {
  type: "string" | "boolean";
  short?: string;
  /** The value's placeholder in the help (`--tokens <N>`). */
  value?: string;
  description: string;
};

export type CliSpec = {
  /** How a person runs it: `npm run db:seed`. */
  command: string;
  /** One line per form, after the command and npm's `--`; none for a command that takes no arguments. */
  synopsis?: readonly string[];
  /** What it does, shown under the usage. */
  description: string;
  options?: Readonly<Record<string, CliOption>>;
  /** The most words allowed beside the options (a subcommand and its arguments); 0 when left out. */
  positionals?: number;
  /** Words after `--` are a command the CLI runs (`rest`) rather than positionals. */
  rest?: boolean;
};

type Values<S extends CliSpec> = {
  [K in keyof NonNullable<S["options"]>]?: NonNullable<S["options"]>[K] extends { type: "boolean" } ? boolean : string;
};

export type CliArgs<S extends CliSpec = CliSpec> = { values: Values<S>; positionals: string[]; rest: string[] };

/** A command line the command cannot run: exit code 2, the message and the usage on stderr. */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(spec: CliSpec, problem: string) {
    super(`${problem}\n${usageLines(spec, "usage:")}\nRun \`${helpCommand(spec)}\` for every option.`);
    this.name = "UsageError";
  }
}

const HELP: CliOption = { type: "boolean", short: "h", description: "print this help and exit" };

function helpCommand(spec: CliSpec): string {
  return `${spec.command}${spec.command.startsWith("npm ") ? " --" : ""} --help`;
}

function usageLines(spec: CliSpec, heading: string): string {
  const forms = spec.synopsis?.length ? spec.synopsis : [""];
  const npm = spec.command.startsWith("npm ");
  const pad = " ".repeat(heading.length);
  return forms
    .map((form, i) => `${i ? pad : heading} ${spec.command}${form ? `${npm ? " --" : ""} ${form}` : ""}`)
    .join("\n");
}

/** The text `--help` prints: usage, description, options. */
export function helpText(spec: CliSpec): string {
  const options = { ...spec.options, help: HELP };
  const names = Object.entries(options).map(([name, option]) => {
    const long = `--${name}${option.type === "string" ? ` <${option.value ?? "value"}>` : ""}`;
    return [option.short ? `-${option.short}, ${long}` : `    ${long}`, option.description];
  });
  const width = Math.max(...names.map(([name]) => name.length));
  const rows = names.map(([name, description]) => `  ${name.padEnd(width)}  ${description}`);
  return `${usageLines(spec, "Usage:")}\n\n${spec.description}\n\nOptions:\n${rows.join("\n")}\n`;
}

/** Node's messages name the rule; these name the word the person typed. */
function problemOf(spec: CliSpec, args: string[], options: Record<string, CliOption>): string | undefined {
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  let positionals = 0;
  for (const token of tokens) {
    if (token.kind === "positional" && ++positionals > (spec.positionals ?? 0))
      return `unexpected argument ${token.value}`;
    if (token.kind !== "option") continue;
    const option = options[token.name];
    if (!option) return `unknown option ${token.rawName}`;
    if (option.type === "boolean" && token.value !== undefined) return `${token.rawName} takes no value`;
    if (option.type === "string" && (token.value === undefined || (!token.inlineValue && token.value.startsWith("-"))))
      return `${token.rawName} needs a value`;
  }
  return undefined;
}

/**
 * Reads `argv` against the spec. `null` means help was asked for (`--help` or `-h` anywhere before `--`, even
 * beside a mistake); a command line the spec refuses throws a UsageError.
 */
export function parseCli<S extends CliSpec>(spec: S, argv: readonly string[]): CliArgs<S> | null {
  const options: Record<string, CliOption> = { ...spec.options, help: HELP };
  const split = spec.rest ? argv.indexOf("--") : -1;
  const own = split === -1 ? [...argv] : argv.slice(0, split);
  const rest = split === -1 ? [] : argv.slice(split + 1);
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: own, options, allowPositionals: true, strict: true });
  } catch (error) {
    const { tokens } = parseArgs({ args: own, options, allowPositionals: true, strict: false, tokens: true });
    if (tokens.some((t) => t.kind === "option" && t.name === "help" && t.value === undefined)) return null;
    throw new UsageError(spec, problemOf(spec, own, options) ?? (error as Error).message);
  }
  if (parsed.values.help) return null;
  const problem = problemOf(spec, own, options);
  if (problem) throw new UsageError(spec, problem);
  const { help: _help, ...values } = parsed.values;
  return { values: values as Values<S>, positionals: parsed.positionals, rest };
}

/** Written synchronously: the process exits right after, and a pipe may be asynchronous (macOS). */
function exitWith(code: number, text: string): never {
  writeSync(code === 0 ? 1 : 2, text);
  process.exit(code);
}

/** Prints the problem and the usage on stderr and exits 2: for a value the command checks after reading it. */
export function refuse(spec: CliSpec, problem: string): never {
  exitWith(2, `${new UsageError(spec, problem).message}\n`);
}

/**
 * For a command's top level: prints the help and exits 0, or prints the problem and the usage and exits 2,
 * before the command does anything; otherwise returns the arguments.
 */
export function readCli<S extends CliSpec>(spec: S, argv: readonly string[] = process.argv.slice(2)): CliArgs<S> {
  let args: CliArgs<S> | null;
  try {
    args = parseCli(spec, argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    exitWith(error.exitCode, `${error.message}\n`);
  }
  return args ?? exitWith(0, helpText(spec));
}

/**
 * Runs a command that uses the database: reads its arguments first (help and refusals touch nothing), loads
 * the .env files, runs `main`, prints a clean message on failure (exit 2 for a UsageError, else 1) and closes
 * the database so the process exits.
 */
export async function runCommand<S extends CliSpec>(
  spec: S,
  main: (args: CliArgs<S>) => Promise<void>,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  const args = readCli(spec, argv);
  // The same .env files Next reads, so a command and the service it runs beside see one configuration.
  (await import("./next-process")).loadEnvFiles(process.env.NODE_ENV !== "production");
  const { closeDb } = await import("@/db");
  try {
    await main(args);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = error instanceof UsageError ? error.exitCode : 1;
  } finally {
    await closeDb();
  }
}
