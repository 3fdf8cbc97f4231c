// The active cache/rate-limit backend: Upstash Redis when configured, else Postgres.
import { config } from "@/lib/core/config";
import { PostgresStore } from "./postgres";
import type { KeyValueStore } from "./types";

export type { KeyValueStore, RateLimitResult } from "./types";

const holder = globalThis as unknown as { __kv?: KeyValueStore };

export function upstashCredentials(): { url: string; token: string } | null {
  const c = config();
  const url = c.KV_REST_API_URL ?? c.UPSTASH_REDIS_REST_URL;
  const token = c.KV_REST_API_TOKEN ?? c.UPSTASH_REDIS_REST_TOKEN;
  return url && token ? { url, token } : null;
}

export async function kv(): Promise<KeyValueStore> {
  if (!holder.__kv) {
    const upstash = upstashCredentials();
    if (upstash) {
      const { UpstashStore } = await import("./upstash");
      holder.__kv = new UpstashStore(upstash);
    } else {
      holder.__kv = new PostgresStore();
    }
  }
  return holder.__kv!;
}

export function resetKv(): void {
  holder.__kv = undefined;
}
