// Tiny argv reader shared by the npm-script commands: positionals and --flag value pairs.
/** `booleans` name the flags that never take a value, so `--skip-invalid file.jsonl` keeps its file. */
export function parseArgs(
  argv: readonly string[] = process.argv.slice(2),
  options: { booleans?: readonly string[] } = {},
): { positionals: string[]; flags: Record<string, string | true> } {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split("=", 2);
      if (inline !== undefined) flags[name] = inline;
      else if (options.booleans?.includes(name)) flags[name] = true;
      else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith("--")) flags[name] = argv[++i];
      else flags[name] = true;
    } else positionals.push(arg);
  }
  return { positionals, flags };
}

/** Runs a command's main, prints a clean message on failure, and closes the database so the process exits. */
export async function runCommand(main: () => Promise<void>): Promise<void> {
  // The same .env files Next reads, so a command and the service it runs beside see one configuration.
  (await import("./next-process")).loadEnvFiles(process.env.NODE_ENV !== "production");
  const { closeDb } = await import("@/db");
  try {
    await main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await closeDb();
  }
}
