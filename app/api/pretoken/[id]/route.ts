// DELETE /api/pretoken/{id}: soft-delete one of the caller's pretokens (another user's or a missing one is 404)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { deletePretokenResponse } from "@/lib/domains/launch/pretokens/responses";
import { deletePretoken } from "@/lib/domains/launch/pretokens/service";

export const DELETE = route({
  auth: "user",
  // Any id is looked up: a malformed or overlong one is the same 404 as a missing one.
  params: z.object({ id: z.string().describe("the pretoken's id (a UUID), as POST /api/pretoken/v4 answered it") }),
  summary: "Delete a pretoken",
  description:
    "Soft-deletes one of the caller's pretokens. Another user's pretoken, a missing one and a malformed id all answer the same 404.",
  response: deletePretokenResponse,
  handler: ({ params, principal }) => deletePretoken(params.id, principal),
});
