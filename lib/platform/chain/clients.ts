// The only place viem clients are created. Clients are built on first use (never at import, since
// Next imports route modules at build time) and kept in the process memo (lib/core/remember.ts), so dev hot reload reuses them.
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  webSocket,
  type Account,
  type Chain,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base, baseSepolia } from "viem/chains";
import { ChainUnavailableError } from "./errors";
import { chainSettings, configuredChainIds as rpcChainIds, type ChainSettings } from "./settings";
import { config } from "@/lib/core/config";
import { remember } from "@/lib/core/remember";
import { traceChainCall } from "@/lib/core/telemetry";

export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;

type Cached<T> = { key: string; client: T };
type ClientCache = {
  public: Map<number, Cached<PublicClient<Transport, Chain>>>;
  wallet: Map<number, Cached<WalletClient<Transport, Chain, Account>>>;
  transports: Map<number, Transport>;
  generation: number;
};

function state(): ClientCache {
  return remember(
    "chain.clients",
    (): ClientCache => ({ public: new Map(), wallet: new Map(), transports: new Map(), generation: 0 }),
  );
}

/**
 * Test hook: route a chain id through the given transport (e.g. viem's `custom(provider)` over an
 * in-process hardhat provider) instead of RPC_URL_<chainId>. `undefined` removes the override.
 */
export function setChainTransport(chainId: number, transport: Transport | undefined): void {
  if (transport) state().transports.set(chainId, transport);
  else state().transports.delete(chainId);
  resetChainClients();
}

/** Forgets cached clients. Tests call it after reverting the chain to a snapshot or rerouting a chain. */
export function resetChainClients(): void {
  const s = state();
  s.public.clear();
  s.wallet.clear();
  s.generation += 1;
}

/** Chain ids the service can reach: RPC_URL_<id> set, or a transport injected by a test. */
export function configuredChainIds(): number[] {
  return [...new Set([...rpcChainIds(), ...state().transports.keys()])].sort((a, b) => a - b);
}

function chainFor(settings: ChainSettings): Chain {
  const known = settings.chainId === base.id ? base : settings.chainId === baseSepolia.id ? baseSepolia : undefined;
  // Multicall3 sits at the same address on nearly every chain, and the local chain installs it there.
  return (
    known ??
    defineChain({
      id: settings.chainId,
      name: `chain-${settings.chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: settings.rpcUrl ? [settings.rpcUrl] : [] } },
      contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
    })
  );
}

/** Each JSON-RPC request of a transport in a span of its own (method, chain id), when telemetry is on. */
function traced(chainId: number, transport: Transport): Transport {
  return ((options) => {
    const made = transport(options);
    const request: typeof made.request = (args, opts) =>
      traceChainCall(chainId, args.method, () => made.request(args, opts));
    return { ...made, request };
  }) as Transport;
}

function transportFor(settings: ChainSettings): Transport {
  return traced(settings.chainId, untracedTransportFor(settings));
}

function untracedTransportFor(settings: ChainSettings): Transport {
  const injected = state().transports.get(settings.chainId);
  if (injected) return injected;
  const url = settings.rpcUrl;
  if (!url) {
    throw new ChainUnavailableError(
      settings.chainId,
      "not_configured",
      `no RPC configured (set RPC_URL_${settings.chainId})`,
    );
  }
  // One quick retry only: a caller waiting on an HTTP request is better served by a fast 503.
  const options = { timeout: settings.timeoutMs, retryCount: 1, retryDelay: 100 };
  if (url.startsWith("ws")) return webSocket(url, options);
  // Requests made in the same tick (a range's block headers, its events' calls) go as one JSON-RPC batch.
  const batchSize = config().RPC_BATCH_SIZE;
  const fetchFn = settings.requestsPerSecond ? pacedFetch(settings.requestsPerSecond) : undefined;
  return http(url, { ...options, batch: batchSize > 0 ? { batchSize } : false, fetchFn });
}

/**
 * fetch with the requests spaced at least 1/perSecond apart, in the order they were made: a provider's limit is
 * never passed, where answering its 429s would stall each refused batch for its Retry-After.
 */
function pacedFetch(perSecond: number): typeof fetch {
  const gap = 1000 / perSecond;
  let next = 0;
  return async (input, init) => {
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + gap;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
    return fetch(input, init);
  };
}

function cacheKey(settings: ChainSettings, withKey: boolean): string {
  return [
    state().generation,
    settings.rpcUrl ?? "",
    settings.timeoutMs,
    settings.requestsPerSecond ?? 0,
    config().RPC_BATCH_SIZE,
    withKey ? (settings.deployerPrivateKey ?? "") : "",
  ].join("|");
}

export function getPublicClient(chainId: number): PublicClient<Transport, Chain> {
  const settings = chainSettings(chainId);
  const key = cacheKey(settings, false);
  const cached = state().public.get(chainId);
  if (cached?.key === key) return cached.client;
  const client = createPublicClient({
    chain: chainFor(settings),
    transport: transportFor(settings),
    batch: { multicall: false },
    pollingInterval: 500,
  }) as PublicClient<Transport, Chain>;
  state().public.set(chainId, { key, client });
  return client;
}

/**
 * The deployer's wallet on a chain. It keeps no nonces: every send names its nonce, read from the node
 * under a lock (lib/platform/chain/deploy.ts in one process, lib/domains/launch/deploy/sender.ts across processes).
 */
export function getWalletClient(chainId: number): WalletClient<Transport, Chain, Account> {
  const settings = chainSettings(chainId);
  const key = cacheKey(settings, true);
  const cached = state().wallet.get(chainId);
  if (cached?.key === key) return cached.client;
  if (!settings.deployerPrivateKey) {
    throw new ChainUnavailableError(chainId, "not_configured", "no deployer key configured (set DEPLOYER_PRIVATE_KEY)");
  }
  const account = privateKeyToAccount(settings.deployerPrivateKey);
  const client = createWalletClient({
    account,
    chain: chainFor(settings),
    transport: transportFor(settings),
    pollingInterval: 500,
  });
  state().wallet.set(chainId, { key, client });
  return client;
}

/** The deployer's address, when a key is configured. */
export function deployerAddress(chainId: number) {
  return chainSettings(chainId).deployerPrivateKey ? getWalletClient(chainId).account.address : undefined;
}
