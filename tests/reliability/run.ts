// npm run reliability [-- --skip-quick] [-- --faults] [-- --hostile] [-- --soak]: the quick part (hostile input +
// access, as in CI, and deploy latency beside black-hole webhook receivers) and, when asked, the database faults,
// hostile uploaders against the built server, and the 5-minute soak; then regenerates docs/reliability.md from
// every stored result. Each part prints one closing line ("reliability <part>: N passed, M failed") with its failed
// checks, and the command exits 1 when any check of a part run now failed (or the part could not run).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readCli } from "@/dev/cli/args";
import type { FaultResult } from "./faults";
import type { Check, HostileResult } from "./hostile";
import type { WebhookLatency } from "./measure/webhook-latency";
import type { SoakResult } from "./soak";

const root = process.cwd();
const results = path.join(root, "tests/reliability/results");
const { values: parts } = readCli({
  command: "npm run reliability",
  synopsis: ["[--skip-quick] [--faults] [--hostile] [--soak]"],
  description:
    "Runs the quick part (hostile input and access suites, deploy latency beside black-hole webhook receivers)\n" +
    "and the parts asked for, then regenerates docs/reliability.md from every stored result; exits 1 when a\n" +
    "check of a part run now failed. Details: docs/testing.md (Reliability and security).",
  options: {
    "skip-quick": { type: "boolean", description: "leave out the quick part" },
    faults: { type: "boolean", description: "database faults through a cuttable proxy (RELIABILITY_DATABASE_URL)" },
    hostile: { type: "boolean", description: "hostile uploaders against the built server (`npm run build` first)" },
    soak: { type: "boolean", description: "the 5-minute soak on the bench database (BENCH_DATABASE_URL)" },
  },
});
const args = new Set(
  Object.entries(parts)
    .filter(([, on]) => on)
    .map(([name]) => `--${name}`),
);
mkdirSync(results, { recursive: true });
const databaseUrl = process.env.RELIABILITY_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

type Tally = {
  requests: number;
  writesRejected: number;
  writesChecked?: number;
  fiveHundreds: number;
  allowed503: number;
  findings: unknown[];
};
type Quick = {
  at: string;
  passed: boolean;
  reads: Tally | null;
  writes: Tally | null;
  accessPassed: boolean;
  webhooks?: WebhookLatency | null;
  checks?: Check[];
};
type Faults = { at: string; faults: FaultResult[]; passed?: boolean };

function read<T>(name: string): T | null {
  const file = path.join(results, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T) : null;
}

const closing: { part: string; checks: Check[] }[] = [];

/** Runs one part; a part that throws counts as one failed check, and the other parts still run. */
async function part(name: string, run: () => Promise<Check[]>) {
  let checks: Check[];
  try {
    checks = await run();
  } catch (error) {
    checks = [
      {
        name: "ran to the end",
        passed: false,
        detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
      },
    ];
  }
  closing.push({ part: name, checks });
}

if (!args.has("--skip-quick")) {
  await part("quick", async () => {
    const out = path.join(tmpdir(), `tls-reliability-${process.pid}`);
    rmSync(out, { recursive: true, force: true });
    const vitest = (extra: string[]) =>
      spawnSync("npx", ["vitest", "run", ...extra], { stdio: "inherit", env: { ...process.env, RELIABILITY_OUT: out } })
        .status === 0;
    const fuzzPassed = vitest(["tests/security/hostile-input.test.ts", "tests/security/hostile-writes.test.ts"]);
    const accessPassed = vitest(["tests/security/access.test.ts"]);
    const measurePassed = vitest(["--config", "tests/reliability/vitest.config.ts"]);
    const load = <T>(n: string) =>
      existsSync(path.join(out, `${n}.json`))
        ? (JSON.parse(readFileSync(path.join(out, `${n}.json`), "utf8")) as T)
        : null;
    const reads = load<Tally>("reads");
    const writes = load<Tally>("writes");
    const webhooks = load<WebhookLatency>("webhooks");
    rmSync(out, { recursive: true, force: true });
    const tallies = [reads, writes].filter((t): t is Tally => t !== null);
    const unexpected5xx = tallies.reduce((n, t) => n + t.fiveHundreds - t.allowed503, 0);
    const findings = tallies.reduce((n, t) => n + t.findings.length, 0);
    const checks: Check[] = [
      {
        name: "hostile input suites (reads, writes)",
        passed: fuzzPassed,
        detail: fuzzPassed ? "vitest passed" : "vitest failed (its output is above)",
      },
      {
        name: "auth and access suite",
        passed: accessPassed,
        detail: accessPassed ? "vitest passed" : "vitest failed (its output is above)",
      },
      {
        name: "both tallies written",
        passed: reads !== null && writes !== null,
        detail: `${reads ? "reads" : "no reads"}, ${writes ? "writes" : "no writes"}`,
      },
      { name: "no 5xx but the documented 503s", passed: unexpected5xx === 0, detail: `${unexpected5xx} unexpected` },
      {
        name: "no invariant violation (envelope, no-store, leaks, 5xx, rows changed by a rejected write)",
        passed: findings === 0,
        detail: `${findings} finding(s)`,
      },
      {
        name: "every rejected write compared",
        passed: !writes || writes.writesChecked === undefined || writes.writesChecked === writes.writesRejected,
        detail: writes ? `${writes.writesChecked} of ${writes.writesRejected}` : "-",
      },
      {
        name: "deploy latency beside 40 black-hole webhook receivers",
        passed: measurePassed && webhooks?.passed === true,
        detail: webhooks
          ? webhooks.failures.join("; ") ||
            `median ${webhooks.loadedMedianMs} ms vs ${webhooks.usualMedianMs} ms (bound ${webhooks.boundMs} ms)`
          : "no figures written (vitest output above)",
      },
    ];
    const quick: Quick = {
      at: new Date().toISOString(),
      passed: checks.every((c) => c.passed),
      reads,
      writes,
      accessPassed,
      webhooks,
      checks,
    };
    writeFileSync(path.join(results, "quick.json"), JSON.stringify(quick, null, 2));
    return checks;
  });
}
if (args.has("--faults")) {
  await part("faults", async () => {
    const { runDatabaseFaults } = await import("./faults");
    const faults = await runDatabaseFaults(databaseUrl);
    const passed = faults.every((f) => f.passed);
    writeFileSync(
      path.join(results, "faults.json"),
      JSON.stringify({ at: new Date().toISOString(), faults, passed } satisfies Faults, null, 2),
    );
    return faults.map((f) => ({
      name: `${f.name} (${f.criterion})`,
      passed: f.passed,
      detail: f.failures.join("; ") || "held",
    }));
  });
}
if (args.has("--hostile")) {
  await part("hostile", async () => {
    const { runHostile } = await import("./hostile");
    const hostile = await runHostile(databaseUrl);
    writeFileSync(path.join(results, "hostile.json"), JSON.stringify(hostile, null, 2));
    return hostile.checks;
  });
}
if (args.has("--soak")) {
  await part("soak", async () => {
    const { runSoak } = await import("./soak");
    const soak = await runSoak();
    writeFileSync(path.join(results, "soak.json"), JSON.stringify(soak, null, 2));
    return [
      {
        name: "no answer other than expected",
        passed: soak.errors === 0,
        detail: `${soak.errors} of ${soak.requests}${soak.errorSamples.length ? `: ${soak.errorSamples.slice(0, 3).join("; ")}` : ""}`,
      },
      {
        name: "every airdrop's stored tree is the chain's root at the end",
        passed: soak.rootMismatches.length === 0,
        detail: soak.rootMismatches.join("; ") || `${soak.airdropTokens} of ${soak.airdropTokens}`,
      },
    ];
  });
}

writeFileSync(
  path.join(root, "docs/reliability.md"),
  render(read<Quick>("quick"), read<Faults>("faults"), read<HostileResult>("hostile"), read<SoakResult>("soak")),
);
console.log("wrote docs/reliability.md");
for (const { part: name, checks } of closing) {
  const failed = checks.filter((c) => !c.passed);
  for (const c of failed) console.log(`  FAILED [${name}] ${c.name}: ${c.detail}`);
  console.log(`reliability ${name}: ${checks.length - failed.length} passed, ${failed.length} failed`);
}
if (closing.some((p) => p.checks.some((c) => !c.passed))) process.exitCode = 1;
// Parts leave pools, the chain server or timers behind only when they fail; the verdict is given either way.
setTimeout(() => process.exit(), 1000).unref();

function render(
  quick: Quick | null,
  faults: Faults | null,
  hostile: HostileResult | null,
  soak: SoakResult | null,
): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const stamp = (at: string) => `${at.slice(0, 16)}Z`;
  const verdict = (passed: boolean | undefined) =>
    passed === undefined ? "not judged (older run)" : passed ? "passed" : "**FAILED**";
  const lines = [
    "# Reliability and security figures",
    "",
    'Generated by `npm run reliability` (tests/reliability/run.ts); do not edit by hand. Method and scope: see docs/testing.md "Reliability and security". Each part\'s figures come from its last run (date beside them); the command exits 1 when a check of a part it ran fails.',
    "",
    "| Figure | Value | Command |",
    "| --- | --- | --- |",
  ];
  if (quick?.reads && quick.writes) {
    const req = quick.reads.requests + quick.writes.requests;
    const fives = quick.reads.fiveHundreds + quick.writes.fiveHundreds;
    const allowed = quick.reads.allowed503 + quick.writes.allowed503;
    lines.push(
      `| Quick part | ${verdict(quick.passed)}${quick.checks ? ` (${quick.checks.filter((c) => c.passed).length} of ${quick.checks.length} checks)` : ""} | \`npm run reliability\` (${stamp(quick.at)}) |`,
      `| Hostile requests tried (every route() endpoint) | ${n(req)} (${n(quick.reads.requests)} reads, ${n(quick.writes.requests)} writes) | same |`,
      `| 5xx seen | ${n(fives - allowed)} unexpected; ${n(allowed)} documented 503 (unconfigured chain or third party, with Retry-After) | same |`,
      `| Invariant violations (envelope, no-store, leaks, 5xx) | ${n(quick.reads.findings.length + quick.writes.findings.length)} | same |`,
      `| Rejected writes compared (counts + hash of every row) / rows changed or lost | ${n(quick.writes.writesRejected)} / ${quick.writes.findings.length ? "see failures" : "0"} | same |`,
      `| Auth and access suite | ${quick.accessPassed ? "passed" : "**FAILED**"} | same |`,
    );
    const w = quick.webhooks;
    if (w) {
      lines.push(
        `| Deploy to \`deployed\` (in-process worker), median of ${w.deploys}: no subscription → ${w.subscriptions} black-hole receivers | ${w.usualMedianMs ?? "—"} ms → ${w.loadedMedianMs ?? "—"} ms (ratio ${w.ratio ?? "—"}; each: ${w.usualMs.join(", ")} → ${w.loadedMs.join(", ")} ms; ${w.hangingBefore} attempts hanging throughout); ${verdict(w.passed)} | same |`,
      );
    }
  } else lines.push("| Hostile requests tried | not run | `npm run reliability` |");
  if (hostile) {
    const total = hostile.refused.reduce((s, r) => s + r.requests, 0);
    const byStatus = new Map<string, number>();
    for (const r of hostile.refused)
      for (const [status, count] of Object.entries(r.byStatus))
        byStatus.set(status, (byStatus.get(status) ?? 0) + count);
    const unchanged = hostile.checks.find((c) => c.name.startsWith("no stored row changed"));
    const s = hostile.slow;
    const answeredSlow = s.answers.filter((a) => a.status !== 0);
    const unanswered = s.answers.length - answeredSlow.length;
    lines.push(
      `| Hostile uploaders against \`next start\` | ${verdict(hostile.passed)} (${hostile.checks.filter((c) => c.passed).length} of ${hostile.checks.length} checks) | \`npm run reliability -- --hostile\` (${stamp(hostile.at)}) |`,
      `| Tree uploads the chain does not back (${hostile.refused.length} kinds), by status | ${n(total)}: ${[
        ...byStatus,
      ]
        .sort()
        .map(([status, count]) => `${n(count)} × ${status}`)
        .join(", ")}; stored rows changed: ${unchanged?.passed ? "0" : "**yes**"} | same |`,
      `| A ${hostile.largeForged.megabytes} MB forged tree | ${hostile.largeForged.status} in ${hostile.largeForged.ms} ms${hostile.largeForged.connectionClose ? ", `Connection: close`" : ""} | same |`,
      ...(hostile.earlyRefusal
        ? [
            `| An unknown token's upload whose body never ends (to be refused at its head) | ${hostile.earlyRefusal.status ? `${hostile.earlyRefusal.status} in ${hostile.earlyRefusal.ms} ms` : `no answer in ${Math.round(hostile.earlyRefusal.ms / 1000)} s`} | same |`,
          ]
        : []),
      `| Slow senders (${s.senders}, trickling or stalled; MERKLE_UPLOAD_TIMEOUT_SECONDS=${s.deadlineSeconds}, as many upload slots) | ${s.answers.filter((a) => a.status === 408 && a.ms <= (s.deadlineSeconds + s.marginSeconds) * 1000).length} × 408 within ${s.deadlineSeconds + s.marginSeconds} s${answeredSlow.length ? ` (slowest answer ${Math.max(...answeredSlow.map((a) => a.ms))} ms)` : ""}${unanswered ? `, ${unanswered} unanswered when given up after ${Math.round(Math.max(...s.answers.map((a) => a.ms)) / 1000)} s` : ""}, ${s.answers.filter((a) => a.connectionClose).length} with \`Connection: close\`; an upload meanwhile: ${s.whileHeld.status}${s.whileHeld.retryAfter ? " + Retry-After" : ""}; ${s.senders} uploads right after: ${s.after.filter((x) => x === 200).length} × 200 | same |`,
      ...(hostile.chain
        ? [
            `| Hostile chain events (${hostile.chain.planted} tokens planted: lone surrogates, controls, invalid UTF-8, megabyte text, deep JSON, 100,000 links, extreme ticks, a replay, an undecodable log, a stray contract) | ${hostile.chain.indexed} of ${hostile.chain.expectedIndexed} indexed in one run of ${n(hostile.chain.indexMs)} ms; ${hostile.chain.quarantined} quarantined; answers about them: ${Object.entries(
              hostile.chain.answers,
            )
              .map(([status, count]) => `${n(count)} × ${status}`)
              .join(", ")} | same |`,
          ]
        : []),
    );
  } else
    lines.push(
      "| Hostile uploaders (refused trees, slow senders) | not run | `npm run reliability -- --skip-quick --hostile` (built server; PostgreSQL at RELIABILITY_DATABASE_URL) |",
    );
  if (faults) {
    const total = faults.faults.reduce((s, f) => s + f.requests, 0);
    const injected = faults.faults.filter((f) => f.name !== "baseline").length;
    lines.push(
      `| Database faults injected | ${injected} (refused, black hole, restart, statement timeout; ${n(total)} requests under load); ${verdict(faults.passed)} | \`npm run reliability -- --faults\` (${stamp(faults.at)}) |`,
      `| 5xx other than 503+Retry-After during faults / hangs over 15 s | ${faults.faults.reduce((s, f) => s + f.other5xx, 0)} / ${faults.faults.reduce((s, f) => s + f.hangs, 0)} | same |`,
    );
  } else
    lines.push(
      "| Database faults injected | not run | `npm run reliability -- --skip-quick --faults` (needs PostgreSQL at RELIABILITY_DATABASE_URL) |",
    );
  if (soak) {
    lines.push(
      `| Soak: requests / errors | ${n(soak.requests)} / ${n(soak.errors)} over ${soak.seconds} s, ${soak.concurrency} clients, ${n(soak.tokens)} tokens; ${verdict(soak.passed)}${soak.loadAverage ? ` (machine load average ${soak.loadAverage.join(" → ")})` : ""} | \`npm run reliability -- --soak\` (${stamp(soak.at)}) |`,
      `| Soak: memory (RSS, median of a minute) after warm-up → last minute | ${soak.rssWarmMb} MB → ${soak.rssEndMb} MB (${soak.rssGrowthPct}%; every 5 s: ${soak.rssSamplesMb.join(", ")} MB) | same |`,
    );
    if (soak.airdropTokens !== undefined) {
      lines.push(
        `| Soak: airdrops whose stored tree was not the chain's root at the end | ${soak.rootMismatches.length} of ${soak.airdropTokens} (${n(soak.rootChanges)} new roots set on chain during the soak, ${soak.rootChangeMedianMs} ms each, median) | same |`,
      );
    }
  } else
    lines.push(
      "| Soak latency and memory | not run | `npm run reliability -- --skip-quick --soak` (built server on BENCH_DATABASE_URL) |",
    );
  const failedChecks = [
    ...(quick?.checks ?? []),
    ...(hostile?.checks ?? []),
    ...(soak?.failures ?? []).map((f) => ({ name: "soak", passed: false, detail: f })),
  ].filter((c) => !c.passed);
  if (failedChecks.length)
    lines.push("", "Failed checks:", "", ...failedChecks.map((c) => `- ${c.name}: ${c.detail.replaceAll("|", "\\|")}`));
  if (hostile) {
    lines.push(
      "",
      "## Tree uploads the chain does not back",
      "",
      "| Upload | Requests | Expected | Answers | Slowest |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const r of hostile.refused)
      lines.push(
        `| ${r.name} | ${r.requests} | ${r.expected} | ${Object.entries(r.byStatus)
          .map(([status, count]) => `${count} × ${status}`)
          .join(", ")} | ${r.maxMs} ms |`,
      );
  }
  if (faults) {
    const judged = faults.faults.every((f) => f.criterion !== undefined);
    lines.push(
      "",
      "## Database faults",
      "",
      `| Fault | Requests | 2xx | 503 + Retry-After | other 5xx | hangs | slowest | back after |${judged ? " passing means | verdict |" : ""}`,
      `| --- | --- | --- | --- | --- | --- | --- | --- |${judged ? " --- | --- |" : ""}`,
    );
    for (const f of faults.faults) {
      const row = `| ${f.name} | ${f.requests} | ${f.ok} | ${f.e503} | ${f.other5xx} | ${f.hangs} | ${f.maxMs} ms | ${f.recoveredAfterMs === null ? "—" : `${f.recoveredAfterMs} ms`} |`;
      lines.push(
        judged ? `${row} ${f.criterion} | ${f.passed ? "passed" : `**FAILED**: ${f.failures.join("; ")}`} |` : row,
      );
    }
  }
  if (soak) {
    lines.push(
      "",
      "## Soak latency per endpoint",
      "",
      "| Endpoint | Requests | Errors | p50 | p99 |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const e of soak.endpoints)
      lines.push(`| ${e.name} | ${n(e.requests)} | ${e.errors} | ${e.p50} ms | ${e.p99} ms |`);
    if (soak.errorSamples.length)
      lines.push("", "First errors seen:", "", ...soak.errorSamples.map((e) => `- ${e.replaceAll("|", "\\|")}`));
  }
  lines.push(
    "",
    "## Faults covered by the test suite (run in CI)",
    "",
    '- QStash delivering a job twice: one effect — tests/api/jobs-qstash.test.ts ("has one effect when QStash delivers the same message twice"), tests/unit/jobs/runner.test.ts (repeated dedupeKey, lease taken over).',
    '- Worker killed mid-job: completes once after restart — tests/unit/jobs/worker.test.ts ("runs a job ... whose runner died mid-run, exactly once after restart"), tests/api/jobs-qstash.test.ts (expired lease re-published).',
    "- Third-party timeouts, 429 and 5xx: 503 or the stored answer — tests/api/tokens (trending against a fake GeckoTerminal: 429/5xx/timeout/malformed), tests/unit/neynar, tests/unit/quotes.",
    "- Statement timeout → 503 `timeout`: lib/core/errors.ts maps 57014; the search budget 503 is tested on pg and PGlite in tests/api/tokens.",
    "",
  );
  return lines.join("\n");
}
