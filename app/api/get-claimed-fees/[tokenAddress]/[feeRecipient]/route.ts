// GET /api/get-claimed-fees/{tokenAddress}/{feeRecipient}: what a fee recipient has claimed of the token's paired token
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import { claimedFees } from "@/lib/domains/rewards/earnings/claimed";
import { claimedFeesResponse } from "@/lib/domains/rewards/earnings/responses";
import { claimedFeesParams, claimedFeesQuery } from "@/lib/domains/rewards/earnings/schemas";

export const maxDuration = 60;

export const GET = route({
  auth: "partner",
  summary: "Get the fees a recipient has claimed",
  description:
    "The total (wei, decimal string) and count of the fee recipient's claims of the token's paired token (WETH for most), from the indexed fee-claim events, and a page of their transactions, newest first. Any address may be asked about: one that never claimed answers 0. Fee-locker balances are per owner and currency: a recipient shared by several tokens has all its claims of that currency counted for each. 404 for a token the service does not know on that chain.",
  params: claimedFeesParams,
  query: claimedFeesQuery,
  response: claimedFeesResponse,
  cache: cachePolicy.none,
  handler: ({ params, query }) => claimedFees(params, query),
});
