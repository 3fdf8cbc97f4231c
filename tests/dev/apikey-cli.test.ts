// npm run apikey works on the same store as the admin API: create with scopes, expiry and limits, rotate with a grace
// period, read usage, list, revoke; and refuses bad options with exit 2 before any key exists.
import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { closeDb, db } from "@/db";
import { findPartnerByKey } from "@/lib/domains/partners/apikeys";
import { countPartnerRequest } from "@/lib/domains/partners/usage";
import { kv } from "@/lib/platform/kv";

/** Each command is a Node process loading tsx and the embedded database: tens of seconds on a shared machine. */
const SLOW = 900_000;

const tsx = createRequire(import.meta.url).resolve("tsx/cli");

/** Runs the command in its own process on this file's database (the embedded one is closed here first). */
async function apikey(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  await closeDb();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsx, "dev/cli/apikey.ts", ...args],
      { env: { ...process.env, LOG_LEVEL: "silent" }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const keyIn = (stdout: string) => /^(tlk_[A-Za-z0-9_-]{32})$/m.exec(stdout)?.[1];

describe("npm run apikey", () => {
  it(
    "creates, rotates, reports usage, lists and revokes a key on the service's database",
    async () => {
      const expires = new Date(Date.now() + 86_400_000).toISOString();
      const created = await apikey(
        "create",
        "--name",
        "cli-partner",
        "--owner",
        "ops@cli.example",
        "--scopes",
        "read,webhooks",
        "--expires",
        expires,
        "--requests-per-minute",
        "5",
        "--deploys-per-day",
        "3",
      );
      expect(created.code, created.stderr).toBe(0);
      const key = keyIn(created.stdout)!;
      expect(key).toBeDefined();
      const prefix = key.slice(0, 12);
      const row = await db().selectFrom("api_keys").selectAll().where("prefix", "=", prefix).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        name: "cli-partner",
        owner: "ops@cli.example",
        scopes: ["read", "webhooks"],
        requests_per_minute: 5,
        deploys_per_day: 3,
      });
      expect(row.expires_at?.toISOString()).toBe(expires);
      expect(await findPartnerByKey(key)).toMatchObject({ id: row.id, scopes: ["read", "webhooks"] });

      const rotated = await apikey("rotate", prefix, "--grace", "600");
      expect(rotated.code, rotated.stderr).toBe(0);
      const fresh = keyIn(rotated.stdout)!;
      expect(fresh).not.toBe(key);
      expect((await findPartnerByKey(key))?.id).toBe(row.id);
      expect((await findPartnerByKey(fresh))?.id).toBe(row.id);

      // Counted here as route() counts a request; reading them writes what is pending, for the command to read.
      await countPartnerRequest(row.id, "GET /api/tokens/is-blocked", 200);
      await countPartnerRequest(row.id, "GET /api/tokens/is-blocked", 200);
      await (await kv()).readCounters([`usage:key:${row.id}:${new Date().toISOString().slice(0, 10)}`]);
      const usage = await apikey("usage", fresh.slice(0, 12), "--days", "1");
      expect(usage.code, usage.stderr).toBe(0);
      expect(usage.stdout).toContain("2 requests  0 deploys");
      expect(usage.stdout).toContain("2  GET /api/tokens/is-blocked  200");

      const listed = await apikey("list");
      expect(listed.stdout).toMatch(
        new RegExp(`${fresh.slice(0, 12)}  cli-partner \\(ops@cli.example\\)  \\[read,webhooks\\]`),
      );
      expect(listed.stdout).toContain("5/min");

      const revoked = await apikey("revoke", fresh.slice(0, 12));
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(await findPartnerByKey(fresh)).toBeNull();
      expect(await findPartnerByKey(key)).toBeNull();
    },
    SLOW,
  );

  it(
    "refuses bad options with exit 2 and creates nothing",
    async () => {
      const before = await db()
        .selectFrom("api_keys")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow();
      // Refused before the database is opened, so these may run side by side.
      const cases = [
        ["create", "--name", "x", "--scopes", "read,admin"],
        ["create", "--name", "x", "--expires", "2000-01-01T00:00:00Z"],
        ["create", "--name", "x", "--grace", "10"],
        ["rotate", "tlk_whatever", "--grace", "-1"],
      ];
      const results = await Promise.all(cases.map((args) => apikey(...args)));
      for (const [i, res] of results.entries())
        expect(res.code, `${cases[i]!.join(" ")}: ${res.stdout}${res.stderr}`).toBe(2);
      const after = await db()
        .selectFrom("api_keys")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    },
    SLOW,
  );
});
