// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IMevModule} from "./Types.sol";

/// The platform's sniper auction V2 (ClankerSniperAuctionV2) as far as a deployment sees it: it reads the pool's
/// descending sniper fee, mevModuleData = abi.encode(FeeConfig(uint24 startingFee, uint24 endingFee, uint256
/// secondsToDecay)), and rejects what it would not run with, under the platform's error names. No auction runs
/// locally (the pools do not take swaps through a hook).
///
/// Rules (fees in millionths): decay 1..120 s, starting fee above zero and at most 800,000, ending fee below the
/// starting fee. The platform's module accepts an ending fee equal to the starting one and below 30,000; the
/// platform's SDK does not, and neither does this one (EndingFeeTooLow is local).
contract SniperAuctionV2 is IMevModule {
    struct FeeConfig {
        uint24 startingFee;
        uint24 endingFee;
        uint256 secondsToDecay;
    }

    uint24 public constant MAX_MEV_LP_FEE = 800_000;
    uint24 public constant MIN_ENDING_FEE = 30_000;
    uint256 public constant MAX_MEV_MODULE_DELAY = 2 minutes;

    address public immutable factory;
    mapping(bytes32 poolId => FeeConfig) public feeConfig;

    event FeeConfigSet(bytes32 indexed poolId, uint24 startingFee, uint24 endingFee, uint256 secondsToDecay);

    error OnlyFactory();
    error PoolAlreadyInitialized();
    error InvalidMevModuleData();
    error TimeDecayMustBeGreaterThanZero();
    error StartingFeeMustBeGreaterThanZero();
    error StartingFeeMustBeGreaterThanEndingFee();
    error StartingFeeGreaterThanMaxLpFee();
    error TimeDecayLongerThanMaxMevDelay();
    error EndingFeeTooLow();

    constructor(address factory_) {
        factory = factory_;
    }

    function initialize(bytes32 poolId, bytes calldata mevModuleData) external {
        if (msg.sender != factory) revert OnlyFactory();
        if (feeConfig[poolId].startingFee != 0) revert PoolAlreadyInitialized();
        // Three static words; the platform's module reverts without a reason on anything else (empty data, say).
        if (mevModuleData.length != 96) revert InvalidMevModuleData();
        FeeConfig memory c = abi.decode(mevModuleData, (FeeConfig));
        // The platform's order of checks.
        if (c.secondsToDecay == 0) revert TimeDecayMustBeGreaterThanZero();
        if (c.startingFee == 0) revert StartingFeeMustBeGreaterThanZero();
        if (c.startingFee <= c.endingFee) revert StartingFeeMustBeGreaterThanEndingFee();
        if (c.startingFee > MAX_MEV_LP_FEE) revert StartingFeeGreaterThanMaxLpFee();
        if (c.secondsToDecay > MAX_MEV_MODULE_DELAY) revert TimeDecayLongerThanMaxMevDelay();
        if (c.endingFee < MIN_ENDING_FEE) revert EndingFeeTooLow();
        feeConfig[poolId] = c;
        emit FeeConfigSet(poolId, c.startingFee, c.endingFee, c.secondsToDecay);
    }
}
