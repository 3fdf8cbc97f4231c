// DELETE /api/pretoken/{id}: soft-delete one of the caller's pretokens (another user's or a missing one is 404)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { deletePretokenResponse } from "@/lib/domains/launch/pretokens/responses";
import { deletePretoken } from "@/lib/domains/launch/pretokens/service";

export const DELETE = route({
  auth: "user",
  // Any id is looked up: a malformed or overlong one is the same 404 as a missing one.
  params: z.object({ id: z.string() }),
  summary: "Soft-deletes a pretoken owned by the caller",
  response: deletePretokenResponse,
  handler: ({ params, principal }) => deletePretoken(params.id, principal),
});
