// The commit message rule (dev/cli/commit-rules.ts), held to messages that keep and break it.
import { describe, expect, it } from "vitest";
import { commitProblems } from "@/dev/cli/commit-rules";

describe("commit message rule", () => {
  it.each([
    "Index v3.1 tokens from their event",
    "Seed the demo with every generation\n\nThe why, in a body after a blank line.",
    "Embed the server in db/",
    "Pass the quarantined row itself to resolve or record it again",
    "`tokens` CLI: list the quarantine",
  ])("accepts %j", (message) => {
    expect(commitProblems(message)).toEqual([]);
  });

  it.each([
    ["x".repeat(73), "73 characters"],
    ["Fix the cursor.", "full stop"],
    ["fix the cursor", "capital letter"],
    ["Added a cursor", "past tense"],
    ["Adding a cursor", "gerund"],
    ["Adds a cursor", "third person"],
    ["Fix the cursor\nand the list", "blank line"],
    ["", "empty"],
  ])("refuses %j (%s)", (message, problem) => {
    expect(commitProblems(message).join("; ")).toContain(problem);
  });
});
