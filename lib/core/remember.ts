// The one memo for process-wide singletons (the database, the config, clients, registries). They live on
// globalThis under one key, because Next's dev server re-evaluates modules on hot reload and the bundles of one
// process may each hold a copy of a module: both must find the same instance.
const memo = ((globalThis as Record<symbol, unknown>)[Symbol.for("token-launch-service.remember")] ??= new Map<
  string,
  unknown
>()) as Map<string, unknown>;

/** The process's one value under `key`, created on first use. Hold state that can be reset in the returned object. */
export function remember<T>(key: string, create: () => T): T {
  if (!memo.has(key)) memo.set(key, create());
  return memo.get(key) as T;
}
