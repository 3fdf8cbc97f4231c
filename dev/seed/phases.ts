// Runs one table's seed as a stream of batches: rows are generated in index order on this thread (so the
// data never depends on timing) while up to one batch per connection is being inserted.
import { BatchInserter, type ColumnSpec, type Columns, type QueryRunner } from "./insert";

export type SeedProgress = { phase: string; done: number; total: number };
export type OnProgress = (progress: SeedProgress) => void;

export type Phase = {
  phase: string;
  table: string;
  /** Input columns (one unnest array each). */
  columns: readonly ColumnSpec[];
  /** Target column -> SQL over the inputs (`u.<input>`); default: each input into its namesake. */
  select?: Record<string, string>;
  total: number;
  /** Rows [start, end) as column arrays. Called in order, never concurrently. */
  generate(start: number, end: number): Columns;
  batchSize?: number;
};

export const DEFAULT_BATCH_SIZE = 5000;

export async function runPhase(
  connections: readonly QueryRunner[],
  phase: Phase,
  onProgress?: OnProgress,
): Promise<void> {
  const inserters = connections.map((c) => new BatchInserter(c, phase.columns, phase.table, phase.select));
  const free = [...inserters];
  const inflight = new Set<Promise<void>>();
  const batchSize = phase.batchSize ?? DEFAULT_BATCH_SIZE;
  let done = 0;
  let failure: unknown;
  onProgress?.({ phase: phase.phase, done, total: phase.total });
  for (let start = 0; start < phase.total && failure === undefined; start += batchSize) {
    const end = Math.min(phase.total, start + batchSize);
    const values = phase.generate(start, end);
    while (free.length === 0) await Promise.race(inflight);
    if (failure !== undefined) break;
    const inserter = free.pop()!;
    const task: Promise<void> = inserter.insert(values).then(
      () => {
        done += end - start;
        onProgress?.({ phase: phase.phase, done, total: phase.total });
        free.push(inserter);
        inflight.delete(task);
      },
      (error) => {
        failure ??= error;
        inflight.delete(task);
      },
    );
    inflight.add(task);
    // Let the socket flush this batch before the next one is generated synchronously.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(inflight);
  if (failure !== undefined) throw failure;
}
