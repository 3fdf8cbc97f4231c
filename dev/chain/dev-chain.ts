// The chain `npm run dev` runs against: a hardhat node on 127.0.0.1 with the local contracts, or the
// one already listening there (a second dev server, or `npm run chain` in another terminal).
import type { Hex } from "viem";
import {
  deployLocalContracts,
  LOCAL_CHAIN_ID,
  LOCAL_LEGACY_FACTORIES,
  startLocalChain,
  type LocalContracts,
} from "./local";

export interface DevChain {
  rpcUrl: string;
  /** RPC_URL_8453, DEPLOYER_PRIVATE_KEY and every contract address: merge into the service's env. */
  env: Record<string, string>;
  contracts: LocalContracts;
  /** True when a local chain was already running at the port and was reused. */
  reused: boolean;
  /** Stops the node if this call started it (a reused one is left running). */
  close(): Promise<void>;
}

/** The chain id of whatever answers JSON-RPC at `rpcUrl`, or null when nothing listens there. */
async function chainIdAt(rpcUrl: string): Promise<number | null> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    const body = (await response.json()) as { result?: string };
    return body.result ? Number(body.result) : null;
  } catch {
    return null;
  }
}

/**
 * Starts (or reuses) the local chain on host:port (default 127.0.0.1:8545), deploys the local
 * contracts if they are not there yet, funds the deployer (the given key, else local account 1), and
 * returns the variables that point the service at it. The chain lives in memory: a restarted node starts from an empty chain.
 */
export async function startDevChain(
  options: { port?: number; host?: string; deployerPrivateKey?: Hex } = {},
): Promise<DevChain> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 8545;
  const existingUrl = `http://${host}:${port}`;
  const existing = await chainIdAt(existingUrl);
  if (existing !== null && existing !== LOCAL_CHAIN_ID) {
    throw new Error(
      `${existingUrl} is a chain with id ${existing}, not the local ${LOCAL_CHAIN_ID}; pick another port`,
    );
  }
  const started = existing === null ? await startLocalChain({ port, host }) : undefined;
  const rpcUrl = started?.rpcUrl ?? existingUrl;
  const deployment = await deployLocalContracts(rpcUrl, { deployerPrivateKey: options.deployerPrivateKey });
  return {
    rpcUrl,
    // Tokens deployed at the local legacy factories are indexed from block 0 too.
    env: { ...deployment.env, LEGACY_FACTORIES_8453: LOCAL_LEGACY_FACTORIES },
    contracts: deployment.contracts,
    reused: !started,
    close: async () => {
      await started?.close();
    },
  };
}
