// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// A V3-style pool: the read surface market-data code uses (`slot0`, `token0`, `token1`, `fee`,
/// `tickSpacing`), with the price fixed at construction. It holds the liquidity share of the supply
/// so balances add up, but it does not swap: the service only reads prices from pools.
contract Pool {
    struct Slot0 {
        uint160 sqrtPriceX96;
        int24 tick;
        uint16 observationIndex;
        uint16 observationCardinality;
        uint16 observationCardinalityNext;
        uint8 feeProtocol;
        bool unlocked;
    }

    address public immutable factory;
    address public immutable token0;
    address public immutable token1;
    uint24 public immutable fee;
    int24 public immutable tickSpacing;

    /// Same getter shape as Uniswap V3's `slot0()`: a 7-member tuple.
    Slot0 public slot0;

    event Initialize(uint160 sqrtPriceX96, int24 tick);

    error InvalidTokenOrder();

    constructor(address token0_, address token1_, uint24 fee_, int24 tickSpacing_, uint160 sqrtPriceX96, int24 tick) {
        if (token0_ >= token1_) revert InvalidTokenOrder();
        factory = msg.sender;
        token0 = token0_;
        token1 = token1_;
        fee = fee_;
        tickSpacing = tickSpacing_;
        slot0 = Slot0(sqrtPriceX96, tick, 0, 1, 1, 0, true);
        emit Initialize(sqrtPriceX96, tick);
    }
}
