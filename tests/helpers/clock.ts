// The clock a fixed-window rate limit reads, held still for one test.
import { onTestFinished, vi } from "vitest";

/**
 * Rate limits count in windows aligned to the epoch (a minute, an hour), by Date.now(). A test that fills one and
 * then expects the next request refused would fail on a slow machine whenever its requests straddle a boundary. This
 * freezes Date (only Date: timers, and the database's own clock, run on) until the test ends.
 */
export function holdRateWindow(): void {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}
