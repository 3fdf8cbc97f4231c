// A fetch for a generated client that serves each Request in process: the route module of its path (the OpenAPI
// manifest, as the document lists them) called through tests/helpers/http.ts call(), which also checks every 2xx
// answer against its documented schema.
import { routeModules } from "@/app/_openapi/routes.generated";
import { call } from "@/tests/helpers/http";

type Handler = Parameters<typeof call>[0];

/** Templates as patterns; fewer parameters first, so /api/tokens/deploy/split wins over /api/tokens/deploy/{requestKey}. */
const routes = routeModules
  .map(({ path, module }) => {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "([^/]+)")}$`);
    return { pattern, names, module };
  })
  .sort((a, b) => a.names.length - b.names.length);

export async function dispatch(request: Request): Promise<Response> {
  const url = new URL(request.url);
  for (const { pattern, names, module } of routes) {
    const match = pattern.exec(url.pathname);
    if (!match) continue;
    const handler = module[request.method] as Handler | undefined;
    if (!handler) return new Response(null, { status: 405 });
    const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
    const body = request.body ? await request.text() : undefined;
    const answer = await call(handler, `${url.pathname}${url.search}`, {
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body,
      params,
    });
    return new Response(answer.status === 204 ? null : answer.text, { status: answer.status, headers: answer.headers });
  }
  return new Response(null, { status: 404 });
}
