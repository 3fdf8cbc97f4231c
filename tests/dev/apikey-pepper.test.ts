// npm run apikey refuses to make a key for another machine's database when API_KEY_PEPPER is unset: the deployment
// there hashes with its own pepper and would refuse the key. --no-pepper says the deployment has none.
import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";

const tsx = createRequire(import.meta.url).resolve("tsx/cli");

/** A host that never resolves: past the pepper check the command fails to connect, fast and offline. */
const REMOTE = "postgres://user:secret@ep-quiet-pond-123456-pooler.invalid/neondb";

function apikey(env: Record<string, string | undefined>, ...args: string[]) {
  const merged: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent", API_KEY_PEPPER: "", ...env };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(process.execPath, [tsx, "dev/cli/apikey.ts", ...args], { env: merged, timeout: 120_000 }, (error, o, e) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${o}${e}` }),
    );
  });
}

const REFUSED = "API_KEY_PEPPER is unset";

describe("npm run apikey and API_KEY_PEPPER", () => {
  it("refuses create and rotate on another machine's database without a pepper, naming the way out", async () => {
    const [create, rotate] = await Promise.all([
      apikey({ DATABASE_URL: REMOTE }, "create", "--name", "acme"),
      apikey({ DATABASE_URL: REMOTE }, "rotate", "tlk_abcdefgh"),
    ]);
    for (const res of [create, rotate]) {
      expect(res.code, res.out).toBe(1);
      expect(res.out).toContain(`DATABASE_URL is on ep-quiet-pond-123456-pooler.invalid and ${REFUSED}`);
      expect(res.out).toContain("--no-pepper");
      expect(res.out).not.toContain("secret");
    }
  });

  it("goes on to the database with a pepper, or with --no-pepper", async () => {
    const [peppered, unpeppered] = await Promise.all([
      apikey({ DATABASE_URL: REMOTE, API_KEY_PEPPER: "production-pepper" }, "create", "--name", "acme"),
      apikey({ DATABASE_URL: REMOTE }, "create", "--name", "acme", "--no-pepper"),
    ]);
    for (const res of [peppered, unpeppered]) {
      expect(res.code).toBe(1);
      expect(res.out).not.toContain(REFUSED);
      expect(res.out).toMatch(/ENOTFOUND|EAI_AGAIN/);
    }
  });

  it("refuses --no-pepper beside a pepper with exit 2", async () => {
    const res = await apikey({ DATABASE_URL: REMOTE, API_KEY_PEPPER: "p" }, "create", "--name", "acme", "--no-pepper");
    expect(res.code, res.out).toBe(2);
    expect(res.out).toContain("--no-pepper contradicts API_KEY_PEPPER");
  });

  it("needs no pepper on a database of this machine", async () => {
    // A local URL passes the pepper check; the bad --expires, read after it, stops the command before it connects.
    const res = await apikey(
      { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" },
      "create",
      "--name",
      "acme",
      "--expires",
      "2000-01-01T00:00:00Z",
    );
    expect(res.out).not.toContain(REFUSED);
    expect(res.code, res.out).toBe(2);
  });
});
