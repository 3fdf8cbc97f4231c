// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {LockerConfig, PoolConfig, IFeeLocker, IERC20Like, TokenTransfers} from "./Types.sol";
import {Pool} from "./Pool.sol";

/// The platform's fee-conversion LP locker (ClankerLpLockerFeeConversion) as the service and the platform's SDK
/// see it: the same `tokenRewards` answer (IClankerLpLocker.TokenRewardInfo), `feePreferences`, reward
/// updates and errors. lockerData = abi.encode(LpFeeConversionInfo(uint8[] feePreference)), one per reward
/// recipient: 0 both tokens, 1 the paired token, 2 the launched token. The factory has already checked the
/// config's limits; the locker checks the preferences.
///
/// Fees: `distributeRewards` stands in for collecting a pool's fees. It splits them by `rewardBps` into the fee
/// locker, converting (through the token's pool) the shares of the recipients who want the other token, as
/// the platform's locker does after a swap.
contract LpLockerFeeConversion {
    enum FeeIn {
        Both,
        Paired,
        Clanker
    }

    /// Uniswap v4's PoolKey: the local pool's tokens, the dynamic-fee flag, the tick spacing and the hook.
    struct PoolKey {
        address currency0;
        address currency1;
        uint24 fee;
        int24 tickSpacing;
        address hooks;
    }

    struct TokenRewardInfo {
        address token;
        PoolKey poolKey;
        uint256 positionId;
        uint256 numPositions;
        uint16[] rewardBps;
        address[] rewardAdmins;
        address[] rewardRecipients;
    }

    struct LpFeeConversionInfo {
        uint8[] feePreference;
    }

    uint256 public constant BASIS_POINTS = 10_000;
    uint24 private constant DYNAMIC_FEE_FLAG = 0x800000;
    /// The shortest LpFeeConversionInfo encoding: tuple offset, array offset, length.
    uint256 private constant MIN_LOCKER_DATA_LENGTH = 96;

    address public immutable factory;
    address public immutable feeLocker;

    /// Position ids stand in for the platform's LP position NFTs (one id per position, numbered on).
    uint256 private _nextPositionId;
    mapping(address token => TokenRewardInfo) internal _tokenRewards;
    mapping(address token => FeeIn[]) public feePreferences;
    /// Local: the V3-style pool holding the token's liquidity (fee conversion swaps there).
    mapping(address token => address pool) public poolOf;

    event TokenRewardAdded(
        address indexed token,
        PoolKey poolKey,
        uint256 poolSupply,
        uint256 positionId,
        uint256 numPositions,
        uint16[] rewardBps,
        address[] rewardAdmins,
        address[] rewardRecipients,
        int24[] tickLower,
        int24[] tickUpper,
        uint16[] positionBps
    );
    event InitialFeePreferences(address indexed token, FeeIn[] feePreference);
    event FeesSwapped(
        address indexed token, address indexed rewardToken, uint256 amountSwapped, address indexed swappedToken, uint256 amountOut
    );
    event RewardsDistributed(address indexed token, address indexed rewardToken, uint256 amount);
    event RewardRecipientUpdated(address indexed token, uint256 indexed rewardIndex, address oldRecipient, address newRecipient);
    event RewardAdminUpdated(address indexed token, uint256 indexed rewardIndex, address oldAdmin, address newAdmin);
    event FeePreferenceUpdated(
        address indexed token, uint256 indexed rewardIndex, FeeIn oldFeePreference, FeeIn indexed newFeePreference
    );

    error Unauthorized();
    error MismatchedRewardArrays();
    error TokenAlreadyHasRewards();
    error InvalidLockerData();
    error UnknownToken();

    constructor(address factory_, address feeLocker_) {
        factory = factory_;
        feeLocker = feeLocker_;
    }

    function placeLiquidity(
        LockerConfig calldata lockerConfig,
        PoolConfig calldata poolConfig,
        address token,
        address pool,
        uint256 amount
    ) external {
        if (msg.sender != factory) revert Unauthorized();
        FeeIn[] memory preferences = _decodePreferences(lockerConfig.lockerData);
        if (preferences.length != lockerConfig.rewardBps.length) revert MismatchedRewardArrays();
        if (_tokenRewards[token].positionId != 0) revert TokenAlreadyHasRewards();

        TokenRewardInfo storage info = _tokenRewards[token];
        (address currency0, address currency1) =
            token < poolConfig.pairedToken ? (token, poolConfig.pairedToken) : (poolConfig.pairedToken, token);
        info.token = token;
        info.poolKey = PoolKey(currency0, currency1, DYNAMIC_FEE_FLAG, poolConfig.tickSpacing, poolConfig.hook);
        info.positionId = _nextPositionId + 1;
        info.numPositions = lockerConfig.tickLower.length;
        _nextPositionId += lockerConfig.tickLower.length;
        info.rewardBps = lockerConfig.rewardBps;
        info.rewardAdmins = lockerConfig.rewardAdmins;
        info.rewardRecipients = lockerConfig.rewardRecipients;
        for (uint256 i = 0; i < preferences.length; i++) {
            feePreferences[token].push(preferences[i]);
        }
        poolOf[token] = pool;
        TokenTransfers.send(token, pool, amount);
        _emitTokenRewardAdded(lockerConfig, token, amount);
        emit InitialFeePreferences(token, preferences);
    }

    /// Copied to memory: six calldata arrays take two stack slots each, too many to log at once.
    function _emitTokenRewardAdded(LockerConfig memory c, address token, uint256 amount) private {
        TokenRewardInfo storage info = _tokenRewards[token];
        emit TokenRewardAdded(
            token,
            info.poolKey,
            amount,
            info.positionId,
            info.numPositions,
            c.rewardBps,
            c.rewardAdmins,
            c.rewardRecipients,
            c.tickLower,
            c.tickUpper,
            c.positionBps
        );
    }

    /// The platform's locker reverts without a reason on data it cannot decode (the empty lockerData of the
    /// previous generation, say); the local one names it.
    function _decodePreferences(bytes calldata lockerData) private pure returns (FeeIn[] memory preferences) {
        if (lockerData.length < MIN_LOCKER_DATA_LENGTH || uint256(bytes32(lockerData[:32])) != 32) {
            revert InvalidLockerData();
        }
        uint8[] memory raw = abi.decode(lockerData, (LpFeeConversionInfo)).feePreference;
        preferences = new FeeIn[](raw.length);
        for (uint256 i = 0; i < raw.length; i++) {
            if (raw[i] > uint8(FeeIn.Clanker)) revert InvalidLockerData();
            preferences[i] = FeeIn(raw[i]);
        }
    }

    function tokenRewards(address token) external view returns (TokenRewardInfo memory) {
        return _tokenRewards[token];
    }

    /// Pulls `amount` of `rewardToken` (the launched token or its paired token) from the caller as the token's
    /// collected fees. Recipients content with that token get their share of it; the shares of those who want
    /// only the other token are swapped in the token's pool and the proceeds split among them by their bps.
    /// The last recipient of each kind takes the rounding remainder.
    function distributeRewards(address token, address rewardToken, uint256 amount) external {
        TokenRewardInfo storage info = _tokenRewards[token];
        uint256 recipients = info.rewardRecipients.length;
        if (recipients == 0) revert UnknownToken();
        TokenTransfers.pull(rewardToken, msg.sender, address(this), amount);
        FeeIn wantsOther = rewardToken == token ? FeeIn.Paired : FeeIn.Clanker;
        FeeIn[] storage preferences = feePreferences[token];

        uint256 swapBps;
        uint256 lastKept = type(uint256).max;
        for (uint256 i = 0; i < recipients; i++) {
            if (preferences[i] == wantsOther) swapBps += info.rewardBps[i];
            else lastKept = i;
        }
        uint256 toSwap = amount;
        for (uint256 i = 0; i < recipients; i++) {
            if (preferences[i] == wantsOther) continue;
            uint256 share = swapBps == 0 && i == lastKept ? toSwap : amount * info.rewardBps[i] / BASIS_POINTS;
            toSwap -= share;
            _store(info.rewardRecipients[i], rewardToken, share);
        }
        if (swapBps != 0 && toSwap != 0) _swapAndStore(token, rewardToken, toSwap, swapBps, wantsOther);
        emit RewardsDistributed(token, rewardToken, amount);
    }

    function _swapAndStore(address token, address rewardToken, uint256 amountIn, uint256 swapBps, FeeIn wantsOther)
        private
    {
        TokenRewardInfo storage info = _tokenRewards[token];
        address pool = poolOf[token];
        IERC20Like(rewardToken).approve(pool, amountIn);
        uint256 amountOut = Pool(pool).swap(rewardToken, amountIn, address(this));
        PoolKey storage key = info.poolKey;
        address swappedToken = rewardToken == key.currency0 ? key.currency1 : key.currency0;
        uint256 left = amountOut;
        uint256 lastSwapped;
        for (uint256 i = 0; i < info.rewardRecipients.length; i++) {
            if (feePreferences[token][i] == wantsOther) lastSwapped = i;
        }
        for (uint256 i = 0; i < info.rewardRecipients.length; i++) {
            if (feePreferences[token][i] != wantsOther) continue;
            uint256 share = i == lastSwapped ? left : amountOut * info.rewardBps[i] / swapBps;
            left -= share;
            _store(info.rewardRecipients[i], swappedToken, share);
        }
        emit FeesSwapped(token, rewardToken, amountIn, swappedToken, amountOut);
    }

    function _store(address recipient, address rewardToken, uint256 amount) private {
        if (amount == 0) return;
        IERC20Like(rewardToken).approve(feeLocker, amount);
        IFeeLocker(feeLocker).storeFees(recipient, rewardToken, amount);
    }

    function updateRewardRecipient(address token, uint256 rewardIndex, address newRecipient) external {
        TokenRewardInfo storage info = _onlyRewardAdmin(token, rewardIndex);
        emit RewardRecipientUpdated(token, rewardIndex, info.rewardRecipients[rewardIndex], newRecipient);
        info.rewardRecipients[rewardIndex] = newRecipient;
    }

    function updateRewardAdmin(address token, uint256 rewardIndex, address newAdmin) external {
        TokenRewardInfo storage info = _onlyRewardAdmin(token, rewardIndex);
        emit RewardAdminUpdated(token, rewardIndex, info.rewardAdmins[rewardIndex], newAdmin);
        info.rewardAdmins[rewardIndex] = newAdmin;
    }

    function updateFeePreference(address token, uint256 rewardIndex, FeeIn newFeePreference) external {
        _onlyRewardAdmin(token, rewardIndex);
        emit FeePreferenceUpdated(token, rewardIndex, feePreferences[token][rewardIndex], newFeePreference);
        feePreferences[token][rewardIndex] = newFeePreference;
    }

    function _onlyRewardAdmin(address token, uint256 rewardIndex) private view returns (TokenRewardInfo storage info) {
        info = _tokenRewards[token];
        if (rewardIndex >= info.rewardAdmins.length || msg.sender != info.rewardAdmins[rewardIndex]) {
            revert Unauthorized();
        }
    }
}
