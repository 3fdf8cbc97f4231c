// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {DeploymentConfig, ITokenExtension, TokenTransfers, Vesting} from "./Types.sol";
import {MerkleProof} from "./MerkleProof.sol";

interface ITokenFactory {
    function deployToken(DeploymentConfig calldata config) external payable returns (address);
}

/// ETH presales that launch their token through the factory when they succeed. The presale is the
/// last extension of the stored deployment config, so its share of the supply comes to this contract
/// and is claimable pro rata by buyers after the lockup (then vesting linearly).
///
/// Events the service indexes (`status` is PresaleStatus as a uint8):
///   PresaleStarted(uint256 indexed presaleId, address indexed presaleOwner, DeploymentConfig deploymentConfig,
///                  uint256 minEthGoal, uint256 maxEthGoal, uint256 endTime, bytes32 allowlistRoot,
///                  uint256 lockupDuration, uint256 vestingDuration)
///   PresaleBuy(uint256 indexed presaleId, address indexed buyer, uint256 ethAmount, uint256 ethRaised)
///   WithdrawFromPresale(uint256 indexed presaleId, address indexed buyer, uint256 ethAmount, uint256 ethRaised)
///   PresaleStatusChanged(uint256 indexed presaleId, uint8 status, uint256 ethRaised)
///   PresaleDeployed(uint256 indexed presaleId, address indexed token, uint256 tokenSupply)
///   TokensClaimed(uint256 indexed presaleId, address indexed buyer, uint256 tokenAmount)
///   EthClaimed(uint256 indexed presaleId, address indexed recipient, uint256 ethAmount)
///   AllowlistRootUpdated(uint256 indexed presaleId, bytes32 allowlistRoot)
/// Status numbers follow the platform's presale contract: 0 NotCreated, 1 Active, 2 SuccessfulMinimumHit
/// (ended at or above the minimum goal), 3 SuccessfulMaximumHit (ended early at the maximum goal),
/// 4 Failed (below the minimum, or the token deployment failed: buyers withdraw), 5 Claimable (token
/// deployed; raised ETH paid to the owner; buyers claim tokens).
contract Presale is ITokenExtension {
    enum PresaleStatus {
        NotCreated,
        Active,
        SuccessfulMinimumHit,
        SuccessfulMaximumHit,
        Failed,
        Claimable
    }

    struct PresaleInfo {
        PresaleStatus status;
        address presaleOwner;
        bytes32 allowlistRoot;
        uint256 minEthGoal;
        uint256 maxEthGoal;
        uint256 endTime;
        uint256 ethRaised;
        address token;
        uint256 tokenSupply;
        uint256 lockupDuration;
        uint256 vestingDuration;
        uint256 lockupEndTime;
        uint256 vestingEndTime;
    }

    uint256 public constant MAX_PRESALE_DURATION = 6 weeks;

    address public immutable factory;
    uint256 public presaleCount;
    mapping(uint256 presaleId => PresaleInfo) private _presales;
    mapping(uint256 presaleId => bytes) private _deploymentConfigs;
    mapping(uint256 presaleId => mapping(address buyer => uint256)) public presaleBuys;
    mapping(uint256 presaleId => mapping(address buyer => uint256)) public presaleClaimed;
    /// The presale whose token the factory is deploying right now (0 outside `endPresale`).
    uint256 private _deploying;

    event PresaleStarted(
        uint256 indexed presaleId,
        address indexed presaleOwner,
        DeploymentConfig deploymentConfig,
        uint256 minEthGoal,
        uint256 maxEthGoal,
        uint256 endTime,
        bytes32 allowlistRoot,
        uint256 lockupDuration,
        uint256 vestingDuration
    );
    event PresaleBuy(uint256 indexed presaleId, address indexed buyer, uint256 ethAmount, uint256 ethRaised);
    event WithdrawFromPresale(uint256 indexed presaleId, address indexed buyer, uint256 ethAmount, uint256 ethRaised);
    event PresaleStatusChanged(uint256 indexed presaleId, uint8 status, uint256 ethRaised);
    event PresaleDeployed(uint256 indexed presaleId, address indexed token, uint256 tokenSupply);
    event TokensClaimed(uint256 indexed presaleId, address indexed buyer, uint256 tokenAmount);
    event EthClaimed(uint256 indexed presaleId, address indexed recipient, uint256 ethAmount);
    event AllowlistRootUpdated(uint256 indexed presaleId, bytes32 allowlistRoot);

    error PresaleNotLastExtension();
    error InvalidEthGoal();
    error InvalidPresaleDuration();
    error InvalidPresaleOwner();
    error PresaleNotActive();
    error PresaleNotEnded();
    error NotAllowlisted();
    error AllowlistAmountExceeded(uint256 allowedAmount);
    error WithdrawNotAllowed();
    error InsufficientBalance();
    error OnlyFactory();
    error NotExpectingDeployment();
    error PresaleNotClaimable();
    error NothingToClaim();
    error TokenDeploymentOutOfGas();
    error Unauthorized();

    constructor(address factory_) {
        factory = factory_;
    }

    function startPresale(
        DeploymentConfig calldata deploymentConfig,
        uint256 minEthGoal,
        uint256 maxEthGoal,
        uint256 presaleDuration,
        address presaleOwner,
        bytes32 allowlistRoot,
        uint256 lockupDuration,
        uint256 vestingDuration
    ) external returns (uint256 presaleId) {
        uint256 extensions = deploymentConfig.extensionConfigs.length;
        if (
            extensions == 0 || deploymentConfig.extensionConfigs[extensions - 1].extension != address(this)
                || deploymentConfig.extensionConfigs[extensions - 1].extensionBps == 0
        ) revert PresaleNotLastExtension();
        if (minEthGoal == 0 || minEthGoal > maxEthGoal) revert InvalidEthGoal();
        if (presaleDuration == 0 || presaleDuration > MAX_PRESALE_DURATION) revert InvalidPresaleDuration();
        if (presaleOwner == address(0)) revert InvalidPresaleOwner();

        presaleId = ++presaleCount;
        uint256 endTime = block.timestamp + presaleDuration;
        PresaleInfo storage p = _presales[presaleId];
        p.status = PresaleStatus.Active;
        p.presaleOwner = presaleOwner;
        p.allowlistRoot = allowlistRoot;
        p.minEthGoal = minEthGoal;
        p.maxEthGoal = maxEthGoal;
        p.endTime = endTime;
        p.lockupDuration = lockupDuration;
        p.vestingDuration = vestingDuration;
        _deploymentConfigs[presaleId] = abi.encode(deploymentConfig);
        emit PresaleStarted(
            presaleId, presaleOwner, deploymentConfig, minEthGoal, maxEthGoal, endTime, allowlistRoot, lockupDuration, vestingDuration
        );
        emit PresaleStatusChanged(presaleId, uint8(PresaleStatus.Active), 0);
    }

    /// The presale's owner may replace its allowlist while it runs (the platform takes the same call,
    /// setMerkleRoot, on its allowlist contract); buys from then on are checked against the new root.
    function setMerkleRoot(uint256 presaleId, bytes32 merkleRoot) external {
        PresaleInfo storage p = _presales[presaleId];
        if (msg.sender != p.presaleOwner) revert Unauthorized();
        if (p.status != PresaleStatus.Active) revert PresaleNotActive();
        p.allowlistRoot = merkleRoot;
        emit AllowlistRootUpdated(presaleId, merkleRoot);
    }

    /// With an allowlist, `allowedAmount` and `proof` are the buyer's standard-v1 leaf and proof; the
    /// buyer's total is capped at `allowedAmount`. Without one they are ignored. ETH beyond the maximum
    /// goal is refunded.
    function buyIntoPresale(uint256 presaleId, uint256 allowedAmount, bytes32[] calldata proof) external payable {
        PresaleInfo storage p = _presales[presaleId];
        if (p.status != PresaleStatus.Active || block.timestamp >= p.endTime) revert PresaleNotActive();
        uint256 ethToUse = msg.value;
        if (ethToUse > p.maxEthGoal - p.ethRaised) ethToUse = p.maxEthGoal - p.ethRaised;
        uint256 bought = presaleBuys[presaleId][msg.sender] + ethToUse;
        if (p.allowlistRoot != bytes32(0)) {
            if (!MerkleProof.verify(proof, p.allowlistRoot, MerkleProof.leaf(msg.sender, allowedAmount))) {
                revert NotAllowlisted();
            }
            if (bought > allowedAmount) revert AllowlistAmountExceeded(allowedAmount);
        }
        presaleBuys[presaleId][msg.sender] = bought;
        p.ethRaised += ethToUse;
        emit PresaleBuy(presaleId, msg.sender, ethToUse, p.ethRaised);
        if (p.ethRaised == p.maxEthGoal) {
            p.status = PresaleStatus.SuccessfulMaximumHit;
            emit PresaleStatusChanged(presaleId, uint8(PresaleStatus.SuccessfulMaximumHit), p.ethRaised);
        }
        if (msg.value > ethToUse) TokenTransfers.sendEth(msg.sender, msg.value - ethToUse);
    }

    /// Buyers may leave while the presale runs, and take everything back once it failed.
    function withdrawFromPresale(uint256 presaleId, uint256 amount) external {
        PresaleInfo storage p = _presales[presaleId];
        bool running = p.status == PresaleStatus.Active && block.timestamp < p.endTime;
        if (!running && p.status != PresaleStatus.Failed) revert WithdrawNotAllowed();
        uint256 bought = presaleBuys[presaleId][msg.sender];
        if (amount > bought) revert InsufficientBalance();
        presaleBuys[presaleId][msg.sender] = bought - amount;
        p.ethRaised -= amount;
        emit WithdrawFromPresale(presaleId, msg.sender, amount, p.ethRaised);
        TokenTransfers.sendEth(msg.sender, amount);
    }

    /// Anyone may end a presale once its time is up (or its maximum was hit): it fails below the
    /// minimum goal, otherwise the token is deployed and the presale becomes claimable.
    function endPresale(uint256 presaleId) external {
        PresaleInfo storage p = _presales[presaleId];
        if (p.status == PresaleStatus.Active) {
            if (block.timestamp < p.endTime) revert PresaleNotEnded();
            p.status = p.ethRaised >= p.minEthGoal ? PresaleStatus.SuccessfulMinimumHit : PresaleStatus.Failed;
            emit PresaleStatusChanged(presaleId, uint8(p.status), p.ethRaised);
        }
        if (p.status == PresaleStatus.SuccessfulMinimumHit || p.status == PresaleStatus.SuccessfulMaximumHit) {
            _deployToken(presaleId, p);
        } else if (p.status != PresaleStatus.Failed) {
            revert PresaleNotActive();
        }
    }

    function _deployToken(uint256 presaleId, PresaleInfo storage p) private {
        DeploymentConfig memory config = abi.decode(_deploymentConfigs[presaleId], (DeploymentConfig));
        _deploying = presaleId;
        // A config the factory rejects must not trap the buyers' ETH: the presale fails instead.
        try ITokenFactory(factory).deployToken(config) returns (address token) {
            _deploying = 0;
            p.token = token;
            p.status = PresaleStatus.Claimable;
            p.lockupEndTime = block.timestamp + p.lockupDuration;
            p.vestingEndTime = p.lockupEndTime + p.vestingDuration;
            emit PresaleDeployed(presaleId, token, p.tokenSupply);
            emit PresaleStatusChanged(presaleId, uint8(PresaleStatus.Claimable), p.ethRaised);
            emit EthClaimed(presaleId, p.presaleOwner, p.ethRaised);
            TokenTransfers.sendEth(p.presaleOwner, p.ethRaised);
        } catch (bytes memory reason) {
            // No revert data means the deployment ran out of gas (the factory always reverts with a
            // custom error): revert the whole call so gas estimation allows enough, instead of failing
            // the presale for a gas limit the caller chose.
            if (reason.length == 0) revert TokenDeploymentOutOfGas();
            _deploying = 0;
            p.status = PresaleStatus.Failed;
            emit PresaleStatusChanged(presaleId, uint8(PresaleStatus.Failed), p.ethRaised);
        }
    }

    function receiveTokens(DeploymentConfig calldata, address, uint256 amount, uint256) external payable {
        if (msg.sender != factory) revert OnlyFactory();
        if (_deploying == 0) revert NotExpectingDeployment();
        _presales[_deploying].tokenSupply = amount;
    }

    function amountAvailableToClaim(uint256 presaleId, address buyer) public view returns (uint256) {
        PresaleInfo storage p = _presales[presaleId];
        if (p.status != PresaleStatus.Claimable || p.ethRaised == 0) return 0;
        uint256 share = p.tokenSupply * presaleBuys[presaleId][buyer] / p.ethRaised;
        return Vesting.vested(share, p.lockupEndTime, p.vestingEndTime) - presaleClaimed[presaleId][buyer];
    }

    function claimTokens(uint256 presaleId) external {
        PresaleInfo storage p = _presales[presaleId];
        if (p.status != PresaleStatus.Claimable) revert PresaleNotClaimable();
        uint256 amount = amountAvailableToClaim(presaleId, msg.sender);
        if (amount == 0) revert NothingToClaim();
        presaleClaimed[presaleId][msg.sender] += amount;
        TokenTransfers.send(p.token, msg.sender, amount);
        emit TokensClaimed(presaleId, msg.sender, amount);
    }

    function getPresale(uint256 presaleId) external view returns (PresaleInfo memory) {
        return _presales[presaleId];
    }

    function getDeploymentConfig(uint256 presaleId) external view returns (DeploymentConfig memory) {
        return abi.decode(_deploymentConfigs[presaleId], (DeploymentConfig));
    }
}
