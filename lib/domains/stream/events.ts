// Token events as the stream sends them: the cursor (a position and when it was served), the SSE frames of
// each event in the four shapes a stream may ask for (made once, shared by every stream of the instance),
// and the filters bots use.
import { z } from "zod";
import { encodeCursor, zCursorOf } from "@/lib/core/cursor";
import { toJson } from "@/lib/core/json";
import type { UserObject } from "@/lib/domains/users/serialize";
import { type EventRow, marketOf, type Position, tokenJson, toMarket } from "@/lib/domains/tokens/service";

/** A stream cursor: the position, and the time (ms) of the last event or heartbeat it came with. */
export type StreamCursor = Position & { at: number };

const cursorShape = z.strictObject({
  x: z.string().regex(/^\d{1,20}$/),
  s: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  t: z.number().int().min(0).max(8.64e15),
});

export function encodeStreamCursor(c: StreamCursor): string {
  return encodeCursor({ x: c.xid, s: c.seq, t: c.at });
}

/** `Last-Event-ID` or `cursor`: a 400 unless this endpoint wrote it. */
export const zStreamCursor = zCursorOf(cursorShape, (p): StreamCursor | null =>
  BigInt(p.x) < 2n ** 64n ? { xid: BigInt(p.x).toString(), seq: p.s, at: p.t } : null,
);

export type StreamFilters = {
  chainId?: number;
  fids?: number[];
  msgSender?: string;
  pair?: string;
  type?: string;
};

/** What a stream's events carry besides the token: as `includeUser` and `includeMarket` on GET /api/tokens. */
export type Shape = { includeUser: boolean; includeMarket: boolean };

export type StreamEvent = {
  position: Position;
  id: string;
  chainId: number;
  fid: number | null;
  msgSender: string;
  pair: string | null;
  type: string;
  /** The `event: token` frame in this shape (made on first use, then shared). */
  frame(shape: Shape): string;
};

/** The creator profiles of a batch, when some stream asked for them. */
export type Profiles = Map<number, UserObject> | undefined;

export function toStreamEvent(row: EventRow, profiles: () => Profiles): StreamEvent {
  const position = { xid: row.xid, seq: row.seq };
  const id = encodeStreamCursor({ ...position, at: row.indexed_at.getTime() });
  const frames = new Map<number, string>();
  return {
    position,
    id,
    chainId: row.chain_id,
    fid: row.requestor_fid,
    msgSender: row.msg_sender,
    pair: row.pair?.toLowerCase() ?? null,
    type: row.type,
    frame(shape) {
      const key = (shape.includeUser ? 1 : 0) + (shape.includeMarket ? 2 : 0);
      let text = frames.get(key);
      if (text === undefined) {
        const users = shape.includeUser ? profiles() : undefined;
        const user = shape.includeUser
          ? ((row.requestor_fid !== null ? users?.get(row.requestor_fid) : undefined) ?? null)
          : undefined;
        const json = tokenJson(row, {
          ...(user !== undefined ? { user } : {}),
          ...(shape.includeMarket ? { market: toMarket(marketOf(row)) } : {}),
        });
        text = `id: ${id}\nevent: token\ndata: ${json.text}\n\n`;
        frames.set(key, text);
      }
      return text;
    },
  };
}

export function matches(event: StreamEvent, f: StreamFilters): boolean {
  if (f.chainId !== undefined && event.chainId !== f.chainId) return false;
  if (f.fids && (event.fid === null || !f.fids.includes(event.fid))) return false;
  if (f.msgSender && event.msgSender !== f.msgSender) return false;
  if (f.pair && event.pair !== f.pair) return false;
  if (f.type && event.type !== f.type) return false;
  return true;
}

/** A frame of another kind (ready, gap, end): an id when the stream's cursor moves with it. */
export function controlFrame(event: string, data: object, id?: string): string {
  return `${id ? `id: ${id}\n` : ""}event: ${event}\ndata: ${toJson(data)}\n\n`;
}

/** The heartbeat: a comment, and the cursor the stream has reached (EventSource keeps an id sent without data). */
export function heartbeatFrame(id: string): string {
  return `: keepalive\nid: ${id}\n\n`;
}
