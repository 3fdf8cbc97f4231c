// Answer shapes of the user endpoints (interface 4.2, COMPAT), for the OpenAPI document.
import { z } from "zod";
import { neynarUser } from "@/lib/platform/neynar/schemas";

/**
 * The user object is the provider's own (Neynar v2), served as it was received and validated, so its
 * shape is the provider schema's; profiles known only from stored columns are given the same members.
 */
export const userObject = neynarUser.meta({
  id: "User",
  description:
    "The profile provider's (Neynar v2) user object as it sent it; members beyond those listed are passed through unchanged",
});

export const multipleUsersResponse = z.object({
  users: z.array(userObject).describe("in the order the FIDs were asked; unknown FIDs are left out"),
});
