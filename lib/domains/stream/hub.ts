// One reader of token events per instance: while any stream is open it reads new events when the database notifies
// it of some (LISTEN token_events) and every STREAM_POLL_MS in any case, and hands each batch to every open stream
// of the instance, so a thousand streams cost one query, not a thousand.
// `position` only moves forward, and every event up to it has been handed to the streams attached before it moved.
import { db, listen, type Unlisten } from "@/db";
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { remember } from "@/lib/core/remember";
import { listUserObjects } from "@/lib/domains/users/service";
import { encodeStreamCursor, type Profiles, type StreamEvent, toStreamEvent } from "./events";
import { comparePositions, type EventRow, type Position, pruneEvents, readEvents } from "@/lib/domains/tokens/service";

export const BATCH = 500;

/** What the streams with the same filters and shape send for one batch: its bytes (none: nothing), and their id. */
export type SharedFrames = { bytes: Uint8Array | null; lastId: string };

export type Listener = {
  wantsUsers: boolean;
  /**
   * Events after the previous batch's position, up to `position` (none: a heartbeat of the position). `shared`
   * holds what this batch made, by filters and shape, for the streams that take all of it to send the same bytes.
   */
  deliver(events: StreamEvent[], position: Position, id: string, shared?: Map<string, SharedFrames>): void;
};

/** Events of rows read together; creator profiles are read once for the batch when asked for. */
export async function eventsOf(rows: EventRow[], withUsers: boolean): Promise<StreamEvent[]> {
  let profiles: Profiles;
  if (withUsers) {
    const fids = rows.flatMap((r) => (r.requestor_fid === null ? [] : [r.requestor_fid]));
    profiles = fids.length ? (await listUserObjects(fids)).users : new Map();
  }
  return rows.map((row) => toStreamEvent(row, () => profiles));
}

const PRUNE_EVERY_MS = 10 * 60 * 1000;
/**
 * The least time between two reads that a wake starts. Indexers commit tokens one transaction at a time, and each
 * commit notifies: one read per commit would make one write per stream per token. This gathers a burst's commits.
 */
const WAKE_GAP_MS = 100;

class Hub {
  readonly listeners = new Set<Listener>();
  position: Position | null = null;
  /** The cursor of `position` (and when it was reached). */
  positionId = "";
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private readyWaiters: Array<() => void> = [];
  private polling = false;
  private lastRead = 0;
  /** Asked to read again while a read was running. */
  private again = false;
  private lastPrune = 0;
  /** The LISTEN session while streams are open (undefined: none yet, or lost; null: the database has none). */
  private unlisten: Promise<Unlisten | null> | undefined;

  attach(listener: Listener): void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.start();
  }

  detach(listener: Listener): void {
    this.listeners.delete(listener);
    if (this.listeners.size === 0) this.stop();
  }

  /** Resolves once the hub has read its first position (at once when it has one). */
  ready(): Promise<void> {
    if (this.position) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  private start(): void {
    const beat = config().STREAM_HEARTBEAT_SECONDS * 1000;
    this.heartbeat = setInterval(() => this.beat(), beat);
    this.heartbeat.unref?.();
    this.listen();
    void this.poll();
  }

  /** Reads now, or right after the read that is running. */
  wake(): void {
    if (this.polling) this.again = true;
    else this.schedule(this.lastRead + WAKE_GAP_MS - Date.now());
  }

  private listen(): void {
    const lost = () => {
      this.unlisten = undefined;
    };
    this.unlisten = listen("token_events", () => this.wake(), lost).catch((error) => {
      log.warn("could not listen for token events; reading every STREAM_POLL_MS", { error });
      return null;
    });
  }

  private stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    this.timer = this.heartbeat = undefined;
    void this.unlisten?.then((stop) => stop?.());
    this.unlisten = undefined;
    // The next stream starts from a fresh position: nothing was read for anyone in between.
    this.position = null;
  }

  private beat(): void {
    if (!this.position) return;
    this.positionId = encodeStreamCursor({ ...this.position, at: Date.now() });
    const shared = new Map<string, SharedFrames>();
    for (const l of this.listeners) l.deliver([], this.position, this.positionId, shared);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    if (this.listeners.size === 0) return;
    this.timer = setTimeout(() => void this.poll(), Math.max(0, ms));
    this.timer.unref?.();
  }

  async poll(): Promise<void> {
    if (this.polling || this.listeners.size === 0) return;
    this.polling = true;
    this.again = false;
    this.lastRead = Date.now();
    let full = false;
    const from = this.position;
    try {
      // The first read waits for the LISTEN: a token committed after it is then heard of, not left to the tick.
      if (!from) await this.unlisten;
      const { rows, horizon } = await readEvents(db(), from, BATCH);
      full = rows.length === BATCH;
      if (this.position !== from) {
        // Stopped and started again while reading: the read belongs to the old run.
        full = true;
      } else if (!from) {
        // The first read starts at the head: streams that resume from earlier catch up on their own.
        this.advance([], horizon, Date.now());
      } else {
        const withUsers = [...this.listeners].some((l) => l.wantsUsers);
        const events = await eventsOf(rows, withUsers);
        if (this.position !== from) return;
        const last = rows.at(-1);
        // A batch that was not full read everything below the horizon: the position moves up to it.
        const next = full && last ? { xid: last.xid, seq: last.seq } : horizon;
        this.advance(events, next, last ? last.indexed_at.getTime() : Date.now());
      }
      void this.prune();
    } catch (error) {
      log.warn("could not read token events for the stream", { error });
    } finally {
      this.polling = false;
      // A session lost (database restart) is opened again at the next read; reads go on every STREAM_POLL_MS.
      if (!this.unlisten && this.listeners.size) this.listen();
      this.schedule(full ? 0 : this.again ? WAKE_GAP_MS : config().STREAM_POLL_MS);
    }
  }

  private advance(events: StreamEvent[], next: Position, at: number): void {
    if (this.position && comparePositions(next, this.position) < 0) return;
    const moved = !this.position || comparePositions(next, this.position) > 0 || events.length > 0;
    this.position = next;
    if (moved) this.positionId = encodeStreamCursor({ ...next, at });
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    if (!events.length) return;
    const shared = new Map<string, SharedFrames>();
    for (const l of this.listeners) l.deliver(events, next, this.positionId, shared);
  }

  /** Events older than the retention go, now and then (any instance may; the statement is idempotent). */
  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    const before = new Date(Date.now() - config().STREAM_RETENTION_HOURS * 3600 * 1000);
    await pruneEvents(db(), before).catch((error) => log.warn("could not prune token events", { error }));
  }
}

export function hub(): Hub {
  return remember("stream-hub", () => new Hub());
}
