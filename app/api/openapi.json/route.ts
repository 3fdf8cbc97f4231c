// GET /api/openapi.json: the OpenAPI 3.1 document generated from every route's zod schemas
import { route, preflight } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { openApiDocument } from "@/app/_openapi";
import { openApiDocumentShape } from "@/app/_openapi/document";

export const GET = route({
  auth: "public",
  summary: "Get this OpenAPI document",
  description: "This OpenAPI 3.1 document, generated from the zod schemas each route validates with: request parameters and bodies, answers, auth schemes and the errors each operation can answer.",
  response: openApiDocumentShape,
  cache: cachePolicy.none,
  handler: () => openApiDocument(),
});
export const OPTIONS = preflight;
