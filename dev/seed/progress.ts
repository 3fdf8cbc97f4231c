// Progress on stderr: a redrawn bar on a terminal, plain lines (every 10 %) when piped to a file or CI log.
import type { OnProgress, SeedProgress } from "./phases";

type Stream = NodeJS.WriteStream;

const WIDTH = 28;

function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function line(p: SeedProgress, started: number, bar: boolean): string {
  const fraction = p.total ? p.done / p.total : 1;
  const elapsed = Date.now() - started;
  const rate = elapsed > 0 ? Math.round((p.done / elapsed) * 1000) : 0;
  const eta = fraction > 0 && fraction < 1 ? ` eta ${formatDuration(elapsed / fraction - elapsed)}` : "";
  const filled = Math.round(fraction * WIDTH);
  const drawn = bar ? `[${"█".repeat(filled)}${"░".repeat(WIDTH - filled)}] ` : "";
  const pct = `${Math.floor(fraction * 100)}%`.padStart(4);
  return `${p.phase.padEnd(18)} ${drawn}${pct} ${p.done.toLocaleString("en-US")}/${p.total.toLocaleString("en-US")} ${rate.toLocaleString("en-US")}/s ${formatDuration(elapsed)}${eta}`;
}

/** An onProgress callback that draws on `stream` (stderr by default). */
export function progressReporter(stream: Stream = process.stderr): OnProgress {
  const tty = Boolean(stream.isTTY);
  let phase = "";
  let started = 0;
  let lastDraw = 0;
  let lastTenth = -1;
  return (p) => {
    const now = Date.now();
    if (p.phase !== phase) {
      phase = p.phase;
      started = now;
      lastTenth = -1;
      lastDraw = 0;
    }
    const finished = p.done >= p.total;
    if (tty) {
      if (!finished && now - lastDraw < 100) return;
      lastDraw = now;
      stream.write(`\r\x1b[2K${line(p, started, true)}${finished ? "\n" : ""}`);
      return;
    }
    const tenth = p.total ? Math.floor((p.done / p.total) * 10) : 10;
    if (tenth === lastTenth && !finished) return;
    if (finished && lastTenth === 10) return;
    lastTenth = finished ? 10 : tenth;
    stream.write(`${line(p, started, false)}\n`);
  };
}
