// Two projects: `service` is the service's suite (`npm test`); `dev` tests the tooling (seeders, CLIs, contract
// compile, the embedded server: `npm run test:dev`). CI runs both. Same harness for both (tests/helpers).
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    globalSetup: ["tests/helpers/global-setup.ts"],
    setupFiles: ["tests/helpers/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
    // The default reporter (each file's line, failures, the closing summary) and a progress line a person can
    // follow: files done of total, tests passed and failed, time elapsed (tests/helpers/progress-reporter.ts).
    // Its own live summary is off: on a terminal the progress line is the one redrawn at the bottom.
    // Reporters are the run's, not a project's: `npm run test:dev` shows the same. `--reporter` replaces both.
    reporters: [["default", { summary: false }], "./tests/helpers/progress-reporter.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "service",
          include: ["tests/**/*.test.ts"],
          exclude: ["tests/dev/**", "tests/e2e/**", "tests/bench/**", "node_modules/**"],
        },
      },
      { extends: true, test: { name: "dev", include: ["tests/dev/**/*.test.ts"], testTimeout: 120_000 } },
    ],
  },
});
