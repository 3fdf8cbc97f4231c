// Answer shapes of index-by-address and save-deployed-token/from-ui (COMPAT), for the OpenAPI document.
import { z } from "zod";
import { checksummedAddress } from "@/lib/core/answers";

export const indexByAddressResponse = z.object({
  success: z.literal(true),
  address: checksummedAddress.describe("the token, now indexed"),
  message: z.string().describe('"Token indexed"'),
});

export const fromUiResponse = z.object({
  success: z.literal(true),
  tokenAddress: checksummedAddress.describe("the token whose indexing was enqueued"),
});
