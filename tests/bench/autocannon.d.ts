// The part of autocannon's API the harness uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";
  type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  type Options = { url: string; connections?: number; duration?: number; timeout?: number; requests?: Request[] };
  type Result = { errors: number; timeouts: number; non2xx: number; duration: number; requests: { total: number } };
  type Instance = EventEmitter & PromiseLike<Result> & { stop(): void };
  function autocannon(options: Options): Instance;
  export default autocannon;
}
