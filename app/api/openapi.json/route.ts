// GET /api/openapi.json: the OpenAPI 3.1 document generated from every route's zod schemas
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { openApiDocument } from "@/app/_openapi";
import { openApiDocumentShape } from "@/app/_openapi/document";

export const GET = route({
  auth: "public",
  summary: "This OpenAPI 3.1 document (generated from the routes' zod schemas)",
  response: openApiDocumentShape,
  cache: cachePolicy.none,
  handler: () => openApiDocument(),
});
export const OPTIONS = preflight;
