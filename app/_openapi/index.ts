// The served document, built once per process from the generated route manifest.
import { buildDocument } from "./document";
import { routeModules } from "./routes.generated";

let cached: Record<string, any> | undefined;

export function openApiDocument(): Record<string, any> {
  return (cached ??= buildDocument(routeModules));
}
