// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20Like, TokenTransfers} from "./Types.sol";

/// A V3-style pool: the read surface market-data code uses (`slot0`, `token0`, `token1`, `fee`,
/// `tickSpacing`), with the price fixed at construction. It holds the liquidity share of the supply and swaps
/// at that fixed price out of what it holds, fee-free: enough for buyers to hold the token and for the LP
/// locker to convert fees into a recipient's preferred token. The service only reads prices from pools.
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
    event Swap(address indexed sender, address indexed recipient, address indexed tokenIn, uint256 amountIn, uint256 amountOut);

    error InvalidTokenOrder();
    error InvalidToken();
    error InsufficientLiquidity();

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

    /// Pulls `amountIn` of `tokenIn` from the caller and pays the other token at the pool's price to `recipient`.
    function swap(address tokenIn, uint256 amountIn, address recipient) external returns (uint256 amountOut) {
        if (tokenIn != token0 && tokenIn != token1) revert InvalidToken();
        uint256 sqrtPrice = slot0.sqrtPriceX96;
        // price = (sqrtPriceX96 / 2^96)^2 of token1 per token0, applied in two halves so the products stay small.
        amountOut = tokenIn == token0
            ? ((amountIn * sqrtPrice) >> 96) * sqrtPrice >> 96
            : ((amountIn << 96) / sqrtPrice << 96) / sqrtPrice;
        address tokenOut = tokenIn == token0 ? token1 : token0;
        if (IERC20Like(tokenOut).balanceOf(address(this)) < amountOut) revert InsufficientLiquidity();
        TokenTransfers.pull(tokenIn, msg.sender, address(this), amountIn);
        TokenTransfers.send(tokenOut, recipient, amountOut);
        emit Swap(msg.sender, recipient, tokenIn, amountIn, amountOut);
    }
}
