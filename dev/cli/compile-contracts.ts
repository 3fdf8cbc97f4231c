// Compiles lib/platform/chain/contracts with solc-js (never `hardhat compile`: it downloads compilers) and
// writes lib/platform/chain/artifacts. Run: npx tsx dev/cli/compile-contracts.ts
import { writeFileSync } from "node:fs";
import path from "node:path";
import { ARTIFACTS_DIR, compileContracts, renderArtifacts } from "@/dev/chain/compile";

const started = Date.now();
const files = renderArtifacts(compileContracts());
for (const [name, content] of Object.entries(files)) writeFileSync(path.join(ARTIFACTS_DIR, name), content);
console.log(
  `wrote ${Object.keys(files).length} files to ${path.relative(process.cwd(), ARTIFACTS_DIR)} in ${Date.now() - started} ms`,
);
