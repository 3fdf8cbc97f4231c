// What /api/health reports: version, whether the database answers, and which backend of each part is active.
import { sql } from "kysely";
import { z } from "zod";
import { db } from "../../db";
import { config } from "../config";
import { configuredChainIds } from "../chain/settings";
import { upstashCredentials } from "../kv";
import pkg from "../../package.json";

export const healthResponse = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  database: z.object({ reachable: z.boolean(), latencyMs: z.number().int().optional(), error: z.string().optional() }),
  backends: z.object({
    database: z.enum(["pglite", "postgres", "neon"]),
    cache: z.enum(["upstash", "postgres"]),
    jobs: z.enum(["qstash", "local-worker"]),
    chain: z.enum(["rpc", "none"]),
    profiles: z.enum(["neynar", "stored"]),
  }),
});

export async function healthReport(): Promise<z.infer<typeof healthResponse>> {
  const cfg = config();
  const started = Date.now();
  let database: { reachable: boolean; latencyMs?: number; error?: string };
  try {
    await sql`SELECT 1`.execute(db());
    database = { reachable: true, latencyMs: Date.now() - started };
  } catch {
    database = { reachable: false, error: "the database did not answer" };
  }
  return {
    status: database.reachable ? "ok" : "degraded",
    version: pkg.version,
    database,
    backends: {
      database: cfg.DATABASE_URL ? (cfg.DATABASE_DRIVER === "neon" ? "neon" : "postgres") : "pglite",
      cache: upstashCredentials() ? "upstash" : "postgres",
      jobs: cfg.QSTASH_TOKEN ? "qstash" : "local-worker",
      chain: configuredChainIds().length ? "rpc" : "none",
      profiles: cfg.NEYNAR_API_KEY ? "neynar" : "stored",
    },
  };
}
