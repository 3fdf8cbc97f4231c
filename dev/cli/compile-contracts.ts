// Compiles dev/chain/contracts with solc-js (never `hardhat compile`: it downloads compilers) and
// writes dev/chain/artifacts. Run: npm run contracts:compile (npx tsx dev/cli/compile-contracts.ts)
import { writeFileSync } from "node:fs";
import path from "node:path";
import { readCli } from "./args";

readCli({
  command: "npm run contracts:compile",
  description:
    "Compiles dev/chain/contracts with solc-js (no compiler is downloaded) and writes dev/chain/artifacts/,\n" +
    "which is committed; a test recompiles and compares.",
});
// solc is large: loaded once the arguments are read.
const { ARTIFACTS_DIR, compileContracts, renderArtifacts } = await import("@/dev/chain/compile");

const started = Date.now();
const files = renderArtifacts(compileContracts());
for (const [name, content] of Object.entries(files)) writeFileSync(path.join(ARTIFACTS_DIR, name), content);
console.log(
  `wrote ${Object.keys(files).length} files to ${path.relative(process.cwd(), ARTIFACTS_DIR)} in ${Date.now() - started} ms`,
);
