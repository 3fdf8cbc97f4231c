// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {DeploymentConfig, ITokenExtension, TokenTransfers, Vesting} from "./Types.sol";
import {MerkleProof} from "./MerkleProof.sol";

/// Base of the extensions: only the factory hands them supply, during `deployToken`.
abstract contract FactoryExtension is ITokenExtension {
    address public immutable factory;

    error OnlyFactory();
    error UnexpectedMsgValue();
    error LockupTooShort(uint256 lockupDuration, uint256 minimum);

    constructor(address factory_) {
        factory = factory_;
    }

    function _accept(uint256 lockupDuration, uint256 minLockup) internal view {
        if (msg.sender != factory) revert OnlyFactory();
        if (msg.value != 0) revert UnexpectedMsgValue();
        if (lockupDuration < minLockup) revert LockupTooShort(lockupDuration, minLockup);
    }
}

/// Creator vault. extensionData = abi.encode(address admin, uint256 lockupDuration, uint256
/// vestingDuration); the lockup is at least 7 days, then the admin's share vests linearly.
contract TokenVault is FactoryExtension {
    uint256 public constant MIN_LOCKUP = 7 days;

    struct Allocation {
        address admin;
        uint256 amountTotal;
        uint256 amountClaimed;
        uint256 lockupEndTime;
        uint256 vestingEndTime;
    }

    mapping(address token => Allocation) public allocation;

    event AllocationCreated(
        address indexed token, address indexed admin, uint256 amount, uint256 lockupEndTime, uint256 vestingEndTime
    );
    event Claimed(address indexed token, address indexed admin, uint256 amount);

    error Unauthorized();
    error NothingToClaim();

    constructor(address factory_) FactoryExtension(factory_) {}

    function receiveTokens(DeploymentConfig calldata config, address token, uint256 amount, uint256 extensionIndex)
        external
        payable
    {
        (address admin, uint256 lockup, uint256 vesting) =
            abi.decode(config.extensionConfigs[extensionIndex].extensionData, (address, uint256, uint256));
        _accept(lockup, MIN_LOCKUP);
        uint256 lockupEnd = block.timestamp + lockup;
        allocation[token] = Allocation(admin, amount, 0, lockupEnd, lockupEnd + vesting);
        emit AllocationCreated(token, admin, amount, lockupEnd, lockupEnd + vesting);
    }

    function amountAvailableToClaim(address token) public view returns (uint256) {
        Allocation storage a = allocation[token];
        return Vesting.vested(a.amountTotal, a.lockupEndTime, a.vestingEndTime) - a.amountClaimed;
    }

    function claim(address token) external {
        Allocation storage a = allocation[token];
        if (msg.sender != a.admin) revert Unauthorized();
        uint256 amount = amountAvailableToClaim(token);
        if (amount == 0) revert NothingToClaim();
        a.amountClaimed += amount;
        TokenTransfers.send(token, a.admin, amount);
        emit Claimed(token, a.admin, amount);
    }
}

/// Merkle airdrop. extensionData = abi.encode(address admin, bytes32 merkleRoot, uint256
/// lockupDuration, uint256 vestingDuration); lockup at least 1 day. Claims are tracked per account,
/// not per leaf, so an account listed in several leaves gets the largest amount, never the sum.
contract TokenAirdrop is FactoryExtension {
    uint256 public constant MIN_LOCKUP = 1 days;

    struct Airdrop {
        address admin;
        bytes32 merkleRoot;
        uint256 totalSupply;
        uint256 totalClaimed;
        uint256 lockupEndTime;
        uint256 vestingEndTime;
    }

    mapping(address token => Airdrop) public airdrops;
    mapping(address token => mapping(address account => uint256)) public claimed;

    event AirdropCreated(
        address indexed token, address indexed admin, bytes32 merkleRoot, uint256 supply, uint256 lockupEndTime, uint256 vestingEndTime
    );
    /// As the platform's airdrop emits it: the account's claimed total after this claim, and what of its
    /// allocation is still to claim.
    event AirdropClaimed(
        address indexed token, address indexed user, uint256 totalUserAmountClaimed, uint256 userAmountStillLocked
    );
    event AirdropMerkleRootUpdated(address indexed token, bytes32 oldMerkleRoot, bytes32 newMerkleRoot);

    error InvalidProof();
    error NothingToClaim();
    error Unauthorized();
    error UpdateMerkleRootNotAllowed();

    constructor(address factory_) FactoryExtension(factory_) {}

    function receiveTokens(DeploymentConfig calldata config, address token, uint256 amount, uint256 extensionIndex)
        external
        payable
    {
        (address admin, bytes32 root, uint256 lockup, uint256 vesting) =
            abi.decode(config.extensionConfigs[extensionIndex].extensionData, (address, bytes32, uint256, uint256));
        _accept(lockup, MIN_LOCKUP);
        uint256 lockupEnd = block.timestamp + lockup;
        airdrops[token] = Airdrop(admin, root, amount, 0, lockupEnd, lockupEnd + vesting);
        emit AirdropCreated(token, admin, root, amount, lockupEnd, lockupEnd + vesting);
    }

    /// The airdrop's admin may replace its tree until the first claim (as the platform's airdrop allows).
    function updateMerkleRoot(address token, bytes32 newMerkleRoot) external {
        Airdrop storage a = airdrops[token];
        if (msg.sender != a.admin) revert Unauthorized();
        if (a.totalClaimed != 0) revert UpdateMerkleRootNotAllowed();
        emit AirdropMerkleRootUpdated(token, a.merkleRoot, newMerkleRoot);
        a.merkleRoot = newMerkleRoot;
    }

    function amountAvailableToClaim(address token, address account, uint256 allocatedAmount)
        public
        view
        returns (uint256)
    {
        Airdrop storage a = airdrops[token];
        uint256 vested = Vesting.vested(allocatedAmount, a.lockupEndTime, a.vestingEndTime);
        uint256 already = claimed[token][account];
        return vested > already ? vested - already : 0;
    }

    function claim(address token, address account, uint256 allocatedAmount, bytes32[] calldata proof) external {
        Airdrop storage a = airdrops[token];
        if (!MerkleProof.verify(proof, a.merkleRoot, MerkleProof.leaf(account, allocatedAmount))) revert InvalidProof();
        uint256 amount = amountAvailableToClaim(token, account, allocatedAmount);
        if (amount == 0) revert NothingToClaim();
        claimed[token][account] += amount;
        a.totalClaimed += amount;
        TokenTransfers.send(token, account, amount);
        uint256 total = claimed[token][account];
        emit AirdropClaimed(token, account, total, allocatedAmount > total ? allocatedAmount - total : 0);
    }
}
