// Postgres array literals written here rather than by the driver: numbers, digits and hex need no quoting, and
// skipping node-postgres' per-element escaping matters for arrays of thousands (the seed's batches, a tree
// upload's leaves). Sent as one text parameter and cast in SQL (`$1::numeric[]`).
const NEEDS_ESCAPE = /["\\]/;
const ESCAPE = /["\\]/g;

const SEPARATOR = "\u0001";

/**
 * A Postgres array literal of the values (null -> NULL). `plain`: every value is a number or text that needs no
 * quoting (digits, hex, fixed identifiers: never empty, no spaces, quotes, commas or braces, never the word NULL).
 */
export function arrayLiteral(values: readonly unknown[] | Int32Array, plain = false): string {
  if (values instanceof Int32Array) return `{${values.join(",")}}`;
  const hasNull = values.includes(null) || values.includes(undefined);
  // Fast paths: one native join for the common columns (no nulls; nothing to escape).
  if (!hasNull && (plain || typeof values[0] === "number" || typeof values[0] === "boolean"))
    return `{${values.join(",")}}`;
  if (!hasNull && values.every((v) => typeof v === "string")) {
    const joined = values.join(SEPARATOR);
    if (!NEEDS_ESCAPE.test(joined)) return `{"${joined.replaceAll(SEPARATOR, '","')}"}`;
  }
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) parts[i] = "NULL";
    else if (typeof v === "number") parts[i] = String(v);
    else if (typeof v === "boolean") parts[i] = v ? "t" : "f";
    else if (plain) parts[i] = v as string;
    else {
      const s = String(v);
      parts[i] = `"${NEEDS_ESCAPE.test(s) ? s.replace(ESCAPE, "\\$&") : s}"`;
    }
  }
  return `{${parts.join(",")}}`;
}
