// Admin credentials and the session cookie, below the HTTP layer.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { resetConfig } from "@/lib/core/config";
import {
  adminCookieHeader,
  clearAdminCookieHeader,
  isAdminIdentity,
  isAdminSecret,
  signAdminSession,
  startAdminSession,
  verifyAdminSession,
} from "@/lib/http/auth/admin";
import { devIssuerSecret, sessionSecret } from "@/lib/http/auth/secrets";

let saved: Record<string, string | undefined> = {};
beforeAll(() => void (saved = { ...process.env })); // after the harness has set DATABASE_URL (PostgreSQL runs)
function setEnv(env: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(env)) v === undefined ? delete process.env[k] : (process.env[k] = v);
  resetConfig();
}
beforeEach(() =>
  setEnv({
    ADMIN_FIDS: "1,2",
    ADMIN_SECRET: "the-admin-secret-0123",
    SESSION_SECRET: undefined,
    DATABASE_URL: undefined,
    DEV_AUTH: undefined,
  }),
);
afterEach(() => {
  for (const k of ["ADMIN_FIDS", "ADMIN_SECRET", "SESSION_SECRET", "DATABASE_URL", "DEV_AUTH"])
    setEnv({ [k]: saved[k] });
});

describe("admin credentials", () => {
  it("knows admin FIDs and the admin secret, and nothing else", () => {
    expect(isAdminIdentity({ userId: "fid:2", fid: 2, issuer: "farcaster" })).toBe(true);
    expect(isAdminIdentity({ userId: "fid:3", fid: 3, issuer: "farcaster" })).toBe(false);
    expect(isAdminIdentity({ userId: "privy:x", fid: null, issuer: "privy" })).toBe(false);
    expect(isAdminIdentity(null)).toBe(false);
    expect(isAdminSecret("the-admin-secret-0123")).toBe(true);
    expect(isAdminSecret("the-admin-secret-012")).toBe(false);
    expect(isAdminSecret("")).toBe(false);
    setEnv({ ADMIN_SECRET: undefined });
    expect(isAdminSecret("")).toBe(false);
  });

  it("signs sessions that verify, with the secret checked before any token", async () => {
    const { session, expiresAt } = await startAdminSession({ secret: "the-admin-secret-0123", token: "ignored" });
    expect(await verifyAdminSession(session)).toBe(true);
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now());
    await expect(startAdminSession({ secret: "wrong" })).rejects.toMatchObject({ status: 401 });
    await expect(startAdminSession({})).rejects.toMatchObject({ status: 401 });
  });
});

describe("admin sessions", () => {
  it("end when their FID leaves ADMIN_FIDS or, for the secret's, when ADMIN_SECRET is unset", async () => {
    const byFid = (await signAdminSession("fid:2"))!;
    const bySecret = (await signAdminSession("secret"))!;
    expect(await verifyAdminSession(byFid)).toBe(true);
    expect(await verifyAdminSession(bySecret)).toBe(true);
    setEnv({ ADMIN_FIDS: "1" });
    expect(await verifyAdminSession(byFid)).toBe(false);
    expect(await verifyAdminSession(bySecret)).toBe(true);
    setEnv({ ADMIN_SECRET: undefined });
    expect(await verifyAdminSession(bySecret)).toBe(false);
    expect(await verifyAdminSession((await signAdminSession("privy:someone"))!)).toBe(false);
  });
});

describe("session key", () => {
  it("is generated once under DATA_DIR on the embedded default, private to the owner", async () => {
    const file = path.join(process.env.DATA_DIR!, "session-secret.key");
    const key = sessionSecret()!;
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(readFileSync(file, "utf8").length).toBeGreaterThanOrEqual(43);
    expect(sessionSecret()).toEqual(key);
    const session = (await signAdminSession("secret"))!;
    expect(await verifyAdminSession(session)).toBe(true);
  });

  it("must come from SESSION_SECRET outside the embedded default; a changed key voids old sessions", async () => {
    const old = (await signAdminSession("secret"))!;
    setEnv({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
    expect(sessionSecret()).toBeNull();
    expect(await signAdminSession("secret")).toBeNull();
    await expect(startAdminSession({ secret: "the-admin-secret-0123" })).rejects.toMatchObject({ status: 503 });
    setEnv({ SESSION_SECRET: "s".repeat(32) });
    expect(await verifyAdminSession(old)).toBe(false);
    expect(await verifyAdminSession((await signAdminSession("secret"))!)).toBe(true);
  });

  it("the dev issuer key exists only on the embedded default and without DEV_AUTH=false", () => {
    expect(devIssuerSecret()).not.toBeNull();
    setEnv({ DEV_AUTH: "false" });
    expect(devIssuerSecret()).toBeNull();
    setEnv({ DEV_AUTH: undefined, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
    expect(devIssuerSecret()).toBeNull();
  });
});

describe("admin cookie header", () => {
  it("is HttpOnly, SameSite=Lax, Path=/, with Max-Age, and Secure when asked", () => {
    expect(adminCookieHeader("abc", false)).toBe("admin_session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=43200");
    expect(adminCookieHeader("abc", true)).toBe(
      "admin_session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure",
    );
    expect(clearAdminCookieHeader(true)).toBe("admin_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure");
  });
});
