// POST /api/tokens/index: index the token a deploying transaction created (partner key; 10 a minute)
import { route } from "@/lib/http/route";
import { publicOrigin } from "@/lib/http/public-origin";
import { indexByTransactionResponse } from "@/lib/domains/launch/indexer/responses";
import {
  indexByTransactionBody,
  indexByTransactionLimit,
  indexTokenByTransaction,
} from "@/lib/domains/launch/indexer/service";

export const maxDuration = 60;

export const POST = route({
  auth: "partner",
  body: indexByTransactionBody,
  rateLimit: indexByTransactionLimit,
  summary: "Index a token by its deploying transaction",
  description:
    "For a token deployed outside this service: reads the transaction's receipt on `chainId`, takes its first TokenCreated from an indexed factory and upserts the token; answers its address and page (`url`). 404 when the transaction is not mined (yet) or created no token through those factories; 400 for a chain not indexed here. 10 requests a minute per API key.",
  response: indexByTransactionResponse,
  handler: ({ body, request }) => indexTokenByTransaction(body, publicOrigin(request)),
});
