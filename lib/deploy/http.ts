// Route pieces shared by the deploy endpoints.
import { z } from "zod";
import { requestKey } from "./fields";

/** Nesting depth, counted without recursion (the canonical request hash recurses: 20,000 levels overflowed the stack, a 500). */
function depthOf(value: unknown, max: number): number {
  let level = [value];
  for (let depth = 0; depth <= max; depth++) {
    level = level.flatMap((v) => (v && typeof v === "object" ? Object.values(v) : []));
    if (!level.length) return depth;
  }
  return max + 1;
}

/** The body is validated by the service (shape detection needs the raw object); here only "an object", at most 32 levels deep. */
export const jsonObjectBody = z
  .record(z.string(), z.unknown(), { message: "the body must be a JSON object" })
  .refine((body) => depthOf(body, 32) <= 32, "the body nests deeper than 32 levels");

export const requestKeyParams = z.object({ requestKey });
