// The served document, built once per process from the generated route manifest. The manifest is loaded on first
// use: it imports every route file, /api/openapi.json's among them, which imports this module.
import type { z } from "zod";
import { buildDocument, type openApiDocumentShape } from "./document";

/** The document's outline; buildDocument writes it from the route manifest (its test checks it against the shape). */
type OpenApiDocument = z.input<typeof openApiDocumentShape>;

let cached: Promise<OpenApiDocument> | undefined;

export function openApiDocument(): Promise<OpenApiDocument> {
  return (cached ??= import("./routes.generated").then(
    ({ routeModules }) => buildDocument(routeModules) as OpenApiDocument,
  ));
}
