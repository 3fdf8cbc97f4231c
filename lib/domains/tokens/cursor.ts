// Keyset cursors of the token lists (COMPAT): base64url of a small JSON object, opaque to clients.
// `id` is the sort position (deployed_at as an ISO timestamp with microseconds, or the market value, or
// null in the tail of rows without one), `tiebreaker` the row id, `order` the ordering it belongs to.
// The platform's own cursors are `{ "id": "<deployed_at, seconds, no zone>" }` alone: accepted as "past that
// instant" in the newest-first or oldest-first order, whichever the request asks for.
import { z } from "zod";
import { encodeCursor as encodeOpaque, zCursorOf } from "@/lib/core/cursor";

export const SORT_BY = ["market-cap", "tx-h24", "price-percent-h24", "price-percent-h1"] as const;
export type SortBy = (typeof SORT_BY)[number];
export type Direction = "asc" | "desc";
/** `deployed_at:desc`, `market-cap:asc`, ... */
export type Order = `${"deployed_at" | SortBy}:${Direction}`;

/**
 * A position in a list. `id` null: past every row at `value` (the platform's cursors carry no row id).
 * `order` null: a deployed_at position, valid in either direction.
 */
export type Cursor = { value: string | number | null; id: number | null; order: Order | null };

const ISO_MICROS = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
/** The platform's: an ISO date and time without a zone (UTC), seconds or finer. */
const PLATFORM_INSTANT = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z?$/;

const payload = z.union([
  z.object({
    id: z.union([z.string().regex(ISO_MICROS), z.number().finite(), z.null()]),
    tiebreaker: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    order: z.string().regex(/^(deployed_at|market-cap|tx-h24|price-percent-h24|price-percent-h1):(asc|desc)$/),
  }),
  z.strictObject({ id: z.string().regex(PLATFORM_INSTANT) }),
]);

/** The value's type follows the order: a real instant, an integer transaction count, a float, or null. */
function fitsOrder(value: string | number | null, order: string): boolean {
  if (order.startsWith("deployed_at:")) return typeof value === "string" && isInstant(value);
  if (typeof value === "string") return false;
  return !(order.startsWith("tx-h24:") && value !== null && !(Number.isInteger(value) && Math.abs(value) < 2 ** 31));
}

/** A real calendar instant (Date.parse rolls 2025-02-30 over to March: compare it back). */
function isInstant(value: string): boolean {
  return !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().slice(0, 19) === value.slice(0, 19);
}

export function orderOf(sortBy: SortBy | undefined, sort: Direction): Order {
  return `${sortBy ?? "deployed_at"}:${sort}`;
}

export function encodeCursor(cursor: { value: string | number | null; id: number; order: Order }): string {
  return encodeOpaque({ id: cursor.value, tiebreaker: cursor.id, order: cursor.order });
}

/**
 * The cursor for a list in `order`: as it came, or null when it belongs to another order (a client that
 * changed the sort starts over at page one, as on the platform).
 */
export function cursorFor(cursor: Cursor | undefined, order: Order): Cursor | undefined {
  if (!cursor) return undefined;
  if (cursor.order === null) return order.startsWith("deployed_at:") ? cursor : undefined;
  return cursor.order === order ? cursor : undefined;
}

/** Accepts base64 and base64url; anything that is neither this service's nor the platform's cursor is a 400. */
export const zCursor = zCursorOf(payload, (p): Cursor | null => {
  if (!("order" in p)) {
    const value = p.id.endsWith("Z") ? p.id : `${p.id}Z`;
    return isInstant(value) ? { value: new Date(value).toISOString(), id: null, order: null } : null;
  }
  return fitsOrder(p.id, p.order) ? { value: p.id, id: p.tiebreaker, order: p.order as Order } : null;
});
