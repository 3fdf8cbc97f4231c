// npm run openapi:types: writes the TypeScript types of the OpenAPI document (openapi-typescript) that the typed
// client test (tests/api/typed-client.test.ts) uses with openapi-fetch.
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import { readCli } from "./args";
import { CLIENT_TYPES_PATH, openApiDocument, renderClientTypes } from "./openapi-document";

readCli({
  command: "npm run openapi:types",
  description: `Writes ${relative(process.cwd(), CLIENT_TYPES_PATH)}: the OpenAPI document's TypeScript types (openapi-typescript),\nwhich the typed client test compiles against. Run it after changing a route's schemas.`,
});

writeFileSync(CLIENT_TYPES_PATH, await renderClientTypes(await openApiDocument()));
console.log(`wrote ${relative(process.cwd(), CLIENT_TYPES_PATH)}`);
process.exit(0);
