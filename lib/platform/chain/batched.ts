// Many reads made at once (a range's block headers and its events' deploying calls) as full JSON-RPC batches: the
// calls made in one tick go as one HTTP request of up to RPC_BATCH_SIZE calls (clients.ts), and a few such batches are
// in flight at a time, so a range of thousands of events costs tens of requests, not one per event. A batch the
// provider refuses for its rate is sent again after its Retry-After (else a doubling wait), not the whole range.
import { config } from "@/lib/core/config";
import { classifyRangeError } from "./follower";

/** HTTP requests in flight at once for one set of reads: a public provider answers 429 past a few at once. */
export const BATCHES_IN_FLIGHT = 3;
/** Reads sent together when batching is off (RPC_BATCH_SIZE=0): each one is then a request of its own. */
const UNBATCHED_AT_ONCE = 8;
const MAX_RATE_LIMITED_TRIES = 6;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How readInBatches sends reads: so many in one request (a batch, or a set of single requests when batching is off),
 * so many such requests at once. A caller that splits its work to hold less at a time cuts it to this shape.
 */
export function batchShape(): { readsPerBatch: number; batchesInFlight: number } {
  const batchSize = config().RPC_BATCH_SIZE;
  return batchSize > 0
    ? { readsPerBatch: batchSize, batchesInFlight: BATCHES_IN_FLIGHT }
    : { readsPerBatch: UNBATCHED_AT_ONCE, batchesInFlight: 1 };
}

/**
 * Runs `run(0)` to `run(count - 1)` in order, `workers` at a time. After a failure no further index starts; once the
 * running ones have ended, the first failure is thrown.
 */
export async function inTurns(count: number, workers: number, run: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async () => {
    while (next < count && !failures.length) {
      const index = next++;
      await run(index).catch((error: unknown) => failures.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, count) }, worker));
  if (failures.length) throw failures[0];
}

/**
 * Runs every read, RPC_BATCH_SIZE of them in the same tick (one batch), BATCHES_IN_FLIGHT batches at a time. Reads
 * refused for the rate are tried again alone after a wait; any other error stops the rest and is thrown.
 */
export async function readInBatches(reads: readonly (() => Promise<void>)[]): Promise<void> {
  const { readsPerBatch: size, batchesInFlight: workers } = batchShape();
  await inTurns(Math.ceil(reads.length / size), workers, async (b) => {
    let batch = reads.slice(b * size, (b + 1) * size);
    for (let tries = 1; batch.length; tries++) {
      const settled = await Promise.allSettled(batch.map((read) => read()));
      const refused = batch.filter((_, i) => settled[i]!.status === "rejected");
      if (!refused.length) return;
      const errors = settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
      const other = errors.find((e) => classifyRangeError(e)?.kind !== "rate_limited");
      if (other !== undefined) throw other;
      if (tries >= MAX_RATE_LIMITED_TRIES) throw errors[0];
      const why = classifyRangeError(errors[0]);
      const wait = why?.kind === "rate_limited" ? why.retryAfterMs : null;
      await sleep(Math.min(BACKOFF_MAX_MS, wait ?? BACKOFF_BASE_MS * 2 ** (tries - 1)));
      batch = refused;
    }
  });
}
