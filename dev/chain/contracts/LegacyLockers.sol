// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20Like, TokenTransfers} from "./Types.sol";

interface ILegacyPositionManager {
    struct CollectParams {
        uint256 tokenId;
        address recipient;
        uint128 amount0Max;
        uint128 amount1Max;
    }

    function collect(CollectParams calldata params) external payable returns (uint256 amount0, uint256 amount1);
    function positions(uint256 tokenId)
        external
        view
        returns (uint96, address, address token0, address token1, uint24, int24, int24, uint128, uint256, uint256, uint128, uint128);
}

/// Takes everything a position owes into the caller, and names the position's two tokens.
library LegacyCollect {
    function all(address positionManager, uint256 tokenId)
        internal
        returns (address token0, address token1, uint256 amount0, uint256 amount1)
    {
        ILegacyPositionManager pm = ILegacyPositionManager(positionManager);
        (amount0, amount1) = pm.collect(
            ILegacyPositionManager.CollectParams(tokenId, address(this), type(uint128).max, type(uint128).max)
        );
        (,, token0, token1,,,,,,,,) = pm.positions(tokenId);
    }
}

/// The v0 and v1 generations' per-token LP locker (the platform's `LpLocker` 0.0.1): the factory creates one
/// for each token, owned by the token's deployer, and it holds that token's LP position. The deployer (as
/// sender or transaction origin) claims with `collectFees(recipient, tokenId)`: the team keeps `_fee` percent,
/// the rest goes to `recipient`, and `ClaimedFees` reports the recipient's amounts then the totals (the last two
/// members are named the other way round on the platform's contract; their values are total0 then total1).
contract LegacyLockerV0 {
    string public constant version = "0.0.1";

    address public immutable owner;
    address public immutable positionManager;
    uint256 public immutable _fee;
    address public immutable _feeRecipient;
    /// The locked position, set once by the factory.
    uint256 public lockedTokenId;

    event LockId(uint256 _id);
    event ClaimedFees(
        address indexed claimer,
        address indexed token0,
        address indexed token1,
        uint256 amount0,
        uint256 amount1,
        uint256 totalAmount1,
        uint256 totalAmount0
    );

    error NotOwner(address owner);
    error AlreadyInitialized();

    constructor(address positionManager_, address owner_, uint256 fee_, address feeRecipient_) {
        positionManager = positionManager_;
        owner = owner_;
        _fee = fee_;
        _feeRecipient = feeRecipient_;
    }

    function initializer(uint256 tokenId) external {
        if (lockedTokenId != 0) revert AlreadyInitialized();
        lockedTokenId = tokenId;
        emit LockId(tokenId);
    }

    function collectFees(address _recipient, uint256 _tokenId) external {
        if (owner != msg.sender && owner != tx.origin) revert NotOwner(owner);
        (address token0, address token1, uint256 amount0, uint256 amount1) = LegacyCollect.all(positionManager, _tokenId);
        uint256 team0 = amount0 * _fee / 100;
        uint256 team1 = amount1 * _fee / 100;
        _pay(token0, _recipient, amount0 - team0);
        _pay(token1, _recipient, amount1 - team1);
        _pay(token0, _feeRecipient, team0);
        _pay(token1, _feeRecipient, team1);
        emit ClaimedFees(_recipient, token0, token1, amount0 - team0, amount1 - team1, amount0, amount1);
    }

    function _pay(address token, address to, uint256 amount) private {
        if (amount != 0) TokenTransfers.send(token, to, amount);
    }
}

/// The v2 and v3 generations' shared LP locker (the platform's `LpLockerv2` 0.0.2), one instance per factory.
/// Each position has one user reward recipient (the deployer at launch); `collectRewards(tokenId)` (also reached
/// through the factory's `claimRewards(token)`) pays the team `_clankerTeamReward` percent (or a per-position
/// override) and the recipient the rest, and emits `ClaimedRewards` with the recipient's amounts then the totals
/// (named the other way round, as on the platform's contract: the values are total0 then total1).
contract LegacyLockerV2 {
    struct UserRewardRecipient {
        address recipient;
        uint256 lpTokenId;
    }

    struct TeamRewardRecipient {
        address recipient;
        uint256 reward;
        uint256 lpTokenId;
    }

    string public constant version = "0.0.2";

    address public immutable _factory;
    address public immutable positionManager;
    address public immutable _clankerTeamRecipient;
    uint256 public immutable _clankerTeamReward;

    mapping(uint256 => UserRewardRecipient) public _userRewardRecipientForToken;
    mapping(uint256 => TeamRewardRecipient) public _teamOverrideRewardRecipientForToken;
    mapping(address => uint256[]) public _userTokenIds;

    event Received(address indexed from, uint256 tokenId);
    event ClaimedRewards(
        address indexed claimer,
        address indexed token0,
        address indexed token1,
        uint256 amount0,
        uint256 amount1,
        uint256 totalAmount1,
        uint256 totalAmount0
    );

    error NotAllowed(address user);
    error InvalidTokenId(uint256 tokenId);

    constructor(address factory_, address positionManager_, address teamRecipient_, uint256 teamReward_) {
        _factory = factory_;
        positionManager = positionManager_;
        _clankerTeamRecipient = teamRecipient_;
        _clankerTeamReward = teamReward_;
    }

    /// The platform's locker is owned by its team recipient.
    function owner() public view returns (address) {
        return _clankerTeamRecipient;
    }

    function addUserRewardRecipient(UserRewardRecipient calldata recipient) external {
        if (msg.sender != owner() && msg.sender != _factory) revert NotAllowed(msg.sender);
        _userRewardRecipientForToken[recipient.lpTokenId] = recipient;
        _userTokenIds[recipient.recipient].push(recipient.lpTokenId);
    }

    /// The owner or the current recipient names a new recipient for a position.
    function replaceUserRewardRecipient(UserRewardRecipient calldata recipient) external {
        address current = _userRewardRecipientForToken[recipient.lpTokenId].recipient;
        if (msg.sender != owner() && msg.sender != current) revert NotAllowed(msg.sender);
        uint256[] storage ids = _userTokenIds[current];
        for (uint256 i = 0; i < ids.length; i++) {
            if (ids[i] == recipient.lpTokenId) {
                ids[i] = ids[ids.length - 1];
                ids.pop();
                break;
            }
        }
        _userRewardRecipientForToken[recipient.lpTokenId] = recipient;
        _userTokenIds[recipient.recipient].push(recipient.lpTokenId);
    }

    function setOverrideTeamRewardsForToken(uint256 tokenId, address newTeamRecipient, uint256 newTeamReward) external {
        if (msg.sender != owner()) revert NotAllowed(msg.sender);
        _teamOverrideRewardRecipientForToken[tokenId] = TeamRewardRecipient(newTeamRecipient, newTeamReward, tokenId);
    }

    function getLpTokenIdsForUser(address user) external view returns (uint256[] memory) {
        return _userTokenIds[user];
    }

    function collectRewards(uint256 _tokenId) external {
        address recipient = _userRewardRecipientForToken[_tokenId].recipient;
        if (recipient == address(0)) revert InvalidTokenId(_tokenId);
        (address token0, address token1, uint256 amount0, uint256 amount1) = LegacyCollect.all(positionManager, _tokenId);
        address teamRecipient = _clankerTeamRecipient;
        uint256 teamReward = _clankerTeamReward;
        TeamRewardRecipient memory teamOverride = _teamOverrideRewardRecipientForToken[_tokenId];
        if (teamOverride.recipient != address(0)) (teamRecipient, teamReward) = (teamOverride.recipient, teamOverride.reward);
        uint256 team0 = amount0 * teamReward / 100;
        uint256 team1 = amount1 * teamReward / 100;
        _pay(token0, recipient, amount0 - team0);
        _pay(token1, recipient, amount1 - team1);
        _pay(token0, teamRecipient, team0);
        _pay(token1, teamRecipient, team1);
        emit ClaimedRewards(recipient, token0, token1, amount0 - team0, amount1 - team1, amount0, amount1);
    }

    function _pay(address token, address to, uint256 amount) private {
        if (amount != 0) TokenTransfers.send(token, to, amount);
    }
}

/// The v3.1 generation's LP locker (the platform's `LpLockerv2` of v3.1, the ABI its SDK publishes): each
/// position has a creator and an interface, each an (admin, recipient) pair; the team takes TEAM_REWARD (20)
/// percent, the creator `creatorReward` percent and the interface the rest (none when the creator has the
/// maximum, 80). An unset recipient falls back to the team's. `collectRewards(tokenId)` (also reached through
/// the factory's `claimRewards(token)`) pays them and emits `ClaimedRewards`.
contract LegacyLockerV3_1 {
    struct RewardRecipient {
        address admin;
        address recipient;
    }

    struct TokenRewardInfo {
        uint256 lpTokenId;
        uint256 creatorReward;
        RewardRecipient creator;
        RewardRecipient interfacer;
    }

    /// ClaimedRewards' data members in the event's order: logged from its encoding (see _emitClaimed).
    struct ClaimedData {
        address teamRecipient;
        address token0;
        address token1;
        uint256 creatorReward0;
        uint256 creatorReward1;
        uint256 interfaceReward0;
        uint256 interfaceReward1;
        uint256 teamReward0;
        uint256 teamReward1;
    }

    string public constant version = "0.0.2";
    uint256 public constant TEAM_REWARD = 20;
    uint256 public constant MAX_CREATOR_REWARD = 80;

    address public immutable owner;
    address public immutable factory;
    address public immutable positionManager;
    address public immutable teamRecipient;

    mapping(uint256 => TokenRewardInfo) public tokenRewards;
    mapping(uint256 => address) public teamOverrideRewardRecipientForToken;
    mapping(address => uint256[]) public creatorTokenIds;

    event ClaimedRewards(
        uint256 indexed lpTokenId,
        address indexed creatorRecipient,
        address indexed interfaceRecipient,
        address teamRecipient,
        address token0,
        address token1,
        uint256 creatorReward0,
        uint256 creatorReward1,
        uint256 interfaceReward0,
        uint256 interfaceReward1,
        uint256 teamReward0,
        uint256 teamReward1
    );
    event TokenRewardAdded(uint256 lpTokenId, uint256 creatorReward, address indexed creator, address indexed interfacer);
    event CreatorRewardRecipientUpdated(uint256 indexed lpTokenId, address indexed oldRecipient, address newRecipient);
    event CreatorRewardRecipientAdminUpdated(uint256 indexed lpTokenId, address indexed oldAdmin, address newAdmin);
    event InterfaceRewardRecipientUpdated(uint256 indexed lpTokenId, address indexed oldRecipient, address newRecipient);
    event InterfaceRewardRecipientAdminUpdated(uint256 indexed lpTokenId, address indexed oldAdmin, address newAdmin);
    event TeamOverrideRewardRecipientUpdated(uint256 indexed lpTokenId, address indexed oldRecipient, address newRecipient);

    error NotAllowed(address user);
    error AlreadyKnownTokenId(uint256 tokenId);
    error InvalidCreatorReward(uint256 creatorReward);

    constructor(address owner_, address factory_, address positionManager_, address teamRecipient_) {
        owner = owner_;
        factory = factory_;
        positionManager = positionManager_;
        teamRecipient = teamRecipient_;
    }

    function addTokenReward(TokenRewardInfo calldata tokenRewardInfo) external {
        TokenRewardInfo calldata info = tokenRewardInfo;
        if (msg.sender != factory) revert NotAllowed(msg.sender);
        if (tokenRewards[info.lpTokenId].lpTokenId != 0) revert AlreadyKnownTokenId(info.lpTokenId);
        if (info.creatorReward == 0 || info.creatorReward > MAX_CREATOR_REWARD) {
            revert InvalidCreatorReward(info.creatorReward);
        }
        tokenRewards[info.lpTokenId] = info;
        creatorTokenIds[info.creator.admin].push(info.lpTokenId);
        emit TokenRewardAdded(info.lpTokenId, info.creatorReward, info.creator.admin, info.interfacer.admin);
    }

    function getLpTokenIdsForCreator(address user) external view returns (uint256[] memory) {
        return creatorTokenIds[user];
    }

    function setOverrideTeamRewardRecipientForToken(uint256 tokenId, address newTeamRecipient) external {
        if (msg.sender != owner && msg.sender != factory) revert NotAllowed(msg.sender);
        emit TeamOverrideRewardRecipientUpdated(tokenId, teamOverrideRewardRecipientForToken[tokenId], newTeamRecipient);
        teamOverrideRewardRecipientForToken[tokenId] = newTeamRecipient;
    }

    function updateCreatorRewardRecipient(uint256 tokenId, address newRecipient) external {
        RewardRecipient storage r = tokenRewards[tokenId].creator;
        if (msg.sender != r.admin) revert NotAllowed(msg.sender);
        emit CreatorRewardRecipientUpdated(tokenId, r.recipient, newRecipient);
        r.recipient = newRecipient;
    }

    function updateInterfaceRewardRecipient(uint256 tokenId, address newRecipient) external {
        RewardRecipient storage r = tokenRewards[tokenId].interfacer;
        if (msg.sender != r.admin) revert NotAllowed(msg.sender);
        emit InterfaceRewardRecipientUpdated(tokenId, r.recipient, newRecipient);
        r.recipient = newRecipient;
    }

    function updateInterfaceRewardAdmin(uint256 tokenId, address newAdmin) external {
        RewardRecipient storage r = tokenRewards[tokenId].interfacer;
        if (msg.sender != r.admin) revert NotAllowed(msg.sender);
        emit InterfaceRewardRecipientAdminUpdated(tokenId, r.admin, newAdmin);
        r.admin = newAdmin;
    }

    function updateCreatorRewardAdmin(uint256 tokenId, address newAdmin) external {
        RewardRecipient storage r = tokenRewards[tokenId].creator;
        address oldAdmin = r.admin;
        if (msg.sender != oldAdmin) revert NotAllowed(msg.sender);
        uint256[] storage ids = creatorTokenIds[oldAdmin];
        for (uint256 i = 0; i < ids.length; i++) {
            if (ids[i] == tokenId) {
                ids[i] = ids[ids.length - 1];
                ids.pop();
                break;
            }
        }
        creatorTokenIds[newAdmin].push(tokenId);
        r.admin = newAdmin;
        emit CreatorRewardRecipientAdminUpdated(tokenId, oldAdmin, newAdmin);
    }

    function collectRewards(uint256 tokenId) external {
        ClaimedData memory d;
        d.teamRecipient = teamOverrideRewardRecipientForToken[tokenId];
        if (d.teamRecipient == address(0)) d.teamRecipient = teamRecipient;
        TokenRewardInfo memory info = tokenRewards[tokenId];
        address creatorRecipient = info.creator.recipient == address(0) ? d.teamRecipient : info.creator.recipient;
        address interfaceRecipient = info.interfacer.recipient == address(0) ? d.teamRecipient : info.interfacer.recipient;

        uint256 amount0;
        uint256 amount1;
        (d.token0, d.token1, amount0, amount1) = LegacyCollect.all(positionManager, tokenId);
        d.teamReward0 = amount0 * TEAM_REWARD / 100;
        d.teamReward1 = amount1 * TEAM_REWARD / 100;
        if (info.creatorReward == MAX_CREATOR_REWARD) {
            d.creatorReward0 = amount0 - d.teamReward0;
            d.creatorReward1 = amount1 - d.teamReward1;
        } else {
            d.creatorReward0 = amount0 * info.creatorReward / 100;
            d.creatorReward1 = amount1 * info.creatorReward / 100;
            d.interfaceReward0 = amount0 - d.teamReward0 - d.creatorReward0;
            d.interfaceReward1 = amount1 - d.teamReward1 - d.creatorReward1;
        }
        _pay(d.token0, d.teamRecipient, d.teamReward0);
        _pay(d.token1, d.teamRecipient, d.teamReward1);
        _pay(d.token0, interfaceRecipient, d.interfaceReward0);
        _pay(d.token1, interfaceRecipient, d.interfaceReward1);
        _pay(d.token0, creatorRecipient, d.creatorReward0);
        _pay(d.token1, creatorRecipient, d.creatorReward1);
        _emitClaimed(tokenId, creatorRecipient, interfaceRecipient, d);
    }

    /// ClaimedRewards has more members than the legacy code generator holds on the stack: its data is the
    /// static struct's encoding, logged directly.
    function _emitClaimed(uint256 tokenId, address creatorRecipient, address interfaceRecipient, ClaimedData memory d)
        private
    {
        bytes memory data = abi.encode(d);
        bytes32 topic0 = ClaimedRewards.selector;
        bytes32 creatorTopic = bytes32(uint256(uint160(creatorRecipient)));
        bytes32 interfaceTopic = bytes32(uint256(uint160(interfaceRecipient)));
        assembly ("memory-safe") {
            log4(add(data, 0x20), mload(data), topic0, tokenId, creatorTopic, interfaceTopic)
        }
    }

    function _pay(address token, address to, uint256 amount) private {
        if (amount != 0) TokenTransfers.send(token, to, amount);
    }
}
