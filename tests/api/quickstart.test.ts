// The partner quickstart (docs/quickstart.md) as a partner runs it: every `curl` command of the page's sh blocks,
// run by curl itself (or, where curl is missing, as the fetch its arguments describe) against the routes served in
// process over HTTP (tests/api/typed-client/dispatch.ts: every 2xx answer is also checked against its schema),
// with the page's variables set. The answers are checked for what the page says they hold, the deployment is
// followed to `deployed` on the test chain, the proof verifies, and the page's TypeScript compiles against the
// types generated from the document the page downloads.
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_TYPES_PATH, renderClientTypes } from "@/dev/cli/openapi-document";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { POST as uploadAirdrop } from "@/app/api/airdrops/route";
import { useTestChain } from "@/tests/helpers/chain";
import { partnerKey } from "@/tests/helpers/auth";
import { call } from "@/tests/helpers/http";
import { address as sampleAddress, tokenWithAirdrop } from "./airdrops/trees";
import { drainJobs } from "./deploy/helpers";
import { address, insertTokens } from "./tokens/fixtures";
import { dispatch } from "./typed-client/dispatch";

const PAGE = readFileSync(join(process.cwd(), "docs/quickstart.md"), "utf8");

/** The page's code blocks of one language, in order. */
function codeBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1]);
}

/** Each `curl` command of the page's sh blocks, its backslash continuations joined. */
function curlCommands(markdown: string): string[] {
  return codeBlocks(markdown, "sh")
    .flatMap((block) => block.replace(/\\\n\s*/g, " ").split("\n"))
    .map((line) => line.trim())
    .filter((line) => line.startsWith("curl "));
}

/** `$NAME` and `${NAME}` from env; a name the test does not set fails (the page uses a variable it never sets). */
function expand(text: string, env: Record<string, string>): string {
  return text.replace(/\$(\w+)|\$\{(\w+)\}/g, (_m, bare: string | undefined, braced: string | undefined) => {
    const name = (bare ?? braced)!;
    if (env[name] === undefined) throw new Error(`the page uses $${name}, which the test does not set`);
    return env[name];
  });
}

/** A command line's words as sh reads them: single quotes literal, double quotes and bare words expanded. */
function shellWords(line: string, env: Record<string, string>): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in ${line}`);
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = "";
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) text += line[j] === "\\" ? line[++j] : line[j];
      if (j >= line.length) throw new Error(`unclosed " in ${line}`);
      word = (word ?? "") + expand(text, env);
      i = j;
    } else {
      let j = i;
      while (j < line.length && !/[\s'"]/.test(line[j])) j++;
      word = (word ?? "") + expand(line.slice(i, j), env);
      i = j - 1;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

type CurlRequest = { method: string; url: string; headers: Record<string, string>; body?: string; output?: string };

/** What a curl command asks for: only the options the page uses (another one fails, to be taught here). */
function requestOf(words: string[]): CurlRequest {
  expect(words[0]).toBe("curl");
  const out: CurlRequest = { method: "", url: "", headers: {} };
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === "-s" || word === "--silent") continue;
    if (word === "-X" || word === "--request") out.method = words[++i];
    else if (word === "-H" || word === "--header") {
      const [name, ...value] = words[++i].split(":");
      out.headers[name.trim().toLowerCase()] = value.join(":").trim();
    } else if (word === "-d" || word === "--data" || word === "--data-raw") out.body = words[++i];
    else if (word === "-o" || word === "--output") out.output = words[++i];
    else if (word.startsWith("-")) throw new Error(`the quickstart test does not read curl's ${word}`);
    else out.url = word;
  }
  out.method ||= out.body === undefined ? "GET" : "POST";
  return out;
}

const HAS_CURL = spawnSync("curl", ["--version"]).status === 0;

type Answer = { request: CurlRequest; status: number; text: string; body: any };

/** Runs one command in `cwd`: with curl when the machine has it (the line as written), else with fetch. */
async function run(line: string, env: Record<string, string>, cwd: string): Promise<Answer> {
  const words = shellWords(line, env);
  const request = requestOf(words);
  let status: number;
  let text: string;
  if (HAS_CURL) {
    // Asynchronously: the server answering curl runs in this process.
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile("curl", [...words.slice(1), "-w", "\n%{http_code}"], { cwd, maxBuffer: 64 << 20 }, (error, out, err) =>
        error ? reject(new Error(`${line}: ${err || error.message}`)) : resolve(out),
      ),
    );
    const cut = stdout.lastIndexOf("\n");
    status = Number(stdout.slice(cut + 1));
    text = request.output ? readFileSync(join(cwd, request.output), "utf8") : stdout.slice(0, cut);
  } else {
    const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
    status = response.status;
    text = await response.text();
  }
  return { request, status, text, body: text ? JSON.parse(text) : null };
}

const chain = useTestChain();
let server: Server;
let cwd: string;
const env: Record<string, string> = {};

beforeAll(async () => {
  // The routes over HTTP, as a partner's curl reaches a dev server.
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : []));
    const request = new Request(`http://localhost:3000${req.url}`, {
      method: req.method,
      headers: headers as [string, string][],
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    try {
      const answer = await dispatch(request);
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch (error) {
      // An answer that does not match its documented schema (call() throws): the test reads the 599.
      res.writeHead(599, { "content-type": "text/plain" });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cwd = mkdtempSync(join(tmpdir(), "quickstart-"));
  env.BASE = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  env.API_KEY = await partnerKey("quickstart");
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

describe("docs/quickstart.md", () => {
  it("sets the variables its commands use, and reads only curl options the test knows", () => {
    const exports = codeBlocks(PAGE, "sh")
      .flatMap((block) => block.split("\n"))
      .filter((line) => line.startsWith("export "))
      .map((line) => line.slice("export ".length).split("=")[0]);
    expect(exports).toEqual(["BASE", "API_KEY"]);
    const names = new Set(curlCommands(PAGE).flatMap((line) => [...line.matchAll(/\$\{?(\w+)/g)].map((m) => m[1])));
    expect([...names].sort()).toEqual(["API_KEY", "BASE", "CLAIMER", "TOKEN"]);
    expect(shellWords(`curl -s "$BASE/x" -d '{"a":"$B"}'`, { BASE: "http://h" })).toEqual([
      "curl",
      "-s",
      "http://h/x",
      "-d",
      '{"a":"$B"}',
    ]);
  });

  it("runs every command against the service and gets what the page says", async () => {
    await insertTokens([1, 2, 3].map((n) => ({ contract_address: address("f", n), name: `Quick ${n}` })));
    // A token with an airdrop whose tree is uploaded, and one of its accounts: the page's $TOKEN and $CLAIMER.
    const { root, dump } = buildStandardTree([0, 1, 2].map((i) => [sampleAddress(i), BigInt(i + 1) * 10n ** 18n]));
    env.TOKEN = await tokenWithAirdrop(chain(), root);
    env.CLAIMER = sampleAddress(1);
    const upload = await call(uploadAirdrop as any, "/api/airdrops", {
      body: { tokenAddress: env.TOKEN, merkleRoot: root, tree: dump },
    });
    expect(upload.status, upload.text).toBe(200);

    const commands = curlCommands(PAGE);
    expect(commands.length).toBe(5);
    const answers: Answer[] = [];
    for (const line of commands) {
      const answer = await run(line, env, cwd);
      expect(answer.status, `${line}\n${answer.text.slice(0, 500)}`).toBe(200);
      answers.push(answer);
    }
    const [list, deploy, status, proof, document] = answers;
    const path = (a: Answer) => `${a.request.method} ${new URL(a.request.url).pathname}`;

    expect(path(list)).toBe("GET /api/tokens");
    expect(list.body.data).toHaveLength(2);
    expect(list.body).toMatchObject({ hasMore: true, cursor: expect.any(String) });

    expect(path(deploy)).toBe("POST /api/tokens/deploy");
    expect(deploy.body).toMatchObject({ success: true, expectedAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) });
    expect(deploy.request.headers["x-api-key"]).toBe(env.API_KEY);

    const requestKey = JSON.parse(deploy.request.body!).token.requestKey;
    expect(path(status)).toBe(`GET /api/tokens/deploy/${requestKey}`);
    expect(status.body).toMatchObject({ requestKey, status: "queued", expectedAddress: deploy.body.expectedAddress });
    // The deployment runs (the worker's jobs on the test chain); the same poll then finds it deployed.
    await drainJobs();
    const deployed = await run(commands[2], env, cwd);
    expect(deployed.body).toMatchObject({
      status: "deployed",
      token: { contract_address: deploy.body.expectedAddress, name: "Quickstart", symbol: "QUICK" },
    });

    expect(path(proof)).toBe("GET /api/airdrops/claim");
    const [{ proof: siblings, entry }] = proof.body.proofs;
    expect(entry).toEqual({ account: expect.any(String), amount: (2n * 10n ** 18n).toString() });
    expect(entry.account.toLowerCase()).toBe(env.CLAIMER.toLowerCase());
    expect(StandardMerkleTree.verify(root, ["address", "uint256"], [entry.account, entry.amount], siblings)).toBe(true);

    // The downloaded document generates the very types the typed client test compiles (openapi-typescript).
    expect(path(document)).toBe("GET /api/openapi.json");
    expect(document.request.output).toBe("openapi.json");
    expect(PAGE).toContain("npx openapi-typescript openapi.json -o api.d.ts");
    expect(Object.keys(document.body.components.schemas)).toEqual(
      expect.arrayContaining(["Token", "User", "Presale", "AirdropEntry", "DeploymentStatus", "Error"]),
    );
    expect(await renderClientTypes(document.body)).toBe(readFileSync(CLIENT_TYPES_PATH, "utf8"));
  });

  it("its TypeScript compiles against the generated types", () => {
    const [snippet] = codeBlocks(PAGE, "ts");
    expect(snippet).toContain('components["schemas"]["Token"]');
    // The page's file, beside the committed generated types (its `./api` is their `./schema`).
    const file = join(dirname(CLIENT_TYPES_PATH), "quickstart-snippet.ts");
    const source = `export {};\n${snippet.replace('from "./api"', 'from "./schema"')}`;
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: ["node"],
    };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (name, version, ...rest) =>
      name === file ? ts.createSourceFile(name, source, version) : getSourceFile.call(host, name, version, ...rest);
    host.fileExists = (name) => name === file || fileExists.call(host, name);
    host.readFile = (name) => (name === file ? source : readFile.call(host, name));
    const program = ts.createProgram([file], options, host);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
    expect(program.getSourceFiles().some((f) => f.fileName.endsWith("typed-client/schema.d.ts"))).toBe(true);
  });
});
