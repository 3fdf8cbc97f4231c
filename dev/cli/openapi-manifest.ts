// npm run openapi:manifest: writes app/_openapi/routes.generated.ts, a static import of every app/api route file
// (Next bundles the openapi route, so it cannot discover route files at run time).
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import { MANIFEST_PATH, renderManifest, scanRouteFiles } from "@/dev/openapi-manifest";
import { readCli } from "./args";

readCli({
  command: "npm run openapi:manifest",
  description:
    `Writes ${relative(process.cwd(), MANIFEST_PATH)}: a static import of every app/api route file, which the\n` +
    "OpenAPI document reads (Next bundles it, so it cannot find route files at run time).",
});

writeFileSync(MANIFEST_PATH, renderManifest(scanRouteFiles()));
console.log(`wrote ${relative(process.cwd(), MANIFEST_PATH)}`);
