// Signing secrets: from the environment in production; generated once under DATA_DIR on the embedded default.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "@/lib/core/config";

function localSecret(name: string): Uint8Array {
  const file = path.join(config().DATA_DIR, `${name}.key`);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error; // another process won the race
    }
  }
  return new TextEncoder().encode(readFileSync(file, "utf8").trim());
}

/** Key of the admin session cookie; null when admin sessions are not configured. */
export function sessionSecret(): Uint8Array | null {
  const cfg = config();
  if (cfg.SESSION_SECRET) return new TextEncoder().encode(cfg.SESSION_SECRET);
  return cfg.embedded ? localSecret("session-secret") : null;
}

/** Key of the development token issuer: only on the embedded default, unless DEV_AUTH=false. */
export function devIssuerSecret(): Uint8Array | null {
  const cfg = config();
  if (!cfg.embedded || cfg.DEV_AUTH === false) return null;
  return localSecret("dev-auth");
}
