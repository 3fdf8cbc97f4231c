// Rate limits over the active KV backend; throws 429 with Retry-After when a bucket is full.
import ipaddr from "ipaddr.js";
import { kv } from "./index";
import { rateLimited } from "@/lib/core/errors";
import { countRateLimitRefusal } from "@/lib/core/telemetry";

export type RateLimitRule = { name: string; limit: number; windowSeconds: number };

export async function enforceRateLimit(
  rule: RateLimitRule,
  subject: string,
  setHeader?: (name: string, value: string) => void,
): Promise<void> {
  const store = await kv();
  const result = await store.limit(`rl:${rule.name}:${subject}`, rule.limit, rule.windowSeconds);
  const resetSeconds = Math.max(0, Math.ceil((result.resetAt - Date.now()) / 1000));
  setHeader?.("X-RateLimit-Limit", String(result.limit));
  setHeader?.("X-RateLimit-Remaining", String(result.remaining));
  setHeader?.("X-RateLimit-Reset", String(resetSeconds));
  if (!result.success) countRateLimitRefusal(rule.name);
  if (!result.success) throw rateLimited(resetSeconds);
}

/** Takes one from the bucket if it has one: false when full (for work that is skipped, not refused). */
export async function tryRateLimit(rule: RateLimitRule, subject: string): Promise<boolean> {
  const store = await kv();
  return (await store.limit(`rl:${rule.name}:${subject}`, rule.limit, rule.windowSeconds)).success;
}

/**
 * What a per-IP limit counts for an address: an IPv4 address itself; an IPv6 address its /64, since one subscriber
 * usually holds a whole /64 and could otherwise take a new address (and a new limit) for every request; an
 * IPv4-mapped IPv6 address its IPv4. Anything else (`local`, an unparsable hop) as it is.
 */
export function ipSubject(ip: string): string {
  if (!ipaddr.isValid(ip)) return `ip:${ip}`;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === "ipv4") return `ip:${parsed.toString()}`;
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`);
  return `ip:${prefix.toString()}/64`;
}
