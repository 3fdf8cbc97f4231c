// npm run openapi:lint: writes the OpenAPI document to a temporary file and lints it with Redocly CLI's recommended
// rules (redocly.yaml names each exception), offline: no telemetry, no update check. Fails on any error or warning.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readCli } from "./args";
import { openApiDocument, writeDocument } from "./openapi-document";

readCli({
  command: "npm run openapi:lint",
  description:
    "Lints the OpenAPI document (/api/openapi.json, built from the route manifest) with Redocly CLI's recommended\nrules and redocly.yaml's exceptions. Exits 1 on any error or warning.",
});

type Problem = { ruleId: string; severity: string; message: string; location: { pointer?: string }[] };
type Report = { totals: { errors: number; warnings: number; ignored: number }; problems: Problem[] };

const dir = mkdtempSync(join(tmpdir(), "openapi-lint-"));
const file = join(dir, "openapi.json");
let failed = true;
try {
  writeDocument(await openApiDocument(), file);
  const cli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
  const run = spawnSync(
    process.execPath,
    [
      cli,
      "lint",
      file,
      "--config",
      join(process.cwd(), "redocly.yaml"),
      "--format",
      "json",
      "--max-problems",
      "1000",
      "--lint-config",
      "error",
    ],
    {
      encoding: "utf8",
      // Redocly's documented switches: no usage data is sent, and no version check asks the registry.
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  );
  let report: Report;
  try {
    report = JSON.parse(run.stdout) as Report;
  } catch {
    throw new Error(`redocly lint did not answer a report (exit ${run.status}):\n${run.stderr}${run.stdout}`);
  }
  for (const p of report.problems) {
    const where = p.location[0]?.pointer ?? "";
    console.log(`${p.severity === "error" ? "error  " : "warning"} ${p.ruleId}: ${p.message} at ${where}`);
  }
  const { errors, warnings, ignored } = report.totals;
  console.log(`OpenAPI lint (Redocly, recommended rules): ${errors} errors, ${warnings} warnings, ${ignored} ignored`);
  failed = errors + warnings > 0;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
