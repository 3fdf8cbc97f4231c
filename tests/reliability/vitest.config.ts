// The measurements of `npm run reliability` that need the test harness (a migrated database copy, the in-process
// chain and worker): *.measure.ts, kept out of `npm test` by their suffix. Same setup as the main config otherwise.
import path from "node:path";
import { defineConfig } from "vitest/config";
import base from "../../vitest.config";

export default defineConfig({
  ...base,
  root: path.resolve(import.meta.dirname, "../.."),
  test: {
    ...base.test,
    projects: undefined,
    include: ["tests/reliability/measure/**/*.measure.ts"],
    testTimeout: 300_000,
  },
});
