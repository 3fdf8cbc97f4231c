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

const SUBSCRIPT = "₀₁₂₃₄₅₆₇₈₉";

/**
 * A token's price for people: as usd(), but below $0.001 the zeros after the point are counted in a subscript, as
 * market sites write them ($0.0₇1234 is $0.00000001234), so a tiny price keeps to a row's column.
 */
export function price(value: unknown): string {
  const n = typeof value === "string" ? Number(value) : typeof value === "number" ? value : NaN;
  if (!(Number.isFinite(n) && n > 0 && n < 0.001)) return usd(value);
  // Four significant digits and the exponent, rounded once: 9.9999e-4 becomes 1.000e-3.
  const [mantissa, exponent] = n.toExponential(3).split("e");
  const zeros = -Number(exponent) - 1;
  const digits = mantissa.replace(".", "").replace(/0+$/, "");
  const count = [...String(zeros)].map((d) => SUBSCRIPT[Number(d)]).join("");
  return `$0.0${count}${digits}`;
}

/** A signed percentage for people: "+1.23 %", "—" when unknown. */
export const percent = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v) ? "—" : `${v > 0 ? "+" : ""}${v.toFixed(2)} %`;

export const shortAddress = (a: string | null | undefined) => (a ? `${a.slice(0, 6)}…${a.slice(-4)}` : "—");
