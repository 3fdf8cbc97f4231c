// GET /docs: the API reference, a server-rendered shell around the reference component reading /api/openapi.json.
import { ApiReference } from "./api-reference";

export const metadata = { title: "API reference" };

export default function DocsPage() {
  return (
    <div className="api-docs">
      <p className="api-docs-bar">
        API reference · the OpenAPI 3.1 document: <a href="/api/openapi.json">/api/openapi.json</a>
      </p>
      <noscript>
        <p className="api-docs-bar">
          The interactive reference needs JavaScript; the document above describes every operation.
        </p>
      </noscript>
      <ApiReference />
    </div>
  );
}
