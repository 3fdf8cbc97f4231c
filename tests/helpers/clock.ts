// The clock fixed windows are read from, held still for one test.
import { onTestFinished, vi } from "vitest";

/**
 * Rate limits, schedule buckets and daily quotas count in windows aligned to the epoch (a second, a minute, five
 * minutes, a UTC day), by Date.now(). A test that fills one, or expects two calls to land in the same one, would fail
 * on a slow machine whenever its calls straddle a boundary. This freezes Date (only Date: timers run on) until the
 * test ends. PGlite reads its clock from Date.now(), so there the database's now() stands still too; PostgreSQL's
 * runs on, never behind the frozen Date.
 */
export function freezeDate(): void {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}
