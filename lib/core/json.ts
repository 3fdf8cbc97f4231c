// The one JSON serialiser of the service: bigints as decimal strings (wei never passes through a float).
import { badRequest } from "./errors";
import { illFormedPath, mayHoldLoneSurrogate } from "./text";

/** JSON with bigints as decimal strings. A replacer slows every answer down, so it is only the fallback. */
export function toJson(data: unknown): string {
  try {
    return JSON.stringify(data);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(data, bigintAsString);
  }
}

/** The replacer behind toJson, for callers that pass their own (the log adds errors to it). */
export function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/** The type of a value once through toJson and JSON.parse: bigints become decimal strings. */
export type Jsonified<T> = T extends bigint
  ? string
  : T extends readonly (infer E)[]
    ? Jsonified<E>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;

/**
 * An answer already serialised (written by the database, see tokenJson): the wrapper sends its text as it is.
 * `T` is the answer the text stands for, so that a route's response schema checks it at compile time.
 */
export class JsonText<T = unknown> {
  /** Never set: it carries `T` for the compiler only. */
  declare readonly answer?: T;
  constructor(readonly text: string) {}
}

/** What a member of jsonObject stands for: JsonText<T> is T, an array of them T[], anything else itself. */
type Spliced<V> =
  V extends JsonText<infer T> ? T : V extends readonly (infer E)[] ? (E extends JsonText<infer T> ? T : E)[] : V;

/**
 * An answer object some of whose members are already serialised (JsonText, or arrays of JsonText): those are
 * spliced in as they are, the others serialised by toJson. Members left undefined are left out.
 */
export function jsonObject<M extends Record<string, unknown>>(members: M): JsonText<{ [K in keyof M]: Spliced<M[K]> }> {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(members)) {
    if (value !== undefined) parts.push(`${JSON.stringify(name)}:${jsonPart(value)}`);
  }
  return new JsonText(`{${parts.join(",")}}`);
}

/** An object's JSON text with more members added at its end (an object already serialised, such as a token's). */
export function withMembers<T extends object, M extends Record<string, unknown>>(
  object: JsonText<T>,
  members: M,
): JsonText<T & { [K in keyof M]: Spliced<M[K]> }> {
  const added = jsonObject(members).text;
  return new JsonText(added === "{}" ? object.text : `${object.text.slice(0, -1)},${added.slice(1)}`);
}

function jsonPart(value: unknown): string {
  if (value instanceof JsonText) return value.text;
  if (Array.isArray(value) && value.some((v) => v instanceof JsonText))
    return `[${value.map((v) => (v instanceof JsonText ? v.text : toJson(v))).join(",")}]`;
  return toJson(value);
}

/**
 * A request body's JSON, or a 400 saying it is not JSON, or naming the member that holds a lone surrogate (an escape
 * such as \ud800 alone: no storage and no chain takes it, so the body is refused rather than silently changed).
 */
export function parseJsonText(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest("the body is not valid JSON");
  }
  const path = mayHoldLoneSurrogate(text) ? illFormedPath(value) : null;
  if (path) {
    const where = path.join(".") || "(the body)";
    const message = "holds a lone surrogate: text must be well-formed Unicode";
    throw badRequest(`${where}: ${message}`, [{ in: "body", path: where, message }]);
  }
  return value;
}
