// Any method, /api/<a path no route serves>: 404 not_found in the error envelope instead of Next's HTML page.
// Next matches static and dynamic segments before a catch-all, so no route is shadowed.
import { notFound } from "@/lib/core/errors";
import { route } from "@/lib/http/route";

const noSuchRoute = route({
  auth: "public",
  handler: ({ request }) => {
    throw notFound(`no API route at ${new URL(request.url).pathname}; the routes are listed at /api/openapi.json`);
  },
});

export const GET = noSuchRoute;
export const POST = noSuchRoute;
export const PUT = noSuchRoute;
export const PATCH = noSuchRoute;
export const DELETE = noSuchRoute;
