// Open streams counted per client address, per API key and in all, on this instance; past a bound, a 429 with
// Retry-After. A slot is taken before the stream opens and given back when it closes, however it closes.
import { config } from "@/lib/core/config";
import { rateLimited } from "@/lib/core/errors";
import { remember } from "@/lib/core/remember";

/** Who holds a stream: its API key's partner when it sent one, else its address (ipSubject). */
export type StreamHolder = { kind: "key"; partnerId: number } | { kind: "address"; subject: string };

const RETRY_AFTER_SECONDS = 30;

const open = () => remember("stream-slots", () => ({ total: 0, by: new Map<string, number>() }));

/** Open streams on this instance now. */
export function openStreamCount(): number {
  return open().total;
}

/** Takes a slot for the holder, or throws 429; returns the function that gives it back (once). */
export function takeSlot(holder: StreamHolder): () => void {
  const c = config();
  const slots = open();
  const key = holder.kind === "key" ? `key:${holder.partnerId}` : holder.subject;
  const cap = holder.kind === "key" ? c.STREAM_MAX_PER_KEY : c.STREAM_MAX_PER_CLIENT;
  const held = slots.by.get(key) ?? 0;
  if (slots.total >= c.STREAM_MAX_CONNECTIONS)
    throw rateLimited(RETRY_AFTER_SECONDS, "this instance holds as many streams as it may; retry after Retry-After");
  if (held >= cap)
    throw rateLimited(
      RETRY_AFTER_SECONDS,
      `at most ${cap} open streams per ${holder.kind === "key" ? "API key" : "client address"}; close one first`,
    );
  slots.total += 1;
  slots.by.set(key, held + 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    slots.total -= 1;
    const now = (slots.by.get(key) ?? 1) - 1;
    if (now > 0) slots.by.set(key, now);
    else slots.by.delete(key);
  };
}
