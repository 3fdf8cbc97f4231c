// One way for each thing, held here where a lint rule cannot say it: the service's sources use the one helper that
// does a job rather than a second copy of it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

const service = ["lib", "app", "db"].flatMap(sources);

/** The files (other than `home`) whose text matches `pattern`. */
const copiesOutside = (pattern: RegExp, home: string) =>
  service.filter((file) => file !== home && pattern.test(readFileSync(path.join(root, file), "utf8")));

describe("one way for each thing", () => {
  it("parses a boolean text with zBool (lib/core/input.ts) only", () => {
    expect(copiesOutside(/z\.enum\(\[\s*"true",\s*"false"/, "lib/core/input.ts")).toEqual([]);
  });

  it("makes an HttpError through a constructor of lib/core/errors.ts only", () => {
    expect(copiesOutside(/new HttpError\(/, "lib/core/errors.ts")).toEqual([]);
  });
});
