// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IPoolHook} from "./Types.sol";

// Fees are in millionths (1,000,000 = 100%), as in Uniswap v4.

/// Fixed fees per input token. poolData = abi.encode(uint24 tokenFee, uint24 pairedFee), each at most 5%.
contract StaticFeeHook is IPoolHook {
    uint24 public constant MAX_FEE = 50_000;

    error InvalidPoolData();
    error StaticFeeTooHigh(uint24 fee);

    function validatePoolData(bytes calldata poolData) external pure returns (uint24 lpFee) {
        if (poolData.length < 64) revert InvalidPoolData();
        (uint256 tokenFee, uint256 pairedFee) = abi.decode(poolData, (uint256, uint256));
        if (tokenFee > MAX_FEE) revert StaticFeeTooHigh(uint24(tokenFee > type(uint24).max ? type(uint24).max : tokenFee));
        if (pairedFee > MAX_FEE) revert StaticFeeTooHigh(uint24(pairedFee > type(uint24).max ? type(uint24).max : pairedFee));
        // Pools report one fee; the paired-token side is what buyers pay.
        return uint24(pairedFee);
    }
}

/// A base fee plus a volatility part up to a cap. poolData starts with abi.encode(uint24 baseFee,
/// uint24 maxLpFee); further words (the volatility filter settings) are accepted and ignored here.
contract DynamicFeeHook is IPoolHook {
    uint24 public constant MIN_BASE_FEE = 2_500;
    uint24 public constant MAX_LP_FEE = 50_000;

    error InvalidPoolData();
    error BaseFeeTooLow(uint24 baseFee);
    error MaxLpFeeTooHigh(uint24 maxLpFee);
    error BaseFeeAboveMaxLpFee();

    function validatePoolData(bytes calldata poolData) external pure returns (uint24 lpFee) {
        if (poolData.length < 64) revert InvalidPoolData();
        (uint256 baseFee, uint256 maxLpFee) = abi.decode(poolData[:64], (uint256, uint256));
        if (baseFee < MIN_BASE_FEE) revert BaseFeeTooLow(uint24(baseFee));
        if (maxLpFee > MAX_LP_FEE) revert MaxLpFeeTooHigh(uint24(maxLpFee > type(uint24).max ? type(uint24).max : maxLpFee));
        if (baseFee > maxLpFee) revert BaseFeeAboveMaxLpFee();
        return uint24(baseFee);
    }
}

/// The MEV module only has to exist and be enabled locally; the real one delays sniping swaps.
contract MevBlockDelay {
    uint256 public immutable blockDelay;

    constructor(uint256 blockDelay_) {
        blockDelay = blockDelay_;
    }
}
