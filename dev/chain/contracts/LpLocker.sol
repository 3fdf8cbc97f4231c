// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {LockerConfig, IFeeLocker, IERC20Like, TokenTransfers} from "./Types.sol";

/// Holds each token's liquidity share (placed in its pool) and its reward split. Rewards arriving for
/// a token are split by `rewardBps` and stored in the fee locker per recipient, which is where
/// creators' earnings come from. The factory has already checked the config's limits.
contract LpLocker {
    struct TokenRewardInfo {
        address token;
        address pool;
        bytes32 poolId;
        uint256 liquidity;
        address[] rewardAdmins;
        address[] rewardRecipients;
        uint16[] rewardBps;
        int24[] tickLower;
        int24[] tickUpper;
        uint16[] positionBps;
    }

    address public immutable factory;
    address public immutable feeLocker;
    mapping(address token => TokenRewardInfo) private _rewards;

    event TokenRewardAdded(
        address indexed token,
        address indexed pool,
        bytes32 poolId,
        uint256 liquidity,
        address[] rewardAdmins,
        address[] rewardRecipients,
        uint16[] rewardBps
    );
    event RewardsDistributed(address indexed token, address indexed rewardToken, uint256 amount);
    event RewardRecipientUpdated(address indexed token, uint256 index, address oldRecipient, address newRecipient);

    error OnlyFactory();
    error UnknownToken();
    error OnlyRewardAdmin();
    error ZeroRewardRecipient();

    constructor(address factory_, address feeLocker_) {
        factory = factory_;
        feeLocker = feeLocker_;
    }

    function placeLiquidity(LockerConfig calldata config, address token, address pool, bytes32 poolId, uint256 amount)
        external
    {
        if (msg.sender != factory) revert OnlyFactory();
        TokenRewardInfo storage info = _rewards[token];
        info.token = token;
        info.pool = pool;
        info.poolId = poolId;
        info.liquidity = amount;
        info.rewardAdmins = config.rewardAdmins;
        info.rewardRecipients = config.rewardRecipients;
        info.rewardBps = config.rewardBps;
        info.tickLower = config.tickLower;
        info.tickUpper = config.tickUpper;
        info.positionBps = config.positionBps;
        TokenTransfers.send(token, pool, amount);
        emit TokenRewardAdded(
            token, pool, poolId, amount, config.rewardAdmins, config.rewardRecipients, config.rewardBps
        );
    }

    function tokenRewards(address token) external view returns (TokenRewardInfo memory) {
        return _rewards[token];
    }

    /// Stands in for fees collected from the pool: pulls `amount` of `rewardToken` from the caller and
    /// stores each recipient's share in the fee locker (the last one takes the rounding remainder).
    function distributeRewards(address token, address rewardToken, uint256 amount) external {
        TokenRewardInfo storage info = _rewards[token];
        uint256 recipients = info.rewardRecipients.length;
        if (recipients == 0) revert UnknownToken();
        TokenTransfers.pull(rewardToken, msg.sender, address(this), amount);
        IERC20Like(rewardToken).approve(feeLocker, amount);
        uint256 left = amount;
        for (uint256 i = 0; i < recipients; i++) {
            uint256 share = i == recipients - 1 ? left : amount * info.rewardBps[i] / 10_000;
            left -= share;
            if (share != 0) IFeeLocker(feeLocker).storeFees(info.rewardRecipients[i], rewardToken, share);
        }
        emit RewardsDistributed(token, rewardToken, amount);
    }

    function updateRewardRecipient(address token, uint256 index, address newRecipient) external {
        TokenRewardInfo storage info = _rewards[token];
        if (index >= info.rewardAdmins.length || msg.sender != info.rewardAdmins[index]) revert OnlyRewardAdmin();
        if (newRecipient == address(0)) revert ZeroRewardRecipient();
        emit RewardRecipientUpdated(token, index, info.rewardRecipients[index], newRecipient);
        info.rewardRecipients[index] = newRecipient;
    }
}
