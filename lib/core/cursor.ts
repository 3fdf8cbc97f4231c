// The one cursor codec: a small JSON object in base64url (base64 accepted), opaque to clients. Each list gives
// the shape its cursors have; anything else is refused with the one message, as a 400 in the query's details.
// A well-formed cursor whose data has since moved (a list replaced, a snapshot re-scored) is the one 409 below.
import { z, type ZodType } from "zod";
import { conflict } from "./errors";

export const CURSOR_MESSAGE = "is not a cursor returned by this endpoint";
const MAX_CURSOR_CHARS = 512;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The one answer to a cursor the data moved under: 409, since the request was right when the cursor was made
 * and only starting again without a cursor helps. `change` says what happened ("the leaderboard was re-scored").
 */
export const staleCursor = (change: string) =>
  conflict(`cursor: ${change} after this cursor was made; start again without a cursor`);

export function encodeCursor(payload: object): string {
  return Buffer.from(JSON.stringify(payload)).toString("base64url");
}

/** The cursor's payload when it has the given shape, else null. */
export function decodeCursor<T>(raw: string, shape: ZodType<T>): T | null {
  if (raw.length > MAX_CURSOR_CHARS || !BASE64.test(raw)) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = shape.safeParse(decoded);
  return parsed.success ? parsed.data : null;
}

/** A query parameter holding a cursor of the given shape, decoded (and mapped) by the schema itself. */
export function zCursorOf<T, R = T>(
  shape: ZodType<T>,
  map: (payload: T) => R | null = (payload) => payload as unknown as R,
) {
  return z.string().transform((raw, ctx): R => {
    const payload = decodeCursor(raw, shape);
    const value = payload === null ? null : map(payload);
    if (value === null) {
      ctx.addIssue({ code: "custom", message: CURSOR_MESSAGE });
      return z.NEVER;
    }
    return value;
  });
}
