// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20Like, TokenTransfers} from "./Types.sol";
import {Pool} from "./Pool.sol";
import {TickMath} from "./TickMath.sol";

/// Uniswap V3's factory as the legacy generations (v0 to v3.1) and readers see it: `getPool(tokenA, tokenB, fee)`
/// in either token order and the `PoolCreated` event. Pools are the local `Pool`, priced at creation, so
/// `createPool` also takes the starting tick (Uniswap's pool is initialized by a second call).
contract LegacyUniswapV3Factory {
    mapping(address tokenA => mapping(address tokenB => mapping(uint24 fee => address pool))) public getPool;

    event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool);

    error PoolExists();
    error IdenticalTokens();

    /// `tick` is the pool's (token1 per token0) starting tick.
    function createPool(address tokenA, address tokenB, uint24 fee, int24 tickSpacing, int24 tick)
        external
        returns (address pool)
    {
        if (tokenA == tokenB) revert IdenticalTokens();
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        if (getPool[token0][token1][fee] != address(0)) revert PoolExists();
        pool = address(new Pool(token0, token1, fee, tickSpacing, TickMath.sqrtPriceAtTick(tick), tick));
        getPool[token0][token1][fee] = pool;
        getPool[token1][token0][fee] = pool;
        emit PoolCreated(token0, token1, fee, tickSpacing, pool);
    }
}

/// Uniswap V3's NonfungiblePositionManager as the legacy lockers and the platform's legacy fee-claim helpers use it:
/// each LP position is an NFT (`ownerOf`, `transferFrom`, `approve`), `positions(tokenId)` answers the same
/// 12-member tuple, and `collect` pays what the position owes to its owner's chosen recipient and emits `Collect`.
/// The local pools do not accrue fees: `addFees(tokenId, amount0, amount1)` stands in for swaps, pulling both
/// amounts from the caller into what the position owes (`tokensOwed0`, `tokensOwed1`).
contract LegacyPositionManager {
    struct Position {
        uint96 nonce;
        address operator;
        address token0;
        address token1;
        uint24 fee;
        int24 tickLower;
        int24 tickUpper;
        uint128 liquidity;
        uint256 feeGrowthInside0LastX128;
        uint256 feeGrowthInside1LastX128;
        uint128 tokensOwed0;
        uint128 tokensOwed1;
    }

    struct CollectParams {
        uint256 tokenId;
        address recipient;
        uint128 amount0Max;
        uint128 amount1Max;
    }

    string public constant name = "Uniswap V3 Positions NFT-V1";
    string public constant symbol = "UNI-V3-POS";

    /// Position ids start at 1: a locker reads id 0 as "none".
    uint256 public totalSupply;
    mapping(uint256 tokenId => Position) public positions;
    mapping(uint256 tokenId => address) private owners;
    mapping(uint256 tokenId => address) public getApproved;
    mapping(address owner => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1);
    event Collect(uint256 indexed tokenId, address recipient, uint256 amount0, uint256 amount1);

    error InvalidTokenId();
    error NotApproved();
    error InvalidRecipient();

    /// Uniswap's MintParams. The caller has already placed the tokens in the pool (nothing is pulled and the
    /// minimums and deadline are not checked); the position's liquidity is the sum of the two amounts.
    struct MintParams {
        address token0;
        address token1;
        uint24 fee;
        int24 tickLower;
        int24 tickUpper;
        uint256 amount0Desired;
        uint256 amount1Desired;
        uint256 amount0Min;
        uint256 amount1Min;
        address recipient;
        uint256 deadline;
    }

    /// Records a position owned by `recipient`.
    function mint(MintParams calldata params)
        external
        payable
        returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)
    {
        if (params.recipient == address(0)) revert InvalidRecipient();
        (amount0, amount1) = (params.amount0Desired, params.amount1Desired);
        liquidity = uint128(amount0 + amount1);
        tokenId = ++totalSupply;
        Position storage p = positions[tokenId];
        p.token0 = params.token0;
        p.token1 = params.token1;
        p.fee = params.fee;
        p.tickLower = params.tickLower;
        p.tickUpper = params.tickUpper;
        p.liquidity = liquidity;
        owners[tokenId] = params.recipient;
        balanceOf[params.recipient] += 1;
        emit Transfer(address(0), params.recipient, tokenId);
        emit IncreaseLiquidity(tokenId, liquidity, amount0, amount1);
    }

    function ownerOf(uint256 tokenId) public view returns (address owner) {
        owner = owners[tokenId];
        if (owner == address(0)) revert InvalidTokenId();
    }

    function approve(address to, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        if (msg.sender != owner) revert NotApproved();
        getApproved[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    function transferFrom(address from, address to, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        if (owner != from || (msg.sender != owner && msg.sender != getApproved[tokenId])) revert NotApproved();
        if (to == address(0)) revert InvalidRecipient();
        delete getApproved[tokenId];
        owners[tokenId] = to;
        balanceOf[from] -= 1;
        balanceOf[to] += 1;
        emit Transfer(from, to, tokenId);
    }

    /// Stands in for trading fees: pulls the amounts from the caller and owes them to the position.
    function addFees(uint256 tokenId, uint128 amount0, uint128 amount1) external {
        ownerOf(tokenId);
        Position storage p = positions[tokenId];
        if (amount0 != 0) TokenTransfers.pull(p.token0, msg.sender, address(this), amount0);
        if (amount1 != 0) TokenTransfers.pull(p.token1, msg.sender, address(this), amount1);
        p.tokensOwed0 += amount0;
        p.tokensOwed1 += amount1;
    }

    function collect(CollectParams calldata params) external payable returns (uint256 amount0, uint256 amount1) {
        address owner = ownerOf(params.tokenId);
        if (msg.sender != owner && msg.sender != getApproved[params.tokenId]) revert NotApproved();
        Position storage p = positions[params.tokenId];
        uint128 owed0 = p.tokensOwed0 < params.amount0Max ? p.tokensOwed0 : params.amount0Max;
        uint128 owed1 = p.tokensOwed1 < params.amount1Max ? p.tokensOwed1 : params.amount1Max;
        p.tokensOwed0 -= owed0;
        p.tokensOwed1 -= owed1;
        if (owed0 != 0) TokenTransfers.send(p.token0, params.recipient, owed0);
        if (owed1 != 0) TokenTransfers.send(p.token1, params.recipient, owed1);
        (amount0, amount1) = (owed0, owed1);
        emit Collect(params.tokenId, params.recipient, amount0, amount1);
    }
}
