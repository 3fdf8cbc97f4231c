// Counts the JSON-RPC requests the service sends to the test chain (its own wallet and public client go around it):
// what a poller costs an RPC provider.
import { custom, type Transport } from "viem";
import { setChainTransport } from "@/lib/platform/chain";
import type { TestChain } from "./chain";

export type ChainRequest = { method: string; params?: unknown; at: number };

/** Routes the service's calls to `c` through a counter; the list it returns grows with each request. */
export function countChainRequests(c: TestChain): ChainRequest[] {
  const requests: ChainRequest[] = [];
  const inner = custom(c.provider, { retryCount: 0 });
  const counted: Transport = (options) => {
    const made = inner(options);
    const request = ((args, opts) => {
      requests.push({ ...(args as { method: string; params?: unknown }), at: Date.now() });
      return made.request(args, opts);
    }) as typeof made.request;
    return { ...made, request };
  };
  setChainTransport(c.chainId, counted);
  return requests;
}
