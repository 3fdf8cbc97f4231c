// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPoolHook} from "./Types.sol";

// The platform's V2 fee hooks (ClankerHookStaticFeeV2, ClankerHookDynamicFeeV2) as far as a deployment sees them:
// they read `poolData` and reject what they would not run with, under the platform's error names. Fees are in
// millionths (1,000,000 = 100%), as in Uniswap v4.

/// poolData = abi.encode(PoolInitializationData(address extension, bytes extensionData, bytes feeData)). A pool
/// extension must be enabled by the hook's owner (the platform keeps an allowlist); none is, locally.
abstract contract FeeHookV2 is IPoolHook {
    struct PoolInitializationData {
        address extension;
        bytes extensionData;
        bytes feeData;
    }

    uint24 public constant MAX_LP_FEE = 100_000;
    uint24 public constant MAX_MEV_LP_FEE = 800_000;
    uint256 public constant MAX_MEV_MODULE_DELAY = 2 minutes;
    /// The shortest PoolInitializationData encoding: tuple offset, extension, two offsets, two empty lengths.
    uint256 private constant MIN_POOL_DATA_LENGTH = 192;

    address public immutable owner;
    mapping(address extension => bool) public enabledExtensions;

    event SetPoolExtension(address indexed extension, bool enabled);

    error Unauthorized();
    error InvalidPoolData();
    error PoolExtensionNotEnabled();

    constructor(address owner_) {
        owner = owner_;
    }

    function setPoolExtension(address extension, bool enabled) external {
        if (msg.sender != owner) revert Unauthorized();
        enabledExtensions[extension] = enabled;
        emit SetPoolExtension(extension, enabled);
    }

    function validatePoolData(bytes calldata poolData) external view returns (uint24 lpFee) {
        // The platform's hook reverts without a reason on data it cannot decode (the previous generation's bare
        // fee data, say); the local one names it.
        if (poolData.length < MIN_POOL_DATA_LENGTH || uint256(bytes32(poolData[:32])) != 32) revert InvalidPoolData();
        PoolInitializationData memory data = abi.decode(poolData, (PoolInitializationData));
        if (data.extension != address(0) && !enabledExtensions[data.extension]) revert PoolExtensionNotEnabled();
        return _validateFeeData(data.feeData);
    }

    function _validateFeeData(bytes memory feeData) internal pure virtual returns (uint24 lpFee);
}

/// Fixed fees per input token: feeData = abi.encode(uint24 clankerFee, uint24 pairedFee), each at most 10%.
contract StaticFeeHookV2 is FeeHookV2 {
    error ClankerFeeTooHigh();
    error PairedFeeTooHigh();

    constructor(address owner_) FeeHookV2(owner_) {}

    function _validateFeeData(bytes memory feeData) internal pure override returns (uint24 lpFee) {
        if (feeData.length != 64) revert InvalidPoolData();
        (uint24 clankerFee, uint24 pairedFee) = abi.decode(feeData, (uint24, uint24));
        if (clankerFee > MAX_LP_FEE) revert ClankerFeeTooHigh();
        if (pairedFee > MAX_LP_FEE) revert PairedFeeTooHigh();
        // Pools report one fee; the paired-token side is what buyers pay.
        return pairedFee;
    }
}

/// A base fee plus a volatility part up to a cap: feeData = abi.encode(uint24 baseFee, uint24 maxLpFee, uint256
/// referenceTickFilterPeriod, uint256 resetPeriod, int24 resetTickFilter, uint256 feeControlNumerator, uint24
/// decayFilterBps). The base fee is at least 0.25%; the volatility settings are decoded, not used, here.
contract DynamicFeeHookV2 is FeeHookV2 {
    uint24 public constant MIN_BASE_FEE = 2_500;

    error BaseFeeTooLow();
    error MaxLpFeeTooHigh();
    error BaseFeeGreaterThanMaxLpFee();

    constructor(address owner_) FeeHookV2(owner_) {}

    function _validateFeeData(bytes memory feeData) internal pure override returns (uint24 lpFee) {
        if (feeData.length != 224) revert InvalidPoolData();
        (uint24 baseFee, uint24 maxLpFee,,,,,) =
            abi.decode(feeData, (uint24, uint24, uint256, uint256, int24, uint256, uint24));
        if (baseFee < MIN_BASE_FEE) revert BaseFeeTooLow();
        if (maxLpFee > MAX_LP_FEE) revert MaxLpFeeTooHigh();
        if (baseFee > maxLpFee) revert BaseFeeGreaterThanMaxLpFee();
        return baseFee;
    }
}
