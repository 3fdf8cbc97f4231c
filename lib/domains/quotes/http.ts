// The one HTTP call the quote providers make: JSON in, JSON out, aborted by the caller's signal or the
// per-provider timeout, every failure turned into a QuoteProviderError that names the provider.
import type { ZodType } from "zod";
import { config } from "@/lib/core/config";
import { QuoteProviderError, type ProviderName } from "./types";

export type JsonRequest = { method?: "GET" | "POST"; headers?: Record<string, string>; body?: unknown };

export async function fetchProviderJson(
  provider: ProviderName,
  url: string,
  init: JsonRequest,
  signal: AbortSignal,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(config().PROVIDER_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers: {
        accept: "application/json",
        ...(init.body ? { "content-type": "application/json" } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    if (signal.aborted || timeout.aborted)
      throw new QuoteProviderError(provider, "timeout", "no answer within the deadline");
    throw new QuoteProviderError(provider, "unreachable", `request failed (${(error as Error).message})`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new QuoteProviderError(provider, "timeout", "the answer was cut off");
  }
  // 400/404/422 mean "no route for this pair/amount" for these APIs; anything else non-2xx is an outage.
  if (!response.ok) {
    const kind = [400, 404, 422].includes(response.status) ? "no_route" : "http";
    throw new QuoteProviderError(provider, kind, `HTTP ${response.status}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new QuoteProviderError(provider, "malformed", "the answer is not JSON");
  }
}

/** Parses a provider's answer with its schema; a mismatch is a malformed answer, never a 500. */
export function parseAnswer<T>(provider: ProviderName, schema: ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new QuoteProviderError(
    provider,
    "malformed",
    `unexpected answer (${issue?.path.map(String).join(".") || "body"}: ${issue?.message})`,
  );
}
