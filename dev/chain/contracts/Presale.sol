// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {DeploymentConfig, ITokenExtension, TokenTransfers, Vesting} from "./Types.sol";
import {MerkleProof} from "./MerkleProof.sol";

interface ITokenFactory {
    function deployToken(DeploymentConfig calldata config) external payable returns (address);
}

/// The platform's presale extension (ClankerPresaleEthToCreator v4.1): ETH presales that launch their
/// token through the factory when they succeed; the raised ETH goes to the presale's owner (claimEth). The
/// presale is the last extension of the stored deployment config, so its share of the supply comes to this
/// contract and is claimable pro rata by buyers after the lockup (then vesting linearly).
///
/// Its events, functions and getPresale struct are the platform's (names, types, indexed flags, order), so
/// the service decodes both with one ABI (lib/platform/chain/abi-presale.ts):
///   PresaleStarted(uint256 presaleId, address allowlist, DeploymentConfig deploymentConfig, uint256 minEthGoal,
///                  uint256 maxEthGoal, uint256 presaleDuration, address presaleOwner, uint256 lockupDuration,
///                  uint256 vestingDuration, uint256 clankerFeeBps)
///   PresaleBuy(uint256 indexed presaleId, address buyer, uint256 ethToUse, uint256 ethRaised)
///   WithdrawFromPresale(uint256 indexed presaleId, address withdrawer, uint256 amount, uint256 ethRaised)
///   PresaleFailed(uint256 indexed presaleId)
///   PresaleDeployed(uint256 indexed presaleId, address token)
///   ClaimTokens(uint256 indexed presaleId, address claimer, uint256 tokenAmount)
///   ClaimEth(uint256 indexed presaleId, address recipient, uint256 ethAmount, uint256 fee)
/// Status numbers (PresaleStatus): 0 NotCreated, 1 Active, 2 SuccessfulMinimumHit (ended at or above the
/// minimum goal), 3 SuccessfulMaximumHit (the maximum goal was hit), 4 Failed (below the minimum, or the
/// token deployment failed: buyers withdraw), 5 Claimable (token deployed; buyers claim tokens).
///
/// Local differences: no admins, fees (clankerFeeBps is always 0) or owner-only first day to end; the
/// platform's separate allowlist contract (ClankerPresaleAllowlist) is built in: a presale started with
/// `allowlist` = this contract keeps its Merkle root here (`allowlists`, `setMerkleRoot`, and the allowlist's
/// Initialize and SetMerkleRoot events). A proof is abi.encode(uint256 allowedAmount, bytes32[] proof) over a
/// standard-v1 (address, uint256) leaf; a buyer's total is capped at allowedAmount.
contract Presale is ITokenExtension {
    enum PresaleStatus {
        NotCreated,
        Active,
        SuccessfulMinimumHit,
        SuccessfulMaximumHit,
        Failed,
        Claimable
    }

    /// The platform's IClankerPresaleEthToCreator.Presale, as getPresale returns it.
    struct Presale {
        PresaleStatus status;
        DeploymentConfig deploymentConfig;
        address allowlist;
        address presaleOwner;
        uint256 minEthGoal;
        uint256 maxEthGoal;
        uint256 endTime;
        address deployedToken;
        uint256 ethRaised;
        uint256 tokenSupply;
        bool deploymentExpected;
        bool ethClaimed;
        uint256 lockupDuration;
        uint256 vestingDuration;
        uint256 lockupEndTime;
        uint256 vestingEndTime;
        uint256 clankerFee;
    }

    /// Presale without its deployment config (kept ABI-encoded: structs with arrays do not copy to storage).
    struct PresaleRecord {
        PresaleStatus status;
        address allowlist;
        address presaleOwner;
        uint256 minEthGoal;
        uint256 maxEthGoal;
        uint256 endTime;
        address deployedToken;
        uint256 ethRaised;
        uint256 tokenSupply;
        bool deploymentExpected;
        bool ethClaimed;
        uint256 lockupDuration;
        uint256 vestingDuration;
        uint256 lockupEndTime;
        uint256 vestingEndTime;
    }

    /// The platform allowlist's per-presale record.
    struct Allowlist {
        address presaleOwner;
        bytes32 merkleRoot;
        bool enabled;
    }

    uint256 public constant MAX_PRESALE_DURATION = 6 weeks;

    address public immutable factory;
    uint256 public presaleCount;
    mapping(uint256 presaleId => PresaleRecord) private _presales;
    mapping(uint256 presaleId => bytes) private _deploymentConfigs;
    mapping(uint256 presaleId => mapping(address user => uint256 amount)) public presaleBuys;
    mapping(uint256 presaleId => mapping(address user => uint256 amount)) public presaleClaimed;
    mapping(uint256 presaleId => Allowlist) public allowlists;
    /// The presale whose token the factory is deploying right now (0 outside `endPresale`).
    uint256 private _deploying;

    event PresaleStarted(
        uint256 presaleId,
        address allowlist,
        DeploymentConfig deploymentConfig,
        uint256 minEthGoal,
        uint256 maxEthGoal,
        uint256 presaleDuration,
        address presaleOwner,
        uint256 lockupDuration,
        uint256 vestingDuration,
        uint256 clankerFeeBps
    );
    event PresaleBuy(uint256 indexed presaleId, address buyer, uint256 ethToUse, uint256 ethRaised);
    event WithdrawFromPresale(uint256 indexed presaleId, address withdrawer, uint256 amount, uint256 ethRaised);
    event PresaleFailed(uint256 indexed presaleId);
    event PresaleDeployed(uint256 indexed presaleId, address token);
    event ClaimTokens(uint256 indexed presaleId, address claimer, uint256 tokenAmount);
    event ClaimEth(uint256 indexed presaleId, address recipient, uint256 ethAmount, uint256 fee);
    // The platform allowlist's events (emitted there by ClankerPresaleAllowlist).
    event Initialize(uint256 indexed presaleId, address indexed presaleOwner, bytes32 merkleRoot);
    event SetMerkleRoot(uint256 indexed presaleId, bytes32 merkleRoot);

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

    /// `allowlist`: zero (anyone may buy) or this contract; `allowlistInitializationData`: empty or
    /// abi.encode(bytes32 merkleRoot).
    function startPresale(
        DeploymentConfig calldata deploymentConfig,
        uint256 minEthGoal,
        uint256 maxEthGoal,
        uint256 presaleDuration,
        address presaleOwner,
        uint256 lockupDuration,
        uint256 vestingDuration,
        address allowlist,
        bytes calldata allowlistInitializationData
    ) external returns (uint256 presaleId) {
        uint256 extensions = deploymentConfig.extensionConfigs.length;
        if (
            extensions == 0 || deploymentConfig.extensionConfigs[extensions - 1].extension != address(this)
                || deploymentConfig.extensionConfigs[extensions - 1].extensionBps == 0
        ) revert PresaleNotLastExtension();
        if (minEthGoal == 0 || minEthGoal > maxEthGoal) revert InvalidEthGoal();
        if (presaleDuration == 0 || presaleDuration > MAX_PRESALE_DURATION) revert InvalidPresaleDuration();
        if (presaleOwner == address(0)) revert InvalidPresaleOwner();
        if (allowlist != address(0) && allowlist != address(this)) revert NotAllowlisted();

        presaleId = ++presaleCount;
        PresaleRecord storage p = _presales[presaleId];
        p.status = PresaleStatus.Active;
        p.allowlist = allowlist;
        p.presaleOwner = presaleOwner;
        p.minEthGoal = minEthGoal;
        p.maxEthGoal = maxEthGoal;
        p.endTime = block.timestamp + presaleDuration;
        p.lockupDuration = lockupDuration;
        p.vestingDuration = vestingDuration;
        _deploymentConfigs[presaleId] = abi.encode(deploymentConfig);
        if (allowlist != address(0)) _initializeAllowlist(presaleId, presaleOwner, allowlistInitializationData);
        emit PresaleStarted(
            presaleId,
            allowlist,
            deploymentConfig,
            minEthGoal,
            maxEthGoal,
            presaleDuration,
            presaleOwner,
            p.lockupDuration,
            p.vestingDuration,
            0
        );
    }

    function _initializeAllowlist(uint256 presaleId, address presaleOwner, bytes calldata data) private {
        bytes32 root = data.length == 0 ? bytes32(0) : abi.decode(data, (bytes32));
        allowlists[presaleId] = Allowlist({presaleOwner: presaleOwner, merkleRoot: root, enabled: true});
        emit Initialize(presaleId, presaleOwner, root);
    }

    /// The presale's owner may replace its allowlist's root at any point (the platform's allowlist call);
    /// buys from then on are checked against the new root.
    function setMerkleRoot(uint256 presaleId, bytes32 merkleRoot) external {
        Allowlist storage a = allowlists[presaleId];
        if (msg.sender != a.presaleOwner) revert Unauthorized();
        a.merkleRoot = merkleRoot;
        emit SetMerkleRoot(presaleId, merkleRoot);
    }

    /// ETH beyond the maximum goal is refunded.
    function buyIntoPresale(uint256 presaleId) external payable {
        _buy(presaleId, msg.data[0:0]);
    }

    function buyIntoPresaleWithProof(uint256 presaleId, bytes calldata proof) external payable {
        _buy(presaleId, proof);
    }

    function _buy(uint256 presaleId, bytes calldata proof) private {
        PresaleRecord storage p = _presales[presaleId];
        if (p.status != PresaleStatus.Active || block.timestamp >= p.endTime) revert PresaleNotActive();
        uint256 ethToUse = msg.value;
        if (ethToUse > p.maxEthGoal - p.ethRaised) ethToUse = p.maxEthGoal - p.ethRaised;
        uint256 bought = presaleBuys[presaleId][msg.sender] + ethToUse;
        if (p.allowlist != address(0) && allowlists[presaleId].enabled) {
            uint256 allowedAmount = _allowedAmount(presaleId, msg.sender, proof);
            if (bought > allowedAmount) revert AllowlistAmountExceeded(allowedAmount);
        }
        presaleBuys[presaleId][msg.sender] = bought;
        p.ethRaised += ethToUse;
        if (p.ethRaised == p.maxEthGoal) p.status = PresaleStatus.SuccessfulMaximumHit;
        emit PresaleBuy(presaleId, msg.sender, ethToUse, p.ethRaised);
        if (msg.value > ethToUse) TokenTransfers.sendEth(msg.sender, msg.value - ethToUse);
    }

    function _allowedAmount(uint256 presaleId, address buyer, bytes calldata proof) private view returns (uint256) {
        if (proof.length < 64) revert NotAllowlisted();
        uint256 allowedAmount = abi.decode(proof[:32], (uint256));
        bytes32[] calldata nodes;
        assembly {
            let at := add(proof.offset, calldataload(add(proof.offset, 32)))
            nodes.length := calldataload(at)
            nodes.offset := add(at, 32)
        }
        if (!MerkleProof.verify(nodes, allowlists[presaleId].merkleRoot, MerkleProof.leaf(buyer, allowedAmount))) {
            revert NotAllowlisted();
        }
        return allowedAmount;
    }

    /// Buyers may leave while the presale runs below its maximum, and take everything back once it failed.
    function withdrawFromPresale(uint256 presaleId, uint256 amount, address recipient) external {
        PresaleRecord storage p = _presales[presaleId];
        bool running = p.status == PresaleStatus.Active && block.timestamp < p.endTime;
        if (!running && p.status != PresaleStatus.Failed) revert WithdrawNotAllowed();
        uint256 bought = presaleBuys[presaleId][msg.sender];
        if (amount > bought) revert InsufficientBalance();
        presaleBuys[presaleId][msg.sender] = bought - amount;
        p.ethRaised -= amount;
        emit WithdrawFromPresale(presaleId, msg.sender, amount, p.ethRaised);
        TokenTransfers.sendEth(recipient, amount);
    }

    /// Ends the presale with the token's `salt`: anyone once its time is up or its maximum was hit, its
    /// owner early once the minimum was hit. Below the minimum at the end it fails (PresaleFailed);
    /// otherwise the token is deployed and the presale becomes claimable.
    function endPresale(uint256 presaleId, bytes32 salt) external returns (address token) {
        PresaleRecord storage p = _presales[presaleId];
        if (p.status == PresaleStatus.Active) {
            bool minimumHit = p.ethRaised >= p.minEthGoal;
            if (block.timestamp < p.endTime && !(minimumHit && msg.sender == p.presaleOwner)) revert PresaleNotEnded();
            if (!minimumHit) {
                p.status = PresaleStatus.Failed;
                emit PresaleFailed(presaleId);
                return address(0);
            }
            p.status = PresaleStatus.SuccessfulMinimumHit;
        }
        if (p.status != PresaleStatus.SuccessfulMinimumHit && p.status != PresaleStatus.SuccessfulMaximumHit) {
            revert PresaleNotActive();
        }
        return _deployToken(presaleId, p, salt);
    }

    function _deployToken(uint256 presaleId, PresaleRecord storage p, bytes32 salt) private returns (address) {
        DeploymentConfig memory config = abi.decode(_deploymentConfigs[presaleId], (DeploymentConfig));
        config.tokenConfig.salt = salt;
        _deploymentConfigs[presaleId] = abi.encode(config);
        _deploying = presaleId;
        p.deploymentExpected = true;
        // A config the factory rejects must not trap the buyers' ETH: the presale fails instead.
        try ITokenFactory(factory).deployToken(config) returns (address token) {
            _deploying = 0;
            p.deploymentExpected = false;
            p.deployedToken = token;
            p.status = PresaleStatus.Claimable;
            p.lockupEndTime = block.timestamp + p.lockupDuration;
            p.vestingEndTime = p.lockupEndTime + p.vestingDuration;
            emit PresaleDeployed(presaleId, token);
            return token;
        } catch (bytes memory reason) {
            // No revert data means the deployment ran out of gas (the factory always reverts with a
            // custom error): revert the whole call so gas estimation allows enough, instead of failing
            // the presale for a gas limit the caller chose.
            if (reason.length == 0) revert TokenDeploymentOutOfGas();
            _deploying = 0;
            p.deploymentExpected = false;
            p.status = PresaleStatus.Failed;
            emit PresaleFailed(presaleId);
            return address(0);
        }
    }

    function receiveTokens(DeploymentConfig calldata, address, uint256 amount, uint256) external payable {
        if (msg.sender != factory) revert OnlyFactory();
        if (_deploying == 0) revert NotExpectingDeployment();
        _presales[_deploying].tokenSupply = amount;
    }

    /// The presale's owner takes the raised ETH once the token is deployed.
    function claimEth(uint256 presaleId, address recipient) external {
        PresaleRecord storage p = _presales[presaleId];
        if (msg.sender != p.presaleOwner) revert Unauthorized();
        if (p.status != PresaleStatus.Claimable) revert PresaleNotClaimable();
        if (p.ethClaimed) revert NothingToClaim();
        p.ethClaimed = true;
        emit ClaimEth(presaleId, recipient, p.ethRaised, 0);
        TokenTransfers.sendEth(recipient, p.ethRaised);
    }

    function amountAvailableToClaim(uint256 presaleId, address user) public view returns (uint256) {
        PresaleRecord storage p = _presales[presaleId];
        if (p.status != PresaleStatus.Claimable || p.ethRaised == 0) return 0;
        uint256 share = p.tokenSupply * presaleBuys[presaleId][user] / p.ethRaised;
        return Vesting.vested(share, p.lockupEndTime, p.vestingEndTime) - presaleClaimed[presaleId][user];
    }

    function claimTokens(uint256 presaleId) external {
        PresaleRecord storage p = _presales[presaleId];
        if (p.status != PresaleStatus.Claimable) revert PresaleNotClaimable();
        uint256 amount = amountAvailableToClaim(presaleId, msg.sender);
        if (amount == 0) revert NothingToClaim();
        presaleClaimed[presaleId][msg.sender] += amount;
        TokenTransfers.send(p.deployedToken, msg.sender, amount);
        emit ClaimTokens(presaleId, msg.sender, amount);
    }

    function getPresale(uint256 presaleId_) external view returns (Presale memory) {
        Presale memory presale;
        PresaleRecord storage p = _presales[presaleId_];
        presale.status = p.status;
        if (p.status != PresaleStatus.NotCreated) {
            presale.deploymentConfig = abi.decode(_deploymentConfigs[presaleId_], (DeploymentConfig));
        }
        presale.allowlist = p.allowlist;
        presale.presaleOwner = p.presaleOwner;
        presale.minEthGoal = p.minEthGoal;
        presale.maxEthGoal = p.maxEthGoal;
        presale.endTime = p.endTime;
        presale.deployedToken = p.deployedToken;
        presale.ethRaised = p.ethRaised;
        presale.tokenSupply = p.tokenSupply;
        presale.deploymentExpected = p.deploymentExpected;
        presale.ethClaimed = p.ethClaimed;
        presale.lockupDuration = p.lockupDuration;
        presale.vestingDuration = p.vestingDuration;
        presale.lockupEndTime = p.lockupEndTime;
        presale.vestingEndTime = p.vestingEndTime;
        return presale;
    }
}
