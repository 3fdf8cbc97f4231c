// The chain layer's public surface. Nothing outside lib/platform/chain creates viem clients.
export { chainName } from "./names";
export { ChainRevertError, ChainUnavailableError, type ChainUnavailableReason } from "./errors";
export {
  chainSettings,
  configuredChainIds as rpcConfiguredChainIds,
  type ChainContracts,
  type ChainSettings,
} from "./settings";
export {
  configuredChainIds,
  deployerAddress,
  getPublicClient,
  getWalletClient,
  resetChainClients,
  setChainTransport,
} from "./clients";
export {
  TOKEN_SUPPLY,
  broadcastTransaction,
  factoryAddress,
  getReceipt,
  minedNonceCount,
  pendingNonce,
  predictTokenAddress,
  sendDeployToken,
  signDeployToken,
  signerOf,
  simulateDeployToken,
  tokenCreate2Salt,
  waitForReceipt,
  type DeploymentConfig,
  type SignedTransaction,
  type TokenConfig,
} from "./deploy";
export {
  AIRDROP_CLAIMED_TOPIC,
  CLAIM_TOKENS_TOPIC,
  PRESALE_STATUS,
  TOKEN_CREATED_TOPIC,
  decodeFeeClaim,
  decodePresaleEvent,
  decodeTokenCreated,
  findTokenCreated,
  getAirdropClaimLogs,
  getFeeClaimLogs,
  getPresaleEventLogs,
  getPresaleLogs,
  getTokenCreatedLogs,
  type AirdropClaimEvent,
  type FeeClaimEvent,
  type PresaleEvent,
  type TokenCreatedEvent,
} from "./events";
export {
  getBlockHeader,
  getLatestBlockNumber,
  readAirdropRoot,
  readAvailableFees,
  readErc20Basics,
  readPoolState,
  readPoolWithFeed,
  readPresale,
  readPresaleAllowlistRoot,
  readTokenInfo,
  type AvailableFee,
  type BlockHeader,
  type Erc20Basics,
  type FeedPrice,
  type PoolState,
  type PoolWithFeed,
  type TokenInfo,
} from "./reads";
export { chainlinkFeedAbi, erc20ReadAbi, feeLockerAbi, tokenFactoryAbi, v3PoolAbi } from "./abis";
