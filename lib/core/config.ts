// The one reader of the environment: every variable the service uses, validated once by one zod schema
// (config-schema.ts). What production cannot do without is config-production.ts's.
import type { z } from "zod";
import { configSchema, type TrustedProxy } from "./config-schema";
import { remember } from "./remember";

export { DEFAULT_DATA_DIR, type TrustedProxy } from "./config-schema";

export type Config = z.infer<typeof configSchema> & {
  /** True when no DATABASE_URL is set: PGlite, Postgres-backed cache, local worker, dev auth. */
  embedded: boolean;
  /**
   * A Vercel deployment: VERCEL set and VERCEL_ENV not `development` (what `vercel dev` and `vercel env pull`
   * give a developer's machine). Its functions freeze between requests: no polling job worker runs there.
   */
  serverless: boolean;
  TRUSTED_PROXY: TrustedProxy;
};

export class ConfigError extends Error {}

/**
 * Whether a Postgres URL is Neon's pooled host (`-pooler`: PgBouncer in transaction mode), which keeps neither a
 * session's settings nor its locks. A URL that does not parse is left to the driver's own error.
 */
export const isNeonPooledHost = (url: string): boolean => URL.parse(url)?.hostname.includes("-pooler.") ?? false;

export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`invalid environment:\n${lines.join("\n")}`);
  }
  const c = result.data;
  if (c.SEARCH_POOL_MAX > 0 && c.DATABASE_URL && isNeonPooledHost(c.DATABASE_URL))
    throw new ConfigError(
      "invalid environment:\n  SEARCH_POOL_MAX: must be 0 when DATABASE_URL is Neon's pooled host (-pooler), which " +
        "does not keep a session's settings (the search pool's statement timeout, read-only, no parallel plans)",
    );
  return {
    ...c,
    PUBLIC_BASE_URL: c.PUBLIC_BASE_URL ?? vercelBaseUrl(c),
    embedded: !c.DATABASE_URL,
    serverless: Boolean(c.VERCEL) && c.VERCEL_ENV !== "development",
    TRUSTED_PROXY: c.TRUSTED_PROXY ?? (c.VERCEL ? "vercel" : "none"),
  };
}

/**
 * PUBLIC_BASE_URL's fallback on Vercel. Production: the project's production host (its shortest custom domain,
 * else its vercel.app one), which follows whichever deployment is live, where a deployment's own URL would pin
 * QStash deliveries to old code (and sits behind Deployment Protection). Preview: the deployment's own host, so
 * a preview's jobs reach the preview and its database, never production.
 */
function vercelBaseUrl(c: z.infer<typeof configSchema>): string | undefined {
  const host =
    c.VERCEL_ENV === "production"
      ? (c.VERCEL_PROJECT_PRODUCTION_URL ?? c.VERCEL_URL)
      : c.VERCEL_ENV === "preview"
        ? c.VERCEL_URL
        : undefined;
  return host ? `https://${host}` : undefined;
}

/**
 * Whether a server process runs the polling job worker: JOB_WORKER, else exactly when QStash is not configured;
 * never on Vercel, where an instance frozen between requests would poll nothing and let its leases lapse.
 */
export function runsJobWorker(cfg: Config): boolean {
  return !cfg.serverless && (cfg.JOB_WORKER ?? !cfg.QSTASH_TOKEN);
}

/**
 * The variables a reader of the environment looks up, in the order it first does: it is handed an empty
 * environment that records every read (so a variable added to a reader is found without a list to keep).
 */
export function variablesRead(reader: (env: NodeJS.ProcessEnv) => unknown): string[] {
  const names = new Set<string>();
  const recorder = new Proxy({} as NodeJS.ProcessEnv, {
    get: (_, name) => void (typeof name === "string" && /^[A-Z][A-Z0-9_]*$/.test(name) && names.add(name)),
  });
  reader(recorder);
  return [...names];
}

const holder = remember("config", (): { config?: Config } => ({}));

export function config(): Config {
  holder.config ??= parseConfig(process.env);
  return holder.config;
}

/** Tests change the environment between files; this forgets the cached reading. */
export function resetConfig(): void {
  holder.config = undefined;
}
