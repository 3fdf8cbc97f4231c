// npm run bench rewrites docs/BENCH.md but carries over the sections other commands write (keptSections);
// those commands replace their own section and leave the others (writeSection).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { keptSections, writeSection } from "@/tests/bench/report";

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

  it("replaces one section in place and keeps the sections after it", () => {
    const document = path.join(mkdtempSync(path.join(os.tmpdir(), "bench-doc-")), "BENCH.md");
    writeFileSync(document, "# Benchmark\n\n## Launch latency\n\nold\n\n## Token stream\n\nstream\n");
    writeSection(document, "## Launch latency\n\nnew\n");
    expect(readFileSync(document, "utf8")).toBe(
      "# Benchmark\n\n## Launch latency\n\nnew\n\n## Token stream\n\nstream\n",
    );
    writeSection(document, "## Telemetry cost\n\ncost");
    expect(readFileSync(document, "utf8")).toMatch(/## Token stream\n\nstream\n\n## Telemetry cost\n\ncost\n$/);
  });
});
