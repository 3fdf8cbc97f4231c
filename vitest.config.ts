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
