// The configuration's documentation stays true: every variable the service reads (lib/core/config.ts's schema,
// lib/platform/chain/settings.ts's per-chain reader, which also holds the indexer's per-chain settings) is in
// docs/configuration.md and in .env.example, every variable .env.example names is read by the code, and every
// variable the commands and tests read directly (process.env) is in docs/configuration.md too.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseConfig, variablesRead } from "@/lib/core/config";
import { chainSettings } from "@/lib/platform/chain/settings";

const root = path.resolve(import.meta.dirname, "../..");
const CONFIGURATION_DOC = "docs/configuration.md";
const configurationDoc = readFileSync(path.join(root, CONFIGURATION_DOC), "utf8");
const envExample = readFileSync(path.join(root, ".env.example"), "utf8");

const namesRead = (reader: (env: NodeJS.ProcessEnv) => unknown) => variablesRead(reader).sort();

/** Per-chain names are read for one chain (8453); the docs write them as `<NAME>_<chainId>`. */
const CHAIN = 8453;
const configNames = namesRead(parseConfig);
const chainNames = namesRead((env) => chainSettings(CHAIN, env));
const perChain = (name: string) => /_\d+$/.test(name);

function documented(name: string): boolean {
  const generic = perChain(name) ? [`${name.replace(/\d+$/, "")}<chainId>`] : [];
  return [name, ...generic].some((n) =>
    new RegExp(`(^|[^A-Za-z0-9_])${n.replace(/[<>]/g, "\\$&")}($|[^A-Za-z0-9_])`).test(configurationDoc),
  );
}

/** Names .env.example sets (`NAME=` or `# NAME=`). */
const exampleNames = [...envExample.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);

/** Source files under a directory (.ts, .tsx, .mjs), without node_modules. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === "node_modules") return [];
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : /\.(ts|tsx|mjs)$/.test(e.name) ? [full] : [];
  });
}
const envReads = (files: string[]) =>
  new Set(
    files.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!)),
  );

/** `process.env.NAME` in lib/ and dev/: variables read outside the two readers (the npm commands' own, e.g. DEV_CHAIN_PORT). */
const readDirectly = envReads(["lib", "dev"].flatMap((dir) => sourceFiles(path.join(root, dir))));

/** Every file that may read the environment directly: the app, its tooling, its tests and the root files. This file is left out (its comments name `process.env.NAME`). */
const self = path.join(root, "tests/unit/config-docs.test.ts");
const everyReader = [
  ...["lib", "dev", "app", "db", "tests"].flatMap((dir) => sourceFiles(path.join(root, dir))),
  ...readdirSync(root)
    .filter((f) => /\.(ts|mjs)$/.test(f))
    .map((f) => path.join(root, f)),
].filter((f) => f !== self);

describe("configuration documentation", () => {
  it("finds the readers' variables (the recording works)", () => {
    expect(configNames).toEqual(expect.arrayContaining(["PORT", "DATABASE_URL", "TOKEN_INDEX_START_BLOCK"]));
    expect(chainNames).toEqual(
      expect.arrayContaining([`RPC_URL_${CHAIN}`, `FACTORY_ADDRESS_${CHAIN}`, "DEPLOYER_PRIVATE_KEY"]),
    );
  });

  it(`${CONFIGURATION_DOC} names every variable the service reads`, () => {
    expect([...configNames, ...chainNames].filter((n) => !documented(n))).toEqual([]);
  });

  it(`${CONFIGURATION_DOC} names every variable the code, the commands and the tests read directly`, () => {
    const names = [...envReads(everyReader)];
    expect(names).toEqual(expect.arrayContaining(["DEV_CHAIN_PORT", "TEST_DATABASE_URL"]));
    expect(names.filter((n) => !documented(n)).sort()).toEqual([]);
  });

  it(".env.example sets every variable the service reads", () => {
    expect([...configNames, ...chainNames].filter((n) => !exampleNames.includes(n))).toEqual([]);
  });

  it("every variable .env.example sets is read by the code", () => {
    const read = new Set([...configNames, ...chainNames, ...readDirectly]);
    expect(exampleNames.filter((n) => !read.has(n))).toEqual([]);
  });

  it(".env.example sets each variable once", () => {
    expect(exampleNames.filter((n, i) => exampleNames.indexOf(n) !== i)).toEqual([]);
  });
});
