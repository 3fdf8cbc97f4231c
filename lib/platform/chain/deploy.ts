// Token deployment through the factory: simulate (which also predicts the address), sign, broadcast, wait.
import {
  BaseError,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  keccak256,
  recoverTransactionAddress,
  toHex,
  type Address,
  type ContractFunctionArgs,
  type Hash,
  type Hex,
  type TransactionReceipt,
  type TransactionSerialized,
} from "viem";
import { deployErrorsAbi, tokenFactoryAbi } from "./abis";
import { getPublicClient, getWalletClient } from "./clients";
import { ChainUnavailableError, withChainErrors } from "./errors";
import { chainSettings } from "./settings";
import { remember } from "@/lib/core/remember";

/** The factory's `DeploymentConfig`, typed from the ABI (bigints for uint256, numbers for int24/uint16). */
export type DeploymentConfig = ContractFunctionArgs<typeof tokenFactoryAbi, "payable", "deployToken">[0];
export type TokenConfig = DeploymentConfig["tokenConfig"];

/** 100 billion tokens with 18 decimals: the supply of every version-4 token. */
export const TOKEN_SUPPLY = 100_000_000_000n * 10n ** 18n;

export function factoryAddress(chainId: number, factory?: Address): Address {
  const address = factory ?? chainSettings(chainId).contracts.factory;
  if (!address) {
    throw new ChainUnavailableError(
      chainId,
      "not_configured",
      `no factory configured (set FACTORY_ADDRESS_${chainId})`,
    );
  }
  return address;
}

/** ETH the call must carry: what the extensions asked for (the factory checks the sum). */
const ethValueOf = (config: DeploymentConfig) => config.extensionConfigs.reduce((sum, e) => sum + e.msgValue, 0n);

export interface DeployOptions {
  /** Defaults to FACTORY_ADDRESS_<chainId>. */
  factory?: Address;
}

/**
 * Runs `deployToken` without sending it and returns the token address it would create: the most
 * reliable prediction, since it does not depend on knowing the factory's token bytecode. A config
 * the factory rejects throws ChainRevertError naming the custom error.
 */
export async function simulateDeployToken(
  chainId: number,
  config: DeploymentConfig,
  options: DeployOptions = {},
): Promise<Address> {
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
        value: ethValueOf(config),
        account,
      });
      return result;
    },
    deployErrorsAbi,
  );
}

const sendQueues = remember("chain.send-queues", () => new Map<number, Promise<unknown>>());

/** Runs sends of one chain one after another in this process, so each reads the nonce after the previous one reached the node. */
function inSendOrder<T>(chainId: number, send: () => Promise<T>): Promise<T> {
  const previous = sendQueues.get(chainId) ?? Promise.resolve();
  const next = previous.then(send, send);
  sendQueues.set(
    chainId,
    next.catch(() => undefined),
  );
  return next;
}

/** A deployToken transaction signed by the deployer and not necessarily broadcast yet. */
export interface SignedTransaction {
  hash: Hash;
  nonce: number;
  /** The serialized signed transaction, as eth_sendRawTransaction takes it. */
  raw: Hex;
}

/** The deployer's next nonce as the node sees it, counting transactions waiting in its pool. */
export async function pendingNonce(chainId: number, address: Address): Promise<number> {
  return withChainErrors(chainId, () => getPublicClient(chainId).getTransactionCount({ address, blockTag: "pending" }));
}

/** How many of the account's transactions are mined: a nonce below it is used for good. */
export async function minedNonceCount(chainId: number, address: Address): Promise<number> {
  return withChainErrors(chainId, () => getPublicClient(chainId).getTransactionCount({ address, blockTag: "latest" }));
}

/** Signs `deployToken` locally with the given nonce (gas estimated now, which surfaces factory reverts). */
export async function signDeployToken(
  chainId: number,
  config: DeploymentConfig,
  nonce: number,
  options: DeployOptions = {},
): Promise<SignedTransaction> {
  const factory = factoryAddress(chainId, options.factory);
  const wallet = getWalletClient(chainId);
  const call = {
    address: factory,
    abi: tokenFactoryAbi,
    functionName: "deployToken",
    args: [config],
    value: ethValueOf(config),
  } as const;
  return withChainErrors(
    chainId,
    async () => {
      const gas = await getPublicClient(chainId).estimateContractGas({ ...call, account: wallet.account });
      const request = await wallet.prepareTransactionRequest({
        to: factory,
        data: encodeFunctionData(call),
        value: call.value,
        gas,
        nonce,
        chain: wallet.chain,
        account: wallet.account,
      });
      const raw = await wallet.signTransaction(request);
      return { hash: keccak256(raw), nonce, raw };
    },
    deployErrorsAbi,
  );
}

/** The node already has this transaction, or its nonce is taken (mined or pending): the caller checks which. */
const alreadyHandled = (error: unknown) =>
  error instanceof BaseError &&
  Boolean(
    error.walk((e) =>
      /already known|known transaction|already imported|nonce too low|replacement transaction underpriced/i.test(
        (e as BaseError).details ?? (e as Error).message,
      ),
    ),
  );

/**
 * Hands a signed transaction to the node. `rebroadcast`: the transaction may have reached the node before
 * (a retry), so "already known" and "nonce too low" are not errors; the caller then looks at the chain.
 */
export async function broadcastTransaction(
  chainId: number,
  raw: Hex,
  options: { rebroadcast?: boolean } = {},
): Promise<Hash> {
  const hash = keccak256(raw);
  try {
    return await withChainErrors(
      chainId,
      () => getPublicClient(chainId).sendRawTransaction({ serializedTransaction: raw }),
      deployErrorsAbi,
    );
  } catch (error) {
    if (options.rebroadcast && alreadyHandled((error as Error).cause ?? error)) return hash;
    throw error;
  }
}

/** The address that signed a serialized transaction. */
export const signerOf = (raw: Hex): Promise<Address> =>
  recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized });

/**
 * Sends `deployToken` from the deployer account and returns the transaction hash (not yet mined), the
 * nonce being the node's pending count read in this process's send order. For tests and scripts: the
 * deploy job picks the nonce from the node and its stored transactions, and signs and stores under a
 * lock shared by all processes (lib/domains/launch/deploy/sender.ts).
 */
export async function sendDeployToken(
  chainId: number,
  config: DeploymentConfig,
  options: DeployOptions = {},
): Promise<Hash> {
  const wallet = getWalletClient(chainId);
  return inSendOrder(chainId, async () => {
    const signed = await signDeployToken(chainId, config, await pendingNonce(chainId, wallet.account.address), options);
    return broadcastTransaction(chainId, signed.raw);
  });
}

/**
 * Waits until the transaction is mined and returns its receipt, whatever its status (check
 * `receipt.status`). Gives up with ChainUnavailableError (reason "timeout") after `timeoutMs`.
 */
export async function waitForReceipt(
  chainId: number,
  hash: Hash,
  options: { timeoutMs?: number; confirmations?: number } = {},
): Promise<TransactionReceipt> {
  const client = getPublicClient(chainId);
  return withChainErrors(chainId, () =>
    client.waitForTransactionReceipt({
      hash,
      timeout: options.timeoutMs ?? 60_000,
      confirmations: options.confirmations ?? 1,
    }),
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

/**
 * The call of the transaction at `index` in block `blockHash` (its recipient and input), or null when the node does
 * not know that block. Read by position, from the block's body: nodes keep an index by hash for recent transactions
 * only, and a block hash cannot name a transaction that a reorg replaced.
 */
export async function getTransactionCall(
  chainId: number,
  blockHash: Hash,
  index: number,
): Promise<{ to: Address | null; input: Hex } | null> {
  const client = getPublicClient(chainId);
  return withChainErrors(chainId, async () => {
    // Raw: viem's getTransaction would also format the dozen members the indexer does not read.
    const tx = await client.request({
      method: "eth_getTransactionByBlockHashAndIndex",
      params: [blockHash, toHex(index)],
    });
    return tx ? { to: tx.to ? (tx.to.toLowerCase() as Address) : null, input: tx.input } : null;
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
