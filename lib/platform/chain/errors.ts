// The two errors the chain layer throws for chain trouble. Everything viem raises is mapped here, so
// callers never see viem's error zoo: an RPC that is down, slow or failing is ChainUnavailableError
// (a ProviderUnavailableError: the route wrapper answers 503 provider_unavailable), a contract that reverts is
// ChainRevertError.
import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  ExecutionRevertedError,
  HttpRequestError,
  RpcError,
  RpcRequestError,
  SocketClosedError,
  TimeoutError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  WaitForTransactionReceiptTimeoutError,
  WebSocketRequestError,
  decodeErrorResult,
  type Abi,
  type Hex,
} from "viem";
import { ProviderUnavailableError } from "@/lib/core/errors";

export type ChainUnavailableReason = "timeout" | "unreachable" | "rpc_error" | "not_configured";

/** The chain's RPC is down, slow, failing or not configured; retryAfterSeconds is the 503's Retry-After. */
export class ChainUnavailableError extends ProviderUnavailableError {
  override name = "ChainUnavailableError";
  readonly chainId: number;
  readonly reason: ChainUnavailableReason;

  constructor(
    chainId: number,
    reason: ChainUnavailableReason,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) {
    super("chain", `chain ${chainId}: ${message}`, {
      cause: options.cause,
      retryAfterSeconds: options.retryAfterSeconds ?? (reason === "not_configured" ? 60 : 5),
      answer: "the chain RPC is unavailable",
    });
    this.chainId = chainId;
    this.reason = reason;
  }
}

export class ChainRevertError extends Error {
  override readonly name = "ChainRevertError";
  readonly chainId: number;
  /** The decoded custom error (e.g. `TooManyRewardParticipants`), or undefined when it is not in our ABIs. */
  readonly errorName?: string;
  readonly args?: readonly unknown[];
  /** `require` message / panic reason, when the revert carried one. */
  readonly reason?: string;
  /** Raw revert data, for errors we could not decode. */
  readonly data?: Hex;

  constructor(
    chainId: number,
    details: { errorName?: string; args?: readonly unknown[]; reason?: string; data?: Hex; cause?: unknown },
  ) {
    const what =
      details.errorName ??
      details.reason ??
      (details.data && details.data !== "0x" ? `data ${details.data}` : "no reason");
    super(`chain ${chainId}: the contract reverted (${what})`, { cause: details.cause });
    this.chainId = chainId;
    this.errorName = details.errorName;
    this.args = details.args;
    this.reason = details.reason;
    this.data = details.data;
  }
}

const isTimeout = (e: unknown) => e instanceof TimeoutError || e instanceof WaitForTransactionReceiptTimeoutError;
const isUnreachable = (e: unknown) =>
  e instanceof HttpRequestError || e instanceof WebSocketRequestError || e instanceof SocketClosedError;
const isRpcFailure = (e: unknown) =>
  e instanceof RpcRequestError ||
  e instanceof RpcError ||
  e instanceof TransactionNotFoundError ||
  e instanceof TransactionReceiptNotFoundError ||
  // Node-side rejections (nonce, funds, fee caps) are operational, not the caller's fault.
  (e instanceof BaseError && /^(Nonce|InsufficientFunds|FeeCap|IntrinsicGas|TipAboveFeeCap|UnknownNode)/.test(e.name));

/** Decodes revert data with extra error definitions (errors raised by contracts the callee calls). */
function decodeWith(errorAbi: Abi | undefined, data: Hex | undefined) {
  if (!errorAbi || !data || data.length < 10) return undefined;
  try {
    return decodeErrorResult({ abi: errorAbi, data });
  } catch {
    return undefined;
  }
}

/**
 * Maps what viem threw to ChainRevertError / ChainUnavailableError; other errors pass through.
 * `errorAbi` names custom errors that the called ABI does not declare.
 */
export function toChainError(error: unknown, chainId: number, errorAbi?: Abi): unknown {
  if (error instanceof ChainUnavailableError || error instanceof ChainRevertError) return error;
  if (!(error instanceof BaseError)) return error;

  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    const decoded = reverted.data ?? decodeWith(errorAbi, reverted.raw);
    return new ChainRevertError(chainId, {
      errorName: decoded?.errorName,
      args: decoded?.args,
      reason: reverted.reason,
      data: reverted.raw,
      cause: error,
    });
  }
  if (error.walk((e) => e instanceof ContractFunctionZeroDataError)) {
    return new ChainRevertError(chainId, { reason: "the address has no contract or returned no data", cause: error });
  }
  // Checked before the generic RPC failure: a node reports reverts as an RPC error too.
  const executionReverted = error.walk((e) => e instanceof ExecutionRevertedError);
  if (executionReverted) {
    return new ChainRevertError(chainId, {
      reason: (executionReverted as ExecutionRevertedError).details,
      cause: error,
    });
  }
  if (error.walk(isTimeout))
    return new ChainUnavailableError(chainId, "timeout", "the RPC timed out", { cause: error });
  if (error.walk(isUnreachable))
    return new ChainUnavailableError(chainId, "unreachable", "the RPC is unreachable", { cause: error });
  if (error.walk(isRpcFailure)) {
    return new ChainUnavailableError(chainId, "rpc_error", `the RPC failed: ${error.shortMessage}`, { cause: error });
  }
  return error;
}

/** Runs one chain operation with its failures mapped (see toChainError). */
export async function withChainErrors<T>(chainId: number, operation: () => Promise<T>, errorAbi?: Abi): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toChainError(error, chainId, errorAbi);
  }
}
