// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

// The version-4 deployment config. Field names, order and types are the ABI that existing clients
// encode (COMPAT, the compatibility notes), so they stay exactly as the platform's factory has them.
struct TokenConfig {
    address tokenAdmin;
    string name;
    string symbol;
    bytes32 salt;
    string image;
    string metadata;
    string context;
    uint256 originatingChainId;
}

struct PoolConfig {
    address hook;
    address pairedToken;
    int24 tickIfToken0IsClanker;
    int24 tickSpacing;
    bytes poolData;
}

struct LockerConfig {
    address locker;
    address[] rewardAdmins;
    address[] rewardRecipients;
    uint16[] rewardBps;
    int24[] tickLower;
    int24[] tickUpper;
    uint16[] positionBps;
    bytes lockerData;
}

struct MevModuleConfig {
    address mevModule;
    bytes mevModuleData;
}

struct ExtensionConfig {
    address extension;
    uint256 msgValue;
    uint16 extensionBps;
    bytes extensionData;
}

struct DeploymentConfig {
    TokenConfig tokenConfig;
    PoolConfig poolConfig;
    LockerConfig lockerConfig;
    MevModuleConfig mevModuleConfig;
    ExtensionConfig[] extensionConfigs;
}

interface IERC20Like {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function approve(address spender, uint256 amount) external returns (bool);
    function balanceOf(address account) external view returns (uint256);
}

/// An extension receives its share of the supply (already transferred) plus any ETH the deployer
/// attached for it, and rejects data it cannot honour by reverting, which reverts the deployment.
interface ITokenExtension {
    function receiveTokens(DeploymentConfig calldata config, address token, uint256 amount, uint256 extensionIndex)
        external
        payable;
}

/// A pool hook validates its `poolData` and answers the LP fee (millionths) the pool reports.
interface IPoolHook {
    function validatePoolData(bytes calldata poolData) external view returns (uint24 lpFee);
}

/// The LP locker holds the liquidity share and the reward split of each token, and reads its `lockerData`.
interface ILpLocker {
    function placeLiquidity(
        LockerConfig calldata lockerConfig,
        PoolConfig calldata poolConfig,
        address token,
        address pool,
        uint256 amount
    ) external;
}

/// A MEV module reads its `mevModuleData` once its pool exists, and rejects data it cannot honour by reverting.
interface IMevModule {
    function initialize(bytes32 poolId, bytes calldata mevModuleData) external;
}

interface IFeeLocker {
    function storeFees(address feeOwner, address token, uint256 amount) external;
}

/// Transfers that also accept tokens returning nothing (older ERC-20s), so the lockers work with any.
library TokenTransfers {
    error TransferFailed();

    function send(address token, address to, uint256 amount) internal {
        (bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20Like.transfer, (to, amount)));
        if (!ok || (data.length != 0 && !abi.decode(data, (bool)))) revert TransferFailed();
    }

    function pull(address token, address from, address to, uint256 amount) internal {
        (bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20Like.transferFrom, (from, to, amount)));
        if (!ok || (data.length != 0 && !abi.decode(data, (bool)))) revert TransferFailed();
    }

    function sendEth(address to, uint256 amount) internal {
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }
}

/// Linear vesting after a lockup, shared by the vault, the airdrop and the presale.
library Vesting {
    function vested(uint256 total, uint256 lockupEndTime, uint256 vestingEndTime) internal view returns (uint256) {
        if (block.timestamp < lockupEndTime) return 0;
        if (block.timestamp >= vestingEndTime) return total;
        return total * (block.timestamp - lockupEndTime) / (vestingEndTime - lockupEndTime);
    }
}
