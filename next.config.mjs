/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files, pg and the chain tooling are Node-only: load them from node_modules.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "hardhat", "solc"],
  poweredByHeader: false,
  reactStrictMode: true,
};
export default nextConfig;
