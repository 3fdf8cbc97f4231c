// Text from outside made storable. Anyone can call a public factory with any text, and PostgreSQL refuses a lone
// surrogate in jsonb (22P02) and a NUL anywhere (22021, 22P05): one such value must not stop a write.

/** C0 and C1 controls and DEL (Unicode's Cc); the second keeps tab, line feed and carriage return. */
const CONTROLS = /\p{Cc}/gu;
const CONTROLS_BUT_LINES = /[^\P{Cc}\t\n\r]/gu;

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** The first `n` UTF-16 units of `text`, one fewer where the cut would split a pair. */
function cutAtCodePoint(text: string, n: number): string {
  if (text.length <= n) return text;
  return isHigh(text.charCodeAt(n - 1)) && !isHigh(text.charCodeAt(n)) ? text.slice(0, n - 1) : text.slice(0, n);
}

/**
 * `value` as text PostgreSQL stores: lone surrogates replaced by U+FFFD, controls removed (NUL always), and cut to at
 * most `max` UTF-16 units without splitting a pair. Anything but a string is "".
 */
export function storableText(value: unknown, max: number, keepLines = false): string {
  if (typeof value !== "string") return "";
  // A megabyte name is cut before it is scanned.
  const text = cutAtCodePoint(value, max * 4)
    .toWellFormed()
    .replace(keepLines ? CONTROLS_BUT_LINES : CONTROLS, "");
  return text.length > max ? cutAtCodePoint(text, max) : text;
}

/** A lone surrogate or a NUL, as JSON.stringify escapes them: what jsonb refuses. */
const UNSTORABLE_ESCAPE = /\\u(?:[dD][89a-fA-F][0-9a-fA-F]{2}|0000)/;

/** Every string (and key) of a parsed JSON value made well-formed and free of NUL; depth is what JSON.parse allowed. */
function storableValue(value: unknown): unknown {
  if (typeof value === "string") return value.toWellFormed().replaceAll("\u0000", "");
  if (Array.isArray(value)) return value.map(storableValue);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableValue(k), storableValue(v)]));
  return value;
}

/**
 * JSON text that jsonb accepts: text without the escape of a lone surrogate or a NUL is returned as it is (the
 * common case costs one scan); otherwise it is parsed, cleaned and written again.
 */
export function storableJson(text: string): string {
  return UNSTORABLE_ESCAPE.test(text) ? JSON.stringify(storableValue(JSON.parse(text))) : text;
}

/** The path of the first string (or key) of a parsed JSON value that holds a lone surrogate, or null. */
export function illFormedPath(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === "string") return value.isWellFormed() ? null : path;
  if (!value || typeof value !== "object") return null;
  for (const [key, item] of Object.entries(value)) {
    if (!key.isWellFormed()) return [...path, key.toWellFormed()];
    const found = illFormedPath(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** Whether JSON text may hold a lone surrogate: only an escape can put one there (decoded UTF-8 never does). */
export const mayHoldLoneSurrogate = (text: string) => /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/.test(text);
