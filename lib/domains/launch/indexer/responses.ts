// Answer shapes of index-by-address, index (by transaction) and save-deployed-token/from-ui (COMPAT), for the
// OpenAPI document.
import { z } from "zod";
import { checksummedAddress } from "@/lib/core/answers";

export const indexByAddressResponse = z.object({
  success: z.literal(true),
  address: checksummedAddress.describe("the token, now indexed"),
  message: z.string().describe('"Token indexed successfully"'),
  url: z.string().describe("the token's page on this service"),
});

export const indexByTransactionResponse = z.object({
  success: z.literal(true),
  address: checksummedAddress.describe("the token the transaction created, now indexed"),
  url: z.string().describe("the token's page on this service"),
});

export const fromUiResponse = z.object({
  success: z.literal(true),
  tokenAddress: checksummedAddress.describe("the token whose indexing was enqueued"),
  url: z.string().describe("the token's page on this service"),
});
