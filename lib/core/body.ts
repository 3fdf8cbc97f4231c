// Reading a request body with limits a hostile sender cannot stretch: a byte cap (413), a total deadline
// and a minimum rate (408). A stall timer alone is not enough: one byte every few seconds restarts it and
// holds the request (and, for tree uploads, one of the few upload slots) for as long as the sender likes.
import { config } from "./config";
import { badRequest, type HttpError, payloadTooLarge, requestTimeout } from "./errors";
import { parseJsonText } from "./json";

export type BodyLimits = {
  maxBytes: number;
  /** The whole body must have arrived within this long. */
  deadlineMs: number;
  /** Every full window of `windowMs` must bring at least this many bytes a second. */
  minBytesPerSecond: number;
  windowMs?: number;
  /** The 413 to throw past maxBytes (callers word it for what they read). */
  tooLarge?: (maxBytes: number) => HttpError;
};

export const BODY_RATE_WINDOW_MS = 10_000;
/** How long reading a body's chunks may hold the event loop before it lets other work run. */
const YIELD_AFTER_MS = 5;

/** Limits of an ordinary (non-streamed) body of at most `maxBytes`. */
export function jsonBodyLimits(maxBytes: number): BodyLimits {
  const cfg = config();
  return { maxBytes, deadlineMs: cfg.BODY_TIMEOUT_SECONDS * 1000, minBytesPerSecond: cfg.BODY_MIN_BYTES_PER_SECOND };
}

// Requests whose body was read to its end: an error answer to any other request that has a body closes
// the connection, since the unread (or cancelled) rest of the body makes the socket unusable for the next
// request a client would pool onto it.
const finished = new WeakSet<Request>();

export function bodyFinished(request: Request): boolean {
  return finished.has(request);
}

/**
 * Hands each chunk of the body to `onChunk` (awaited, so a consumer can stop reading early by throwing)
 * and returns the byte count. Throws 413 past the cap, 408 past the deadline or below the minimum rate,
 * 400 when the client goes away; the stream is cancelled on any throw.
 */
export async function readBody(
  request: Request,
  limits: BodyLimits,
  onChunk: (chunk: Uint8Array) => void | Promise<void>,
): Promise<number> {
  const tooLarge = limits.tooLarge ?? payloadTooLarge;
  if (Number(request.headers.get("content-length") ?? "0") > limits.maxBytes) throw tooLarge(limits.maxBytes);
  if (!request.body) {
    finished.add(request);
    return 0;
  }
  const stream = request.body.getReader();
  const windowMs = limits.windowMs ?? BODY_RATE_WINDOW_MS;
  const started = Date.now();
  let size = 0;
  let windowStart = started;
  let consuming = false;
  let windowBytes = 0;
  let ranSince = performance.now();
  // The timer's verdict, and the rejection of the chunk being waited for. Each wait is a promise of its own: raced
  // against one promise that lives as long as the body, every chunk read would stay reachable (through that promise's
  // reactions, each holding a race's result) until the body ends: a 225 MB upload kept 225 MB.
  let cut: HttpError | undefined;
  let rejectWait: ((error: HttpError) => void) | undefined;
  const stop = (error: HttpError) => {
    cut = error;
    rejectWait?.(error);
  };
  // One timer checks both limits, so a sender that stops sending altogether is cut as well.
  const timer = setInterval(
    () => {
      const now = Date.now();
      if (now - started > limits.deadlineMs) {
        return stop(requestTimeout(`the body did not arrive within ${limits.deadlineMs / 1000} s`));
      }
      if (!consuming && now - windowStart >= windowMs) {
        if (windowBytes < (limits.minBytesPerSecond * (now - windowStart)) / 1000) {
          return stop(requestTimeout(`the body arrived slower than ${limits.minBytesPerSecond} bytes a second`));
        }
        windowStart = now;
        windowBytes = 0;
      }
    },
    Math.min(1000, windowMs, limits.deadlineMs),
  );
  timer.unref?.();
  try {
    for (;;) {
      const { done, value } = await new Promise<ReadableStreamReadResult<Uint8Array>>((resolve, reject) => {
        if (cut) return reject(cut);
        rejectWait = reject;
        // A client that goes away mid-body is not a server fault: 400, not 500 (nobody reads it anyway).
        stream.read().then(resolve, () => reject(badRequest("the body was interrupted (the connection closed)")));
      });
      rejectWait = undefined;
      if (done) break;
      size += value.byteLength;
      windowBytes += value.byteLength;
      if (size > limits.maxBytes) throw tooLarge(limits.maxBytes);
      // While the consumer works (e.g. an upload's owner read from the chain) nothing is read: the rate window
      // pauses, as that time is not the sender's; the deadline does not.
      const since = Date.now();
      consuming = true;
      try {
        await onChunk(value);
      } finally {
        consuming = false;
        windowStart += Date.now() - since;
      }
      // Chunks already received are handed over in one run of promise callbacks: a fast sender of a big body would
      // keep other sockets (other requests, the database writing what this upload started) waiting until the body
      // is read. Let them in every few milliseconds.
      if (performance.now() - ranSince > YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        ranSince = performance.now();
      }
    }
    finished.add(request);
    return size;
  } catch (error) {
    // Not awaited: under next start, cancelling a body whose sender went silent settles only when the socket
    // closes, and the answer (with Connection: close) is what closes it.
    stream.cancel().catch(() => {});
    throw error;
  } finally {
    clearInterval(timer);
  }
}

/** The body as text within `limits`; "" when there is none. */
export async function readBodyText(request: Request, limits: BodyLimits): Promise<string> {
  const chunks: Uint8Array[] = [];
  await readBody(request, limits, (chunk) => void chunks.push(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** The body as text, refused with 413 past `maxBytes` (declared or streamed); "" when there is none. */
export function readCappedText(request: Request, maxBytes: number): Promise<string> {
  return readBodyText(request, jsonBodyLimits(maxBytes));
}

/**
 * A JSON body within `maxBytes`: 400 when it is not JSON, or missing unless `optional` (then `{}`). A POST
 * without a body still has an (empty) stream, so emptiness is only known after reading. A leading UTF-8 byte order
 * mark is skipped, as Request.json() does (the Fetch standard's UTF-8 decode), so a body the platform reads is read.
 */
export async function readJsonBody(request: Request, maxBytes: number, optional = false): Promise<unknown> {
  const read = await readCappedText(request, maxBytes);
  const text = read.charCodeAt(0) === 0xfeff ? read.slice(1) : read;
  if (!text.trim()) {
    if (optional) return {};
    throw badRequest("a JSON body is required");
  }
  return parseJsonText(text);
}
