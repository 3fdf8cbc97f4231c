// Where `npm run dev` has Next build: `.next` for the default DATA_DIR (where `next build`, `next start` and
// the bench look), else a directory of its own per DATA_DIR, because Next 16 locks `<distDir>/dev/lock` and
// a second `next dev` on the same directory exits. next.config.mjs reads it from NEXT_DIST_DIR.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_DATA_DIR } from "@/lib/core/config";

export const DIST_DIR_VARIABLE = "NEXT_DIST_DIR";

/**
 * The build directory of a dev server whose DATA_DIR is `dataDir`: inside the project (Next refuses others).
 * The copy with the default DATA_DIR builds where every other command expects the build.
 */
export function devDistDir(dataDir: string, cwd = process.cwd()): string {
  const resolved = path.resolve(cwd, dataDir);
  if (resolved === path.resolve(cwd, DEFAULT_DATA_DIR)) return ".next";
  const name =
    path
      .basename(resolved)
      .replace(/[^A-Za-z0-9_-]/g, "")
      .slice(0, 32) || "data";
  return `.next-${name}-${createHash("sha256").update(resolved).digest("hex").slice(0, 8)}`;
}

/** The tsconfig a copy with its own build directory type-checks with (next.config.mjs): beside tsconfig.json. */
export const devTsconfig = (distDir: string) => `${distDir}.tsconfig.json`;

/**
 * Next adds its generated types' directories to the tsconfig it reads and rewrites that file: a copy with
 * its own build directory reads its own, which extends the project's, so tsconfig.json stays as committed.
 * In the project root (gitignored), not in the build directory: Turbopack does not read files there.
 */
export function prepareDistDir(distDir: string, cwd = process.cwd()): void {
  if (distDir === ".next") return;
  const include = ["next-env.d.ts", "**/*.ts", "**/*.tsx", `${distDir}/types/**/*.ts`, `${distDir}/dev/types/**/*.ts`];
  writeFileSync(
    path.join(cwd, devTsconfig(distDir)),
    `${JSON.stringify({ extends: "./tsconfig.json", include }, null, 2)}\n`,
  );
}
