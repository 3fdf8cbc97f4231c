// The telemetry's context manager (lib/core/telemetry-start.ts): a request's context rides on the request's own store
// (Next's work store in a server; an AsyncLocalStorage of this test here), nested and restored, never shared between
// two requests; outside a request an AsyncLocalStorage carries it, enabled only while such work runs.
import { AsyncLocalStorage } from "node:async_hooks";
import { createContextKey, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { RequestContextManager } from "@/lib/core/telemetry-start";

const KEY = createContextKey("which");
let spans = 0;
/** A context with a span (as the service's tracer makes) and a name to tell it by. */
const named = (name: string) =>
  trace
    .setSpanContext(ROOT_CONTEXT, {
      traceId: "1".repeat(32),
      spanId: (++spans).toString(16).padStart(16, "0"),
      traceFlags: 1,
    })
    .setValue(KEY, name);
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

function manager() {
  const requests = new AsyncLocalStorage<object>();
  const cm = new RequestContextManager(() => requests.getStore());
  const which = () => cm.active().getValue(KEY);
  return { cm, which, inRequest: <T>(fn: () => Promise<T>) => requests.run({}, fn) };
}

describe("RequestContextManager", () => {
  it("keeps a request's context through its awaits, nests and restores it, and never lends it to another request", async () => {
    const { cm, which, inRequest } = manager();
    const seen: unknown[] = [];
    const request = (name: string) =>
      inRequest(() =>
        cm.with(named(name), async () => {
          await tick();
          seen.push(which());
          await cm.with(named(`${name}/job`), async () => {
            await tick();
            seen.push(which());
          });
          seen.push(which());
        }),
      );
    await Promise.all([request("a"), request("b")]);
    expect(seen.sort()).toEqual(["a", "a", "a/job", "b", "b", "b/job"]);
    expect(which()).toBeUndefined();
    await inRequest(async () => expect(which()).toBeUndefined());
  });

  it("restores the context when the work throws, at once or later", async () => {
    const { cm, which, inRequest } = manager();
    await inRequest(async () => {
      expect(() =>
        cm.with(named("sync"), () => {
          throw new Error("no");
        }),
      ).toThrow("no");
      await expect(
        cm.with(named("async"), async () => {
          await tick();
          throw new Error("later");
        }),
      ).rejects.toThrow("later");
      expect(which()).toBeUndefined();
    });
  });

  it("carries a context outside requests, and enables its store only while such work runs", async () => {
    const { cm, which } = manager();
    const store = (cm as unknown as { store: { enabled?: boolean } }).store;
    const jobs = ["x", "y"].map((name) =>
      cm.with(named(name), async () => {
        await tick();
        return which();
      }),
    );
    expect(await Promise.all(jobs)).toEqual(["x", "y"]);
    expect(which()).toBeUndefined();
    // A context without a span (Next's phases, its tracing off) runs its work but is not made active.
    const bare = await cm.with(ROOT_CONTEXT.setValue(KEY, "bare"), async () => {
      await tick();
      return which();
    });
    expect(bare).toBeUndefined();
    // Node's AsyncLocalStorage says whether it is enabled (in its storage list, costing every promise) in `enabled`.
    expect(store.enabled).toBe(false);
  });
});
