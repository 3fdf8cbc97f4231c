// npm run commits:check: holds every commit since the rule began (or after --since) to the commit message rule
// of dev/cli/commit-rules.ts. Exits 1 naming each commit that breaks it.
import { execFileSync } from "node:child_process";
import { readCli } from "./args";
import { commitProblems } from "./commit-rules";

/** When the rule began (just after the last commit made before it): commits after it follow it. */
const RULE_START = "2026-11-28T15:39:47Z";

const { values } = readCli({
  command: "npm run commits:check",
  description:
    "Checks the messages of the commits after --since (by default every commit since the rule began): a subject of\nat most 72 characters in the imperative, a blank line before the body. Exits 1 naming each commit that breaks it.",
  options: { since: { type: "string", value: "<commit>", description: "check only the commits after this one" } },
});

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8", maxBuffer: 256 << 20 });
// By date rather than from a commit, so that a shallow clone (which may lack the rule's first commit) is checked too.
const range = values.since ? [`${values.since}..HEAD`] : ["HEAD"];
const log = git("log", "--no-merges", "--format=%h%x00%cI%x00%B%x1e", ...range);
let broken = 0;
let checked = 0;
for (const entry of log.split("\x1e")) {
  const [hash, date, message] = entry.replace(/^\n/, "").split("\0");
  if (!hash || !date || message === undefined) continue;
  if (!values.since && Date.parse(date) < Date.parse(RULE_START)) continue;
  checked += 1;
  const problems = commitProblems(message);
  if (!problems.length) continue;
  broken += 1;
  console.error(`${hash} ${message.split("\n")[0]!.slice(0, 80)}\n  - ${problems.join("\n  - ")}`);
}
console.log(`commits:check: ${checked} commits checked, ${broken} breaking the rule`);
process.exit(broken ? 1 : 0);
