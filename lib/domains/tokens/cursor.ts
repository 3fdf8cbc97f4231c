// Keyset cursors of the token lists (COMPAT): base64url of a small JSON object, opaque to clients.
// `id` is the sort position (deployed_at as an ISO timestamp with microseconds, or the market value, or
// null in the tail of rows without one), `tiebreaker` the row id, `order` the ordering it belongs to.
import { z } from "zod";
import { encodeCursor as encodeOpaque, zCursorOf } from "@/lib/core/cursor";

export const SORT_BY = ["market-cap", "tx-h24", "price-percent-h24", "price-percent-h1"] as const;
export type SortBy = (typeof SORT_BY)[number];
export type Direction = "asc" | "desc";
/** `deployed_at:desc`, `market-cap:asc`, ... */
export type Order = `${"deployed_at" | SortBy}:${Direction}`;

export type Cursor = { value: string | number | null; id: number; order: Order };

const ISO_MICROS = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

const payload = z.object({
  id: z.union([z.string().regex(ISO_MICROS), z.number().finite(), z.null()]),
  tiebreaker: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  order: z.string().regex(/^(deployed_at|market-cap|tx-h24|price-percent-h24|price-percent-h1):(asc|desc)$/),
});

/** The value's type follows the order: a real instant, an integer transaction count, a float, or null. */
function fitsOrder(value: string | number | null, order: string): boolean {
  if (order.startsWith("deployed_at:")) {
    return (
      typeof value === "string" &&
      !Number.isNaN(Date.parse(value)) &&
      new Date(value).toISOString().slice(0, 19) === value.slice(0, 19)
    );
  }
  if (typeof value === "string") return false;
  return !(order.startsWith("tx-h24:") && value !== null && !(Number.isInteger(value) && Math.abs(value) < 2 ** 31));
}

export function orderOf(sortBy: SortBy | undefined, sort: Direction): Order {
  return `${sortBy ?? "deployed_at"}:${sort}`;
}

export function encodeCursor(cursor: Cursor): string {
  return encodeOpaque({ id: cursor.value, tiebreaker: cursor.id, order: cursor.order });
}

/** Accepts base64 and base64url; anything that is not a cursor this service issued is an issue (400). */
export const zCursor = zCursorOf(payload, ({ id, tiebreaker, order }): Cursor | null =>
  fitsOrder(id, order) ? { value: id, id: tiebreaker, order: order as Order } : null,
);
