// The wings of docs/architecture.md as rules: imports go one way, app -> http -> domains -> platform -> core (and
// db), and one way between domains (creators -> tokens -> users, no cycle between domain folders); dev/ is tooling
// that nothing of the service imports. `npm run lint` runs it (and CI with it).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "core-imports-no-wing",
      comment:
        "lib/core is the ground floor: config, log, errors, input, json, body. It imports nothing else of the tree.",
      severity: "error",
      from: { path: "^lib/core/" },
      to: { path: "^(lib/(http|platform|domains)|app|dev|db)/" },
    },
    {
      name: "db-imports-core-only",
      comment: "db/ (the one Kysely, types, migrations) builds on lib/core's config and log, nothing above it.",
      severity: "error",
      from: { path: "^db/" },
      to: { path: "^(lib/(http|platform|domains)|app|dev)/" },
    },
    {
      name: "platform-knows-no-domain",
      comment: "lib/platform holds backends that know no domain (kv, jobs, chain, neynar, market data, health).",
      severity: "error",
      from: { path: "^lib/platform/" },
      to: { path: "^(lib/(http|domains)|app|dev)/" },
    },
    {
      name: "domains-below-http",
      comment: "Domains are called by the HTTP layer, never the other way round.",
      severity: "error",
      from: { path: "^lib/domains/" },
      to: { path: "^(lib/http|app|dev)/" },
    },
    {
      name: "http-only-from-app",
      comment:
        "lib/http (route(), auth, cache) is imported by app/ (and the server start hook, proxy.ts and tests), not by lib/.",
      severity: "error",
      from: { path: "^(lib/(core|platform|domains)|db)/" },
      to: { path: "^lib/http/" },
    },
    {
      name: "no-cycle-between-domains",
      comment:
        "Domain folders import each other one way: a cycle between two folders (users -> tokens -> users) is one even when no module cycle closes, and `import type` counts.",
      severity: "error",
      scope: "folder",
      from: { path: "^lib/domains/[^/]+$" },
      to: { path: "^lib/domains/[^/]+$", circular: true },
    },
    {
      name: "tokens-below-creators",
      comment: "creators -> tokens -> users: the token lists serve the creators domain, never the other way round.",
      severity: "error",
      from: { path: "^lib/domains/tokens/" },
      to: { path: "^lib/domains/creators/" },
    },
    {
      name: "users-below-tokens",
      comment:
        "creators -> tokens -> users: profiles (and the trust lists, the search fold) know no token list or creator.",
      severity: "error",
      from: { path: "^lib/domains/users/" },
      to: { path: "^lib/domains/(tokens|creators)/" },
    },
    {
      name: "nothing-imports-dev",
      comment: "dev/ is tooling (CLIs, seeders, local chain): the service, its root files included, never imports it.",
      severity: "error",
      from: { path: "^((lib|app|db)/|(instrumentation|proxy)\\.ts$)" },
      to: { path: "^dev/" },
    },
    {
      name: "app-pages-use-no-server-wing",
      comment: "The explorer's client components talk to the API over HTTP, never to lib/ directly.",
      severity: "error",
      from: { path: "^app/_components/" },
      to: { path: "^(lib|db|dev)/" },
    },
    {
      name: "no-circular",
      comment:
        "No import cycle, inside a wing or across them. Edges that do not exist at run time do not count: `import type` (erased) and a module loaded on first use (import(), after every static import has settled).",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["dynamic-import", "type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next)" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
