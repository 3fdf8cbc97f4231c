// npm run bench rewrites docs/BENCH.md but carries over the sections other commands write (keptSections).
import { describe, expect, it } from "vitest";
import { keptSections } from "@/tests/bench/report";

describe("the bench document's kept sections", () => {
  it("keeps Launch latency, Token stream, Backfill and Telemetry cost, and only them, in their order", () => {
    const previous = [
      "# Benchmark",
      "## Goals\n\ngoals",
      "## Launch latency\n\n| a | b |",
      "## Token stream\n\nstream figures\n",
      "## Tree saves\n\ntrees",
      "## Backfill\n\nbackfill figures",
      "## Backfilled elsewhere\n\nnot kept",
      "## Telemetry cost\n\n| on | off |",
    ].join("\n\n");
    expect(keptSections(previous)).toBe(
      "## Launch latency\n\n| a | b |\n\n## Token stream\n\nstream figures\n\n## Backfill\n\nbackfill figures\n\n## Telemetry cost\n\n| on | off |",
    );
    expect(keptSections("# Benchmark\n\n## Goals\n")).toBe("");
  });
});
