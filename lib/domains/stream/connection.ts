// One open stream: a client that resumes catches up from the database (up to the hub's position), then takes
// the hub's batches; every event is sent once, in position order. It ends itself before the function's limit
// (event `end`), and drops a client that stops reading (its cursor resumes it elsewhere).
import { db } from "@/db";
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { remember } from "@/lib/core/remember";
import {
  controlFrame,
  encodeStreamCursor,
  heartbeatFrame,
  matches,
  type Shape,
  type StreamCursor,
  type StreamEvent,
  type StreamFilters,
} from "./events";
import { BATCH, eventsOf, hub, type Listener, type SharedFrames } from "./hub";
import { comparePositions, findHorizon, type Position, readEvents } from "@/lib/domains/tokens/service";

export type StreamRequest = { filters: StreamFilters; shape: Shape; cursor?: StreamCursor };

/** Bytes a client may leave unread before it is dropped. */
const MAX_UNREAD_BYTES = 4 * 1024 * 1024;
/** A tokens list may lag its chain by up to this much: the gap event's list starts this long before the cursor. */
const LIST_MARGIN_MS = 10 * 60 * 1000;
const encoder = new TextEncoder();

/** When streams end, by the second: one timer for every stream of the instance, running while any is open. */
const ends = () =>
  remember("stream-ends", () => ({ bySecond: new Map<number, Set<() => void>>(), timer: undefined as Timer }));
type Timer = NodeJS.Timeout | undefined;

function sweepEnds(): void {
  const e = ends();
  const now = Date.now() / 1000;
  for (const [second, due] of e.bySecond) {
    if (second > now) continue;
    e.bySecond.delete(second);
    for (const end of due) end();
  }
  if (!e.bySecond.size) {
    clearInterval(e.timer);
    e.timer = undefined;
  }
}

/** Calls `end` within the second before `atMs`; returns what cancels it. */
function endAt(atMs: number, end: () => void): () => void {
  const e = ends();
  const second = Math.floor(atMs / 1000);
  let due = e.bySecond.get(second);
  if (!due) e.bySecond.set(second, (due = new Set()));
  due.add(end);
  if (!e.timer) {
    e.timer = setInterval(sweepEnds, 1000);
    e.timer.unref?.();
  }
  return () => {
    due.delete(end);
    if (!due.size && e.bySecond.get(second) === due) e.bySecond.delete(second);
  };
}

/** The GET /api/tokens query that pages, oldest first, from shortly before `at` (the platform's cursor form). */
function listFrom(at: number): string {
  const instant = new Date(Math.max(0, at - LIST_MARGIN_MS)).toISOString().slice(0, 19);
  return `/api/tokens?sort=asc&cursor=${Buffer.from(JSON.stringify({ id: instant })).toString("base64url")}`;
}

/** What one batch makes for a stream at `last`: the frames it sends, where it then is, and its new id (if any). */
function render(
  events: StreamEvent[],
  r: StreamRequest,
  from: Position | null,
  position: Position,
  id: string,
): { text: string; last: Position | null; lastId: string } {
  let last = from;
  let lastId = "";
  let text = "";
  let clientAt: Position | null = null;
  for (const e of events) {
    if (last && comparePositions(e.position, last) <= 0) continue;
    last = e.position;
    if (!matches(e, r.filters)) continue;
    text += e.frame(r.shape);
    clientAt = e.position;
    lastId = e.id;
  }
  if (!last || comparePositions(position, last) >= 0) {
    last = position;
    if (!clientAt || comparePositions(position, clientAt) > 0) {
      text += heartbeatFrame(id);
      lastId = id;
    }
  } else if (!events.length) text += ": keepalive\n\n";
  return { text, last, lastId };
}

export function openStream(r: StreamRequest, onClose: () => void): ReadableStream<Uint8Array> {
  const c = config();
  let closed = false;
  let last: Position | null = r.cursor ? { xid: r.cursor.xid, seq: r.cursor.seq } : null;
  let lastId = r.cursor ? encodeStreamCursor(r.cursor) : "";
  let live = false;
  const pending: Array<{ events: StreamEvent[]; position: Position; id: string }> = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelEnd = () => {};

  const close = () => {
    if (closed) return;
    closed = true;
    cancelEnd();
    hub().detach(listener);
    try {
      controller.close();
    } catch {
      // already closed by the client
    }
    onClose();
  };
  const writeBytes = (bytes: Uint8Array) => {
    if (closed) return;
    controller.enqueue(bytes);
    if ((controller.desiredSize ?? 0) < -MAX_UNREAD_BYTES) close();
  };
  const write = (text: string) => writeBytes(encoder.encode(text));
  const sharedKey = JSON.stringify([r.shape.includeUser, r.shape.includeMarket, r.filters]);
  /**
   * Sends the events after `last` that pass the filters, then moves `last` to `position`: the client's id moves
   * with it (an id without data), so a filtered stream resumes past the events it skipped. Never backwards: a
   * client that came with a cursor ahead of this instance gets comments until the instance passes it.
   */
  const send = (events: StreamEvent[], position: Position, id: string, shared?: Map<string, SharedFrames>) => {
    // A stream that takes the whole batch (or the heartbeat) sends what every stream with the same filters and
    // shape sends: made and encoded once per batch, by the first of them, and the others write the same bytes.
    const whole =
      !last || (events.length ? comparePositions(events[0].position, last) > 0 : comparePositions(position, last) >= 0);
    if (shared && whole) {
      const key = events.length ? sharedKey : "";
      let frames = shared.get(key);
      if (!frames) {
        const made = render(events, r, null, position, id);
        frames = { bytes: made.text ? encoder.encode(made.text) : null, lastId: made.lastId };
        shared.set(key, frames);
      }
      last = position;
      if (frames.lastId) lastId = frames.lastId;
      if (frames.bytes) writeBytes(frames.bytes);
      return;
    }
    const made = render(events, r, last, position, id);
    last = made.last;
    if (made.lastId) lastId = made.lastId;
    if (made.text) write(made.text);
  };
  const listener: Listener = {
    wantsUsers: r.shape.includeUser,
    deliver(events, position, id, shared) {
      if (live) send(events, position, id, shared);
      else pending.push({ events, position, id });
    },
  };

  /** Reads from the database what the client missed, up to where the hub is, then goes live. */
  async function catchUp(): Promise<void> {
    const h = hub();
    await h.ready();
    if (!last) {
      last = h.position;
      lastId = h.positionId;
      write(controlFrame("ready", { cursor: lastId }, lastId));
    } else {
      const pruned = await findHorizon(db());
      if (pruned && comparePositions(last, pruned) < 0) {
        // Away longer than the retention: say so, and where the list resumes; the stream goes on from now.
        write(
          controlFrame("gap", {
            reason: "the cursor is older than the events kept for resuming",
            list: listFrom(r.cursor?.at ?? 0),
            cursor: h.positionId,
          }),
        );
        last = h.position;
        lastId = h.positionId;
        write(controlFrame("ready", { cursor: lastId }, lastId));
      }
      while (!closed && h.position && last && comparePositions(last, h.position) < 0) {
        const until = h.position;
        const untilId = h.positionId;
        const { rows } = await readEvents(db(), last, BATCH, until);
        const events = await eventsOf(rows, r.shape.includeUser);
        const tail = events.at(-1);
        if (rows.length < BATCH || !tail) send(events, until, untilId);
        else send(events, tail.position, tail.id);
      }
    }
    // From here on the hub's batches come in order, from a position at or before `last`.
    live = true;
    for (const p of pending.splice(0)) send(p.events, p.position, p.id);
  }

  return new ReadableStream<Uint8Array>(
    {
      start(ctrl) {
        controller = ctrl;
        write(`retry: ${c.STREAM_RETRY_MS}\n: stream of newly indexed tokens\n\n`);
        // Ended a little before the limit, at a spread of times so that clients do not all come back at once.
        const endMs = c.STREAM_MAX_SECONDS * 1000 * (0.9 + Math.random() * 0.1);
        cancelEnd = endAt(Date.now() + endMs, () => {
          write(controlFrame("end", { reason: "reconnect with Last-Event-ID", cursor: lastId }));
          close();
        });
        hub().attach(listener);
        catchUp().catch((error) => {
          log.warn("token stream failed while catching up", { error });
          close();
        });
      },
      cancel() {
        close();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}
