// Reads a text/event-stream answer as EventSource would: frames with their id, event and data; comments kept apart.
export type SseFrame = { event: string; id?: string; data?: string; comment?: string };

export class SseReader {
  readonly frames: SseFrame[] = [];
  /** The id EventSource would send as Last-Event-ID now. */
  lastEventId = "";
  retry?: number;
  private buffer = "";
  private waiters: Array<() => void> = [];
  private reader: ReadableStreamDefaultReader<Uint8Array>;
  private decoder = new TextDecoder();
  done = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
    void this.pump();
  }

  private async pump() {
    try {
      for (;;) {
        const { value, done } = await this.reader.read();
        if (done) break;
        this.buffer += this.decoder.decode(value, { stream: true });
        let at: number;
        while ((at = this.buffer.indexOf("\n\n")) >= 0) {
          this.parse(this.buffer.slice(0, at));
          this.buffer = this.buffer.slice(at + 2);
        }
        for (const w of this.waiters.splice(0)) w();
      }
    } catch {
      // cancelled
    }
    this.done = true;
    for (const w of this.waiters.splice(0)) w();
  }

  private parse(block: string) {
    const frame: SseFrame = { event: "message" };
    let hasData = false;
    for (const line of block.split("\n")) {
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "") frame.comment = value;
      else if (field === "id") {
        frame.id = value;
        this.lastEventId = value;
      } else if (field === "event") frame.event = value;
      else if (field === "data") {
        frame.data = (frame.data ? `${frame.data}\n` : "") + value;
        hasData = true;
      } else if (field === "retry") this.retry = Number(value);
    }
    if (hasData) this.frames.push(frame);
  }

  /** Events of this type received so far. */
  of(event: string): SseFrame[] {
    return this.frames.filter((f) => f.event === event);
  }

  /** Waits until `check` holds (checked after each chunk), or fails after `ms`. */
  async until(check: () => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (this.done) throw new Error(`stream ended before the condition held; frames: ${JSON.stringify(this.frames)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; frames: ${JSON.stringify(this.frames).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close() {
    await this.reader.cancel().catch(() => {});
  }
}
