// The configuration's documentation stays true: every variable the service reads (lib/core/config.ts's schema,
// lib/platform/chain/settings.ts's per-chain reader, which also holds the indexer's per-chain settings) is in README.md
// and in .env.example, and every variable .env.example names is read by the code.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseConfig, variablesRead } from "@/lib/core/config";
import { chainSettings } from "@/lib/platform/chain/settings";

const root = path.resolve(import.meta.dirname, "../..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const envExample = readFileSync(path.join(root, ".env.example"), "utf8");

const namesRead = (reader: (env: NodeJS.ProcessEnv) => unknown) => variablesRead(reader).sort();

/** Per-chain names are read for one chain (8453); README documents them as `<NAME>_<chainId>`. */
const CHAIN = 8453;
const configNames = namesRead(parseConfig);
const chainNames = namesRead((env) => chainSettings(CHAIN, env));
const perChain = (name: string) => name.endsWith(`_${CHAIN}`);

function inReadme(name: string): boolean {
  const generic = perChain(name) ? [`${name.slice(0, -String(CHAIN).length)}<chainId>`] : [];
  return [name, ...generic].some((n) => new RegExp(`(^|[^A-Za-z0-9_])${n.replace(/[<>]/g, "\\$&")}($|[^A-Za-z0-9_])`).test(readme));
}

/** Names .env.example sets (`NAME=` or `# NAME=`). */
const exampleNames = [...envExample.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);

/** `process.env.NAME` in lib/ and dev/: variables read outside the two readers (the npm commands' own, e.g. DEV_CHAIN_PORT). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
  );
}
const source = ["lib", "dev"].flatMap((dir) => sourceFiles(path.join(root, dir))).map((f) => readFileSync(f, "utf8")).join("\n");
const readDirectly = new Set([...source.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!));

describe("configuration documentation", () => {
  it("finds the readers' variables (the recording works)", () => {
    expect(configNames).toEqual(expect.arrayContaining(["PORT", "DATABASE_URL", "TOKEN_INDEX_START_BLOCK"]));
    expect(chainNames).toEqual(expect.arrayContaining([`RPC_URL_${CHAIN}`, `FACTORY_ADDRESS_${CHAIN}`, "DEPLOYER_PRIVATE_KEY"]));
  });

  it("README.md names every variable the service reads", () => {
    expect([...configNames, ...chainNames].filter((n) => !inReadme(n))).toEqual([]);
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
