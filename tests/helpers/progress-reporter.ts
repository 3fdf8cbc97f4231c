// A vitest reporter beside the default one: files done of total, tests passed and failed, and time elapsed, as
// files finish (a line per file; on a terminal one status line kept at the bottom and redrawn).
import type { Reporter, TestModule, TestSpecification } from "vitest/node";

type Stream = NodeJS.WriteStream;

function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

export default class ProgressReporter implements Reporter {
  private started = performance.now();
  private total = 0;
  private done = 0;
  private running = 0;
  private filesFailed = 0;
  private passed = 0;
  private failed = 0;
  private skipped = 0;
  private readonly tty: boolean;
  private readonly out: Stream = process.stdout;
  /** On a terminal: whether the status line is on screen, whether other output left a line open, the streams' own writes. */
  private drawn = false;
  private midLine = false;
  private restore: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor() {
    this.tty = this.out.isTTY === true;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>) {
    this.started = performance.now();
    this.total = specifications.length;
    this.done = this.running = this.filesFailed = this.passed = this.failed = this.skipped = 0;
    if (!this.tty) return;
    this.intercept();
    this.timer = setInterval(() => this.draw(), 1000).unref();
    this.draw();
  }

  onTestModuleStart() {
    this.running++;
    if (this.tty) this.draw();
  }

  onTestModuleEnd(testModule: TestModule) {
    this.running = Math.max(0, this.running - 1);
    this.done++;
    if (testModule.state() === "failed") this.filesFailed++;
    for (const test of testModule.children.allTests()) {
      const { state } = test.result();
      if (state === "passed") this.passed++;
      else if (state === "failed") this.failed++;
      else if (state === "skipped") this.skipped++;
    }
    if (this.tty) this.draw();
    else this.out.write(`${this.status()}\n`);
  }

  onTestRunEnd() {
    if (!this.tty) return;
    clearInterval(this.timer);
    this.clear();
    this.restore?.();
    this.restore = undefined;
  }

  private status(): string {
    const parts = [
      `${this.done}/${this.total} files`,
      `${this.passed} passed`,
      `${this.failed} failed`,
      ...(this.skipped ? [`${this.skipped} skipped`] : []),
      ...(this.filesFailed ? [`${this.filesFailed} files failed`] : []),
      elapsed(performance.now() - this.started),
    ];
    return `progress: ${parts.join(" · ")}`;
  }

  private draw() {
    if (this.midLine) return;
    const line = `${this.status()}${this.running ? ` · ${this.running} running` : ""}`;
    // One terminal row: a wrapped line could not be cleared with \r.
    const width = this.out.columns || 80;
    this.writeRaw(`\r\x1b[K${line.length >= width ? `${line.slice(0, width - 2)}…` : line}`);
    this.drawn = true;
  }

  private clear() {
    if (this.drawn) this.writeRaw("\r\x1b[K");
    this.drawn = false;
  }

  private writeRaw = (text: string) => {
    this.out.write(text);
  };

  /**
   * Everything else written to the terminal (the default reporter's lines, failures, console output) goes
   * above the status line: clear it, write, and draw it again once the write ended a line.
   */
  private intercept() {
    const streams = [process.stdout, process.stderr];
    const originals = streams.map((stream) => stream.write.bind(stream));
    const outWrite = originals[0];
    this.writeRaw = (text) => void outWrite(text);
    streams.forEach((stream, i) => {
      stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
        this.clear();
        const result = originals[i](chunk, ...rest);
        const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
        if (text) this.midLine = !text.endsWith("\n");
        this.draw();
        return result;
      }) as Stream["write"];
    });
    this.restore = () => {
      streams.forEach((stream, i) => {
        stream.write = originals[i] as Stream["write"];
      });
      this.writeRaw = (text) => void this.out.write(text);
    };
  }
}
