// Checks an answer against its route's schema as the OpenAPI document publishes it (shared by the deploy,
// pretoken, market and leaderboard API tests).
import { expect } from "vitest";
import { z } from "zod";
import { buildDocument } from "@/lib/openapi/document";
import type { CallResult } from "../../helpers/http";

/**
 * The published schema is JSON Schema with additionalProperties false, so unlike call()'s own zod check it
 * also refuses a key the schema does not list: the answer is exactly what the document says.
 */
export function expectDocumented(res: CallResult, path: string, method: "GET" | "POST" | "DELETE", handler: unknown) {
  const doc = buildDocument([{ path, file: "", module: { [method]: handler } }]);
  const schema = doc.paths[path][method.toLowerCase()].responses[String(res.status)].content["application/json"].schema;
  const parsed = z.fromJSONSchema(schema).safeParse(res.body);
  expect(parsed.success, `${method} ${path}: ${parsed.error?.message}`).toBe(true);
}
