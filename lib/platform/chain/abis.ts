// The parts of the platform's contract ABIs the service calls or indexes, written out by hand from
// the platform's interfaces (COMPAT, the compatibility notes). The local contracts implement the same items; a test
// checks each item here against the compiled artifacts, so the two cannot drift apart.
import { parseAbi } from "viem";

const tokenConfig = {
  name: "tokenConfig",
  type: "tuple",
  internalType: "struct TokenConfig",
  components: [
    { name: "tokenAdmin", type: "address", internalType: "address" },
    { name: "name", type: "string", internalType: "string" },
    { name: "symbol", type: "string", internalType: "string" },
    { name: "salt", type: "bytes32", internalType: "bytes32" },
    { name: "image", type: "string", internalType: "string" },
    { name: "metadata", type: "string", internalType: "string" },
    { name: "context", type: "string", internalType: "string" },
    { name: "originatingChainId", type: "uint256", internalType: "uint256" },
  ],
} as const;

const poolConfig = {
  name: "poolConfig",
  type: "tuple",
  internalType: "struct PoolConfig",
  components: [
    { name: "hook", type: "address", internalType: "address" },
    { name: "pairedToken", type: "address", internalType: "address" },
    { name: "tickIfToken0IsClanker", type: "int24", internalType: "int24" },
    { name: "tickSpacing", type: "int24", internalType: "int24" },
    { name: "poolData", type: "bytes", internalType: "bytes" },
  ],
} as const;

const lockerConfig = {
  name: "lockerConfig",
  type: "tuple",
  internalType: "struct LockerConfig",
  components: [
    { name: "locker", type: "address", internalType: "address" },
    { name: "rewardAdmins", type: "address[]", internalType: "address[]" },
    { name: "rewardRecipients", type: "address[]", internalType: "address[]" },
    { name: "rewardBps", type: "uint16[]", internalType: "uint16[]" },
    { name: "tickLower", type: "int24[]", internalType: "int24[]" },
    { name: "tickUpper", type: "int24[]", internalType: "int24[]" },
    { name: "positionBps", type: "uint16[]", internalType: "uint16[]" },
    { name: "lockerData", type: "bytes", internalType: "bytes" },
  ],
} as const;

const mevModuleConfig = {
  name: "mevModuleConfig",
  type: "tuple",
  internalType: "struct MevModuleConfig",
  components: [
    { name: "mevModule", type: "address", internalType: "address" },
    { name: "mevModuleData", type: "bytes", internalType: "bytes" },
  ],
} as const;

const extensionConfigs = {
  name: "extensionConfigs",
  type: "tuple[]",
  internalType: "struct ExtensionConfig[]",
  components: [
    { name: "extension", type: "address", internalType: "address" },
    { name: "msgValue", type: "uint256", internalType: "uint256" },
    { name: "extensionBps", type: "uint16", internalType: "uint16" },
    { name: "extensionData", type: "bytes", internalType: "bytes" },
  ],
} as const;

/** DeploymentConfig's members: the factory's argument, and what the presale extension keeps and emits. */
export const deploymentConfigComponents = [
  tokenConfig,
  poolConfig,
  lockerConfig,
  mevModuleConfig,
  extensionConfigs,
] as const;

/** Factory (version 4.0.0): `deployToken` and `TokenCreated`. */
export const tokenFactoryAbi = [
  {
    type: "function",
    name: "deployToken",
    stateMutability: "payable",
    inputs: [
      {
        name: "deploymentConfig",
        type: "tuple",
        internalType: "struct DeploymentConfig",
        components: deploymentConfigComponents,
      },
    ],
    outputs: [{ name: "tokenAddress", type: "address", internalType: "address" }],
  },
  {
    type: "event",
    name: "TokenCreated",
    anonymous: false,
    inputs: [
      { name: "msgSender", type: "address", indexed: false, internalType: "address" },
      { name: "tokenAddress", type: "address", indexed: true, internalType: "address" },
      { name: "tokenAdmin", type: "address", indexed: true, internalType: "address" },
      { name: "tokenImage", type: "string", indexed: false, internalType: "string" },
      { name: "tokenName", type: "string", indexed: false, internalType: "string" },
      { name: "tokenSymbol", type: "string", indexed: false, internalType: "string" },
      { name: "tokenMetadata", type: "string", indexed: false, internalType: "string" },
      { name: "tokenContext", type: "string", indexed: false, internalType: "string" },
      { name: "startingTick", type: "int24", indexed: false, internalType: "int24" },
      { name: "poolHook", type: "address", indexed: false, internalType: "address" },
      { name: "poolId", type: "bytes32", indexed: false, internalType: "bytes32" },
      { name: "pairedToken", type: "address", indexed: false, internalType: "address" },
      { name: "locker", type: "address", indexed: false, internalType: "address" },
      { name: "mevModule", type: "address", indexed: false, internalType: "address" },
      { name: "extensionsSupply", type: "uint256", indexed: false, internalType: "uint256" },
      { name: "extensions", type: "address[]", indexed: false, internalType: "address[]" },
    ],
  },
] as const;

/**
 * What goes inside the DeploymentConfig's bytes members in the v4.1 generation (the platform SDK's encodings):
 * the V2 fee hooks' poolData wraps the fee hook's own data with a pool extension, the fee-conversion locker's
 * lockerData names each reward recipient's fee token, the sniper auction's mevModuleData its fees.
 */
export const poolInitializationDataParams = [
  {
    type: "tuple",
    components: [
      { name: "extension", type: "address" },
      { name: "extensionData", type: "bytes" },
      { name: "feeData", type: "bytes" },
    ],
  },
] as const;
/** feeData of the static fee hooks: (tokenFee, pairedFee), millionths. */
export const staticFeeDataParams = [
  { name: "tokenFee", type: "uint24" },
  { name: "pairedFee", type: "uint24" },
] as const;
/** feeData of the dynamic fee hooks. */
export const dynamicFeeDataParams = [
  { name: "baseFee", type: "uint24" },
  { name: "maxLpFee", type: "uint24" },
  { name: "referenceTickFilterPeriod", type: "uint256" },
  { name: "resetPeriod", type: "uint256" },
  { name: "resetTickFilter", type: "int24" },
  { name: "feeControlNumerator", type: "uint256" },
  { name: "decayFilterBps", type: "uint24" },
] as const;
/** lockerData of the fee-conversion LP locker: per reward recipient 0 both tokens, 1 the paired token, 2 the token. */
export const lockerFeeConversionDataParams = [
  { type: "tuple", components: [{ name: "feePreference", type: "uint8[]" }] },
] as const;
/** mevModuleData of the sniper auction V2 (and the descending-fees module): fees in millionths. */
export const sniperAuctionDataParams = [
  {
    type: "tuple",
    components: [
      { name: "startingFee", type: "uint24" },
      { name: "endingFee", type: "uint24" },
      { name: "secondsToDecay", type: "uint256" },
    ],
  },
] as const;
/** extensionData of the vault: (admin, lockupDuration, vestingDuration). */
export const vaultDataParams = [
  { name: "admin", type: "address" },
  { name: "lockupDuration", type: "uint256" },
  { name: "vestingDuration", type: "uint256" },
] as const;
/** extensionData of the airdrop: (admin, merkleRoot, lockupDuration, vestingDuration). */
export const airdropDataParams = [
  { name: "admin", type: "address" },
  { name: "merkleRoot", type: "bytes32" },
  { name: "lockupDuration", type: "uint256" },
  { name: "vestingDuration", type: "uint256" },
] as const;

/** Uniswap V3-style pool reads. */
export const v3PoolAbi = [
  {
    type: "function",
    name: "slot0",
    stateMutability: "view",
    inputs: [],
    outputs: [
      { name: "sqrtPriceX96", type: "uint160", internalType: "uint160" },
      { name: "tick", type: "int24", internalType: "int24" },
      { name: "observationIndex", type: "uint16", internalType: "uint16" },
      { name: "observationCardinality", type: "uint16", internalType: "uint16" },
      { name: "observationCardinalityNext", type: "uint16", internalType: "uint16" },
      { name: "feeProtocol", type: "uint8", internalType: "uint8" },
      { name: "unlocked", type: "bool", internalType: "bool" },
    ],
  },
  {
    type: "function",
    name: "token0",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "address", internalType: "address" }],
  },
  {
    type: "function",
    name: "token1",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "address", internalType: "address" }],
  },
  {
    type: "function",
    name: "fee",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "uint24", internalType: "uint24" }],
  },
] as const;

/** Fee locker: per (fee owner, token) balances and their claims. */
export const feeLockerAbi = [
  {
    type: "function",
    name: "availableFees",
    stateMutability: "view",
    inputs: [
      { name: "feeOwner", type: "address", internalType: "address" },
      { name: "token", type: "address", internalType: "address" },
    ],
    outputs: [{ name: "", type: "uint256", internalType: "uint256" }],
  },
  {
    type: "function",
    name: "claim",
    stateMutability: "nonpayable",
    inputs: [
      { name: "feeOwner", type: "address", internalType: "address" },
      { name: "token", type: "address", internalType: "address" },
    ],
    outputs: [],
  },
  {
    type: "event",
    name: "ClaimTokens",
    anonymous: false,
    inputs: [
      { name: "feeOwner", type: "address", indexed: true, internalType: "address" },
      { name: "token", type: "address", indexed: true, internalType: "address" },
      { name: "amountClaimed", type: "uint256", indexed: false, internalType: "uint256" },
    ],
  },
  {
    type: "event",
    name: "StoreTokens",
    anonymous: false,
    inputs: [
      { name: "sender", type: "address", indexed: true, internalType: "address" },
      { name: "feeOwner", type: "address", indexed: true, internalType: "address" },
      { name: "token", type: "address", indexed: true, internalType: "address" },
      { name: "balance", type: "uint256", indexed: false, internalType: "uint256" },
      { name: "amount", type: "uint256", indexed: false, internalType: "uint256" },
    ],
  },
] as const;

/** The ERC-20 reads the service makes. */
export const erc20ReadAbi = [
  {
    type: "function",
    name: "name",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "string", internalType: "string" }],
  },
  {
    type: "function",
    name: "symbol",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "string", internalType: "string" }],
  },
  {
    type: "function",
    name: "decimals",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "uint8", internalType: "uint8" }],
  },
  {
    type: "function",
    name: "totalSupply",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "uint256", internalType: "uint256" }],
  },
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "account", type: "address", internalType: "address" }],
    outputs: [{ name: "", type: "uint256", internalType: "uint256" }],
  },
] as const;

/** Chainlink AggregatorV3Interface (the ETH/USD feed). */
export const chainlinkFeedAbi = [
  {
    type: "function",
    name: "decimals",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "uint8", internalType: "uint8" }],
  },
  {
    type: "function",
    name: "latestRoundData",
    stateMutability: "view",
    inputs: [],
    outputs: [
      { name: "roundId", type: "uint80", internalType: "uint80" },
      { name: "answer", type: "int256", internalType: "int256" },
      { name: "startedAt", type: "uint256", internalType: "uint256" },
      { name: "updatedAt", type: "uint256", internalType: "uint256" },
      { name: "answeredInRound", type: "uint80", internalType: "uint80" },
    ],
  },
] as const;

/** Launched tokens' metadata read (`allData`), present on version-4 tokens. */
export const tokenDataAbi = [
  {
    type: "function",
    name: "allData",
    stateMutability: "view",
    inputs: [],
    outputs: [
      { name: "originalAdmin_", type: "address", internalType: "address" },
      { name: "admin_", type: "address", internalType: "address" },
      { name: "image", type: "string", internalType: "string" },
      { name: "metadata_", type: "string", internalType: "string" },
      { name: "context_", type: "string", internalType: "string" },
    ],
  },
] as const;

/**
 * The airdrop extension's per-token record, its leading members only: the platform's airdrop (v4.1) and
 * the local one both start with (admin, merkleRoot), and a static tuple decodes from its leading words.
 */
export const airdropRecordAbi = [
  {
    type: "function",
    name: "airdrops",
    stateMutability: "view",
    inputs: [{ name: "token", type: "address", internalType: "address" }],
    outputs: [
      { name: "admin", type: "address", internalType: "address" },
      { name: "merkleRoot", type: "bytes32", internalType: "bytes32" },
    ],
  },
] as const;

/** The presale contract's record of one presale, leading members only (status, owner, allowlist root). */
export const presaleRecordAbi = [
  {
    type: "function",
    name: "getPresale",
    stateMutability: "view",
    inputs: [{ name: "presaleId", type: "uint256", internalType: "uint256" }],
    outputs: [
      { name: "status", type: "uint8", internalType: "uint8" },
      { name: "presaleOwner", type: "address", internalType: "address" },
      { name: "allowlistRoot", type: "bytes32", internalType: "bytes32" },
    ],
  },
] as const;

/**
 * Every custom error the deployment path can raise (factory, hooks, extensions, lockers, token), so a reverted
 * simulation names the rule it broke. The local contracts raise the same ones (checked against their ABIs).
 */
export const deployErrorsAbi = parseAbi([
  "error ExtensionMsgValueMismatch()",
  "error ExtensionNotEnabled()",
  "error HookNotEnabled()",
  "error InvalidPairedToken()",
  "error InvalidPositionBps()",
  "error InvalidRewardBps()",
  "error InvalidTickSpacing()",
  "error LockerNotEnabled()",
  "error MaxExtensionBpsExceeded()",
  "error MaxExtensionsExceeded()",
  "error MevModuleNotEnabled()",
  "error MismatchedPositionInfos()",
  "error MismatchedRewardArrays()",
  "error NoPositions()",
  "error NoRewardRecipients()",
  "error OnlyOriginatingChain()",
  "error TickOutOfRange()",
  "error TickRangeLowerThanStartingTick()",
  "error TicksBackwards()",
  "error TicksNotMultipleOfTickSpacing()",
  "error TicksOutOfTickBounds()",
  "error TokenAlreadyDeployed(address token)",
  "error TokenDeploymentFailed()",
  "error TooManyPositions()",
  "error TooManyRewardParticipants()",
  "error TransferFailed()",
  "error Unauthorized()",
  "error ZeroRewardAmount()",
  "error ZeroRewardAddress()",
  "error ZeroTokenAdmin()",
  "error InvalidPoolData()",
  "error ClankerFeeTooHigh()",
  "error PairedFeeTooHigh()",
  "error PoolExtensionNotEnabled()",
  "error BaseFeeGreaterThanMaxLpFee()",
  "error BaseFeeTooLow()",
  "error MaxLpFeeTooHigh()",
  "error EndingFeeTooLow()",
  "error InvalidMevModuleData()",
  "error PoolAlreadyInitialized()",
  "error StartingFeeGreaterThanMaxLpFee()",
  "error StartingFeeMustBeGreaterThanEndingFee()",
  "error StartingFeeMustBeGreaterThanZero()",
  "error TimeDecayLongerThanMaxMevDelay()",
  "error TimeDecayMustBeGreaterThanZero()",
  "error InvalidLockerData()",
  "error TokenAlreadyHasRewards()",
  "error LockupTooShort(uint256 lockupDuration, uint256 minimum)",
  "error NothingToClaim()",
  "error OnlyFactory()",
  "error UnexpectedMsgValue()",
  "error InvalidProof()",
  "error UpdateMerkleRootNotAllowed()",
  "error AllowlistAmountExceeded(uint256 allowedAmount)",
  "error InsufficientBalance()",
  "error InvalidEthGoal()",
  "error InvalidPresaleDuration()",
  "error InvalidPresaleOwner()",
  "error NotAllowlisted()",
  "error NotExpectingDeployment()",
  "error PresaleNotActive()",
  "error PresaleNotClaimable()",
  "error PresaleNotEnded()",
  "error PresaleNotLastExtension()",
  "error TokenDeploymentOutOfGas()",
  "error WithdrawNotAllowed()",
  "error UnknownToken()",
  "error NoFeesToClaim()",
  "error InsufficientAllowance()",
  "error InvalidRecipient()",
  "error NotAdmin()",
]);
