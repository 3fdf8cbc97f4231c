// The served document, built once per process from the generated route manifest. The manifest is loaded on first
// use: it imports every route file, /api/openapi.json's among them, which imports this module.
import { buildDocument } from "./document";

let cached: Promise<Record<string, any>> | undefined;

export function openApiDocument(): Promise<Record<string, any>> {
  return (cached ??= import("./routes.generated").then(({ routeModules }) => buildDocument(routeModules)));
}
