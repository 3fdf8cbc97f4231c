// GET /docs: the API reference, rendered on the server from the same OpenAPI document as /api/openapi.json.
import { openApiDocument } from "@/app/_openapi";

export const dynamic = "force-dynamic"; // built per request from the route manifest; cheap, and never stale
export const metadata = { title: "API reference" };

type Op = { method: string; path: string; op: any };
const AUTH: Record<string, string> = {
  public: "none",
  partner: "x-api-key",
  user: "Bearer JWT",
  optionalUser: "optional Bearer JWT",
  admin: "admin_session cookie or admin Bearer JWT",
  optionalAdmin: "optional admin credentials",
};

function typeOf(schema: any): string {
  if (!schema) return "any";
  if (schema.enum) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(" | ");
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeOf).join(" | ");
  return Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
}

function constraints(s: any): string {
  const parts: string[] = [];
  if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) parts.push(`≤ ${s.maximum}`);
  if (s.minLength !== undefined) parts.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) parts.push(`max length ${s.maxLength}`);
  if (s.pattern) parts.push(`pattern ${s.pattern}`);
  return parts.join(", ");
}

const anchor = ({ method, path }: Op) => `${method}-${path}`.replace(/[^\w-]+/g, "-");

function Operation(o: Op) {
  const { op } = o;
  const body = op.requestBody?.content?.["application/json"];
  return (
    <section className="card op" id={anchor(o)} data-testid="operation">
      <h2>
        <span className={`method ${o.method}`}>{o.method.toUpperCase()}</span>
        <code>{o.path}</code>
        {op.deprecated && <span className="badge">deprecated</span>}
      </h2>
      <p>{op.summary}</p>
      <p className="sub">
        Auth: {AUTH[op["x-auth"]] ?? op["x-auth"]}
        {op["x-rate-limit"]
          ? ` · rate limit ${op["x-rate-limit"].limit} per ${op["x-rate-limit"].windowSeconds} s`
          : ""}
      </p>
      {op.parameters?.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Parameter</th>
                <th>In</th>
                <th>Type</th>
                <th>Default</th>
                <th>Range / rule</th>
              </tr>
            </thead>
            <tbody>
              {op.parameters.map((p: any) => (
                <tr key={`${p.in}:${p.name}`}>
                  <td>
                    <code>{p.name}</code>
                    {p.required ? " *" : ""}
                  </td>
                  <td>{p.in}</td>
                  <td>{typeOf(p.schema)}</td>
                  <td>{p.schema.default !== undefined ? <code>{JSON.stringify(p.schema.default)}</code> : ""}</td>
                  <td>{constraints(p.schema)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {body && (
        <details>
          <summary>Request body</summary>
          <pre>{JSON.stringify(body.example ?? body.schema, null, 2)}</pre>
        </details>
      )}
      <details>
        <summary>Responses: {Object.keys(op.responses).join(", ")}</summary>
        <ul>
          {Object.entries<any>(op.responses).map(([code, r]) => (
            <li key={code}>
              <b>{code}</b> {r.description}
            </li>
          ))}
        </ul>
        {Object.entries<any>(op.responses)
          .filter(([code]) => code < "300")
          .map(([code, r]) => (
            <pre key={code}>{JSON.stringify(r.content?.["application/json"]?.schema ?? null, null, 2)}</pre>
          ))}
      </details>
    </section>
  );
}

export default async function DocsPage() {
  const doc = await openApiDocument();
  const ops: Op[] = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).map(([method, op]) => ({ method, path, op })),
  );
  const tags = [...new Set(ops.map((o) => o.op.tags[0] as string))].sort();
  return (
    <>
      <h1>API reference</h1>
      <p>
        {doc.info.description} Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI{" "}
        {doc.openapi}).
      </p>
      <div className="docs">
        <aside className="card">
          {tags.map((tag) => (
            <div key={tag}>
              <b>{tag}</b>
              <ul>
                {ops
                  .filter((o) => o.op.tags[0] === tag)
                  .map((o) => (
                    <li key={anchor(o)}>
                      <a href={`#${anchor(o)}`}>
                        {o.method.toUpperCase()} {o.path.replace(/^\/api/, "")}
                      </a>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
          <b>Errors</b>
          <pre>{JSON.stringify(doc.components.schemas.Error.example, null, 2)}</pre>
        </aside>
        <div>
          {ops.map((o) => (
            <Operation key={anchor(o)} {...o} />
          ))}
        </div>
      </div>
    </>
  );
}
