// The one JSON serialiser of the service: bigints as decimal strings (wei never passes through a float).
import { badRequest } from "./errors";

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

/** An answer already serialised (written by the database, see tokenJson): the wrapper sends its text as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A request body's JSON, or a 400 saying it is not JSON. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("the body is not valid JSON");
  }
}
