// Where `npm run dev` builds: `.next` for the default DATA_DIR (next build/start and the bench look there),
// a directory of its own for every other DATA_DIR, so copies side by side never share Next's dev lock.
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { devDistDir, devTsconfig, prepareDistDir } from "@/dev/cli/dist-dir";

const project = "/work/project";

describe("devDistDir", () => {
  it("keeps .next for the default DATA_DIR, however it is written", () => {
    for (const dataDir of [".data", "./.data", ".data/", `${project}/.data`])
      expect(devDistDir(dataDir, project)).toBe(".next");
  });

  it("gives every other DATA_DIR its own directory inside the project, the same one every time", () => {
    const one = devDistDir("/tmp/copy-1", project);
    const two = devDistDir("/tmp/copy-2", project);
    const nested = devDistDir("/var/other/copy-1", project);
    expect(one).toMatch(/^\.next-copy-1-[0-9a-f]{8}$/);
    expect(new Set([one, two, nested, ".next"]).size).toBe(4);
    expect(devDistDir("/tmp/copy-1/", project)).toBe(one);
    expect(devDistDir("../copy-1", "/tmp/x")).toBe(one); // relative to the working directory
    expect(devDistDir("/tmp/we ird:name", project)).toMatch(/^\.next-weirdname-[0-9a-f]{8}$/);
    expect(path.dirname(path.resolve(project, one))).toBe(project);
  });

  it("writes that copy's tsconfig beside the project's (extending it), and none for .next", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "dist-dir-"));
    try {
      const distDir = devDistDir("/tmp/copy-1", dir);
      prepareDistDir(distDir, dir);
      const written = JSON.parse(readFileSync(path.join(dir, devTsconfig(distDir)), "utf8"));
      expect(written.extends).toBe("./tsconfig.json");
      expect(written.include).toEqual(
        expect.arrayContaining(["**/*.ts", `${distDir}/types/**/*.ts`, `${distDir}/dev/types/**/*.ts`]),
      );
      prepareDistDir(".next", dir);
      expect(() => readFileSync(path.join(dir, devTsconfig(".next")))).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
