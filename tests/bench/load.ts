// Load generation and latency statistics: HTTP through autocannon, in-process work (SQL through pg, other
// floors) through N concurrent loops. Latencies are kept as floats (autocannon's own histogram rounds to
// whole milliseconds, too coarse for a 1 ms floor).
import autocannon from "autocannon";
import type { BenchRequest } from "./scenarios/types";

export type Stats = {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
  rps: number;
  /** non-2xx answers (HTTP) or thrown errors (loops) */
  failures: number;
  /** status code -> count, HTTP only */
  statuses?: Record<string, number>;
};

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * The latencies, failures and statuses of one measurement, gathered in one run of the load or in several
 * rounds (merged; the rate counts the time of every round).
 */
export class Samples {
  private values = new Float64Array(1 << 16);
  private length = 0;
  private seconds = 0;
  private failures = 0;
  private statuses: Record<string, number> | undefined;
  add(ms: number) {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = ms;
  }
  /** Closes one run of the load: its duration, failures and (HTTP) statuses. */
  finish(seconds: number, failures: number, statuses?: Record<string, number>) {
    this.seconds += seconds;
    this.failures += failures;
    if (statuses) {
      this.statuses ??= {};
      for (const [code, n] of Object.entries(statuses)) this.statuses[code] = (this.statuses[code] ?? 0) + n;
    }
    return this;
  }
  merge(other: Samples) {
    for (let i = 0; i < other.length; i++) this.add(other.values[i]);
    return this.finish(other.seconds, other.failures, other.statuses);
  }
  stats(): Stats {
    const sorted = this.values.slice(0, this.length).sort();
    let sum = 0;
    for (const v of sorted) sum += v;
    const round = (v: number) => Math.round(v * 1000) / 1000;
    return {
      count: this.length,
      p50: round(percentile(sorted, 50)),
      p90: round(percentile(sorted, 90)),
      p99: round(percentile(sorted, 99)),
      mean: round(sum / (this.length || 1)),
      max: round(sorted[sorted.length - 1] ?? NaN),
      rps: Math.round((this.length / (this.seconds || 1)) * 10) / 10,
      failures: this.failures,
      ...(this.statuses ? { statuses: { ...this.statuses } } : {}),
    };
  }
}

export type LoadOptions = { connections: number; durationSeconds: number };

function toAutocannonRequest(r: BenchRequest) {
  const headers = { ...r.headers };
  let body: string | undefined;
  if (r.body !== undefined) {
    body = typeof r.body === "string" ? r.body : JSON.stringify(r.body);
    if (typeof r.body !== "string") headers["content-type"] ??= "application/json";
  }
  return { method: r.method ?? "GET", path: r.path, headers, body };
}

let running: { stop(): void } | undefined;

/** Stops the load in progress (Ctrl-C). */
export function stopLoad() {
  running?.stop();
}

/** Drives the server with the requests, each connection walking the list round and round. */
export async function httpLoad(baseUrl: string, requests: BenchRequest[], options: LoadOptions): Promise<Samples> {
  if (requests.length === 0) throw new Error("a scenario must give at least one request");
  const samples = new Samples();
  const statuses: Record<string, number> = {};
  let failures = 0;
  const started = performance.now();
  const instance = autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 30,
    requests: requests.map(toAutocannonRequest),
  });
  running = instance;
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    samples.add(responseTime);
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    if (statusCode < 200 || statusCode > 299) failures++;
  });
  const result = await instance;
  running = undefined;
  if (result.errors || result.timeouts) statuses.error = result.errors + result.timeouts;
  return samples.finish((performance.now() - started) / 1000, failures + result.errors + result.timeouts, statuses);
}

/** Calls `task(worker)` in `connections` concurrent loops for the duration; errors are counted, not thrown. */
export async function loopLoad(
  task: (worker: number, iteration: number) => unknown,
  options: LoadOptions,
): Promise<Samples> {
  const samples = new Samples();
  let failures = 0;
  let firstError: unknown;
  const started = performance.now();
  const deadline = started + options.durationSeconds * 1000;
  let stopped = false;
  running = { stop: () => (stopped = true) };
  const loop = async (worker: number) => {
    for (let i = worker, n = 0; !stopped && performance.now() < deadline; i += options.connections, n++) {
      // Synchronous tasks never yield on their own: let timers and signals run now and then.
      if ((n & 255) === 255) await new Promise((resolve) => setImmediate(resolve));
      const t0 = performance.now();
      try {
        await task(worker, i);
        samples.add(performance.now() - t0);
      } catch (error) {
        failures++;
        firstError ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, w) => loop(w)));
  running = undefined;
  if (firstError)
    console.error(
      `  (${failures} failed; first: ${firstError instanceof Error ? firstError.message : String(firstError)})`,
    );
  return samples.finish((performance.now() - started) / 1000, failures);
}
