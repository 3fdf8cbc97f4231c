// Token deployment through the factory: simulate (which also predicts the address), send, wait.
import {
  encodeAbiParameters,
  encodeDeployData,
  getContractAddress,
  keccak256,
  type Address,
  type ContractFunctionArgs,
  type Hash,
  type Hex,
  type TransactionReceipt,
} from "viem";
import { deployErrorsAbi, tokenFactoryAbi } from "./abis";
import { tokenAbi, tokenBytecode } from "./artifacts";
import { getPublicClient, getWalletClient } from "./clients";
import { ChainUnavailableError, withChainErrors } from "./errors";
import { chainSettings } from "./settings";

/** The factory's `DeploymentConfig`, typed from the ABI (bigints for uint256, numbers for int24/uint16). */
export type DeploymentConfig = ContractFunctionArgs<typeof tokenFactoryAbi, "payable", "deployToken">[0];
export type TokenConfig = DeploymentConfig["tokenConfig"];

/** 100 billion tokens with 18 decimals: the supply of every version-4 token. */
export const TOKEN_SUPPLY = 100_000_000_000n * 10n ** 18n;

export function factoryAddress(chainId: number, factory?: Address): Address {
  const address = factory ?? chainSettings(chainId).contracts.factory;
  if (!address) {
    throw new ChainUnavailableError(chainId, "not_configured", `no factory configured (set FACTORY_ADDRESS_${chainId})`);
  }
  return address;
}

/** ETH the call must carry: what the extensions asked for (the factory checks the sum). */
const valueOf = (config: DeploymentConfig) => config.extensionConfigs.reduce((sum, e) => sum + e.msgValue, 0n);

export interface DeployOptions {
  /** Defaults to FACTORY_ADDRESS_<chainId>. */
  factory?: Address;
}

/**
 * Runs `deployToken` without sending it and returns the token address it would create: the most
 * reliable prediction, since it does not depend on knowing the factory's token bytecode. A config
 * the factory rejects throws ChainRevertError naming the custom error.
 */
export async function simulateDeployToken(chainId: number, config: DeploymentConfig, options: DeployOptions = {}): Promise<Address> {
  const factory = factoryAddress(chainId, options.factory);
  const client = getPublicClient(chainId);
  const account = chainSettings(chainId).deployerPrivateKey ? getWalletClient(chainId).account : undefined;
  return withChainErrors(
    chainId,
    async () => {
      const { result } = await client.simulateContract({
        address: factory,
        abi: tokenFactoryAbi,
        functionName: "deployToken",
        args: [config],
        value: valueOf(config),
        account,
      });
      return result;
    },
    deployErrorsAbi,
  );
}

const sendQueues = ((globalThis as unknown as { __chainSendQueues?: Map<number, Promise<unknown>> }).__chainSendQueues ??=
  new Map());

/**
 * Runs sends of one chain one after another. The nonce manager hands out distinct nonces to
 * concurrent sends, but they can still reach the node out of order; a node that cannot queue a
 * nonce gap (the local chain, some RPC providers) then rejects the later one.
 */
function inSendOrder<T>(chainId: number, send: () => Promise<T>): Promise<T> {
  const previous = sendQueues.get(chainId) ?? Promise.resolve();
  const next = previous.then(send, send);
  sendQueues.set(chainId, next.catch(() => undefined));
  return next;
}

/**
 * Sends `deployToken` from the deployer account and returns the transaction hash (not yet mined).
 * Concurrent calls in one process are submitted in order with consecutive nonces.
 */
export async function sendDeployToken(chainId: number, config: DeploymentConfig, options: DeployOptions = {}): Promise<Hash> {
  const factory = factoryAddress(chainId, options.factory);
  const wallet = getWalletClient(chainId);
  return withChainErrors(
    chainId,
    () =>
      inSendOrder(chainId, () =>
        wallet.writeContract({
          address: factory,
          abi: tokenFactoryAbi,
          functionName: "deployToken",
          args: [config],
          value: valueOf(config),
        }),
      ),
    deployErrorsAbi,
  );
}

/**
 * Waits until the transaction is mined and returns its receipt, whatever its status (check
 * `receipt.status`). Gives up with ChainUnavailableError (reason "timeout") after `timeoutMs`.
 */
export async function waitForReceipt(chainId: number, hash: Hash, options: { timeoutMs?: number; confirmations?: number } = {}): Promise<TransactionReceipt> {
  const client = getPublicClient(chainId);
  return withChainErrors(chainId, () =>
    client.waitForTransactionReceipt({ hash, timeout: options.timeoutMs ?? 60_000, confirmations: options.confirmations ?? 1 }),
  );
}

/** The receipt if the transaction is mined, null if it is unknown or pending. */
export async function getReceipt(chainId: number, hash: Hash): Promise<TransactionReceipt | null> {
  const client = getPublicClient(chainId);
  return withChainErrors(chainId, async () => {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch (error) {
      if ((error as Error).name === "TransactionReceiptNotFoundError") return null;
      throw error;
    }
  });
}

/** The factory's CREATE2 salt for a token: keccak256(abi.encode(tokenAdmin, salt)). */
export function tokenCreate2Salt(tokenAdmin: Address, salt: Hex): Hex {
  return keccak256(encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [tokenAdmin, salt]));
}

/** Where `factory` deploys the token of (tokenAdmin, salt), given the hash of the token's init code. */
export function predictTokenAddress(factory: Address, tokenAdmin: Address, salt: Hex, initCodeHash: Hex): Address {
  return getContractAddress({
    opcode: "CREATE2",
    from: factory,
    salt: tokenCreate2Salt(tokenAdmin, salt),
    bytecodeHash: initCodeHash,
  });
}

/**
 * Init code hash of the local factory's token (its constructor arguments are part of the init code,
 * so it depends on the config). Only valid for the local contracts: the platform's token bytecode is
 * not known here, which is why simulation is the prediction the service relies on.
 */
export function localTokenInitCodeHash(token: TokenConfig): Hex {
  return keccak256(
    encodeDeployData({
      abi: tokenAbi,
      bytecode: tokenBytecode,
      args: [token.name, token.symbol, TOKEN_SUPPLY, token.tokenAdmin, token.image, token.metadata, token.context],
    }),
  );
}
