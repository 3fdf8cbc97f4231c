// NEXT_DIST_DIR is set by `npm run dev` (dev/cli/dist-dir.ts) so copies with different DATA_DIRs build in
// directories of their own; unset (next build, next start, the bench) it is `.next`.
const distDir = process.env.NEXT_DIST_DIR || ".next";

/** @type {import('next').NextConfig} */
const nextConfig = {
  distDir,
  // Such a copy type-checks with its own tsconfig (extending the project's), which Next may rewrite freely.
  ...(distDir === ".next" ? {} : { typescript: { tsconfigPath: `${distDir}.tsconfig.json` } }),
  // PGlite ships WASM and data files, pg and the chain tooling are Node-only: load them from node_modules.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "hardhat", "solc"],
  poweredByHeader: false,
  reactStrictMode: true,
};
export default nextConfig;
