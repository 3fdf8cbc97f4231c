// The active cache/rate-limit backend: Upstash Redis when configured, else Postgres.
import { config } from "@/lib/core/config";
import { PostgresStore } from "./postgres";
import type { KeyValueStore } from "./types";
import { remember } from "@/lib/core/remember";

export type { KeyValueStore, RateLimitResult } from "./types";

const holder = remember("kv", (): { store?: KeyValueStore } => ({}));

export function upstashCredentials(): { url: string; token: string } | null {
  const c = config();
  const url = c.KV_REST_API_URL ?? c.UPSTASH_REDIS_REST_URL;
  const token = c.KV_REST_API_TOKEN ?? c.UPSTASH_REDIS_REST_TOKEN;
  return url && token ? { url, token } : null;
}

export async function kv(): Promise<KeyValueStore> {
  if (!holder.store) {
    const upstash = upstashCredentials();
    if (upstash) {
      const { UpstashStore } = await import("./upstash");
      holder.store = new UpstashStore(upstash);
    } else {
      holder.store = new PostgresStore();
    }
  }
  return holder.store!;
}

export function resetKv(): void {
  holder.store = undefined;
}
