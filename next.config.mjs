import { allowedDevOrigins } from "./dev/allowed-dev-origins.mjs";

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
  // `next dev` answers its own resources (/_next/*: scripts, HMR, RSC) to localhost pages only: also to pages opened
  // at 127.0.0.1, at this machine's network addresses (a phone on the LAN) and at DEV_ALLOWED_ORIGINS' hosts.
  allowedDevOrigins: allowedDevOrigins(),
  poweredByHeader: false,
  reactStrictMode: true,
  // On every answer; the pages' Content-Security-Policy carries a nonce per request, so proxy.ts sets it
  // (lib/http/security-headers.ts). The API's JSON is data, never a document to render or frame.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      {
        source: "/api/:path*",
        headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }],
      },
    ];
  },
};
export default nextConfig;
