// The pages read the service's own public API (same origin), and show its error envelope's message.
export async function getJson<T = any>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { signal, headers: { accept: "application/json" } });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(typeof body?.error === "string" ? body.error : `HTTP ${res.status}`);
  return body as T;
}

/** A USD figure for people: compact, never used for arithmetic. */
export function usd(value: unknown): string {
  const n = typeof value === "string" ? Number(value) : typeof value === "number" ? value : NaN;
  if (!Number.isFinite(n)) return "—";
  // Token prices are often far below a cent: below $1, four significant digits rather than a rounded $0.00.
  const digits = n > 0 && n < 1 ? { maximumSignificantDigits: 4 } : { maximumFractionDigits: 2 };
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    notation: n >= 1e5 ? "compact" : "standard",
    ...digits,
  }).format(n);
}

/** A signed percentage for people: "+1.23 %", "—" when unknown. */
export const percent = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v) ? "—" : `${v > 0 ? "+" : ""}${v.toFixed(2)} %`;

export const shortAddress = (a: string | null | undefined) => (a ? `${a.slice(0, 6)}…${a.slice(-4)}` : "—");
