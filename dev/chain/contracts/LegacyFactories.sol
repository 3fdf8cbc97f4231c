// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20Like, TokenTransfers} from "./Types.sol";
import {Pool} from "./Pool.sol";
import {Token} from "./Token.sol";
import {LegacyToken} from "./LegacyToken.sol";
import {LegacyLockerV0, LegacyLockerV2, LegacyLockerV3_1} from "./LegacyLockers.sol";
import {LegacyPositionManager, LegacyUniswapV3Factory} from "./LegacyUniswap.sol";

interface IWETHLike {
    function deposit() external payable;
}

interface ILegacyRewardLocker {
    function collectRewards(uint256 tokenId) external;
}

/// What the legacy factories share: a token's V3-style pool (created through the local Uniswap V3 factory),
/// its single-sided LP position (an NFT of the local position manager, minted to the generation's locker) and
/// the dev buy. The whole supply less any vaulted share is the pool's liquidity. A dev buy (msg.value) is only
/// possible with a WETH pair: the ETH is wrapped and swapped in the new pool for the deployer.
abstract contract LegacyLaunch {
    struct Launch {
        string name;
        string symbol;
        uint256 supply;
        uint24 fee;
        bytes32 salt;
        address deployer;
        uint256 fid;
        string image;
        string castHash;
        int24 tickIfToken0IsNewToken;
        address pairedToken;
    }

    address public immutable owner;
    address public immutable weth;
    address public immutable uniswapV3Factory;
    address public immutable positionManager;

    error NotOwner(address sender);
    error NotAdmin(address sender);
    error UnsupportedFee(uint24 fee);
    error InvalidTick(int24 tick);
    error DevBuyNeedsWethPair();

    constructor(address owner_, address weth_, address uniswapV3Factory_, address positionManager_) {
        owner = owner_;
        weth = weth_;
        uniswapV3Factory = uniswapV3Factory_;
        positionManager = positionManager_;
    }

    function _launch(
        string memory name,
        string memory symbol,
        uint256 supply,
        uint24 fee,
        bytes32 salt,
        address deployer
    ) internal pure returns (Launch memory l) {
        (l.name, l.symbol, l.supply, l.fee, l.salt, l.deployer) = (name, symbol, supply, fee, salt, deployer);
    }

    /// Deploys the v0 to v3 token (CREATE2, salt keccak256(abi.encode(deployer, salt))) and places its supply.
    function _launchLegacy(Launch memory l, address locker)
        internal
        returns (address token, uint256 positionId, address pool)
    {
        token = address(
            new LegacyToken{salt: keccak256(abi.encode(l.deployer, l.salt))}(
                l.name, l.symbol, l.supply, l.deployer, l.fid, l.image, l.castHash
            )
        );
        (positionId, pool) = _placeLiquidity(token, l.pairedToken, l.fee, l.tickIfToken0IsNewToken, l.supply, locker);
        _devBuy(token, pool, l.pairedToken, l.deployer);
    }

    function _placeLiquidity(
        address token,
        address pairedToken,
        uint24 fee,
        int24 tickIfToken0IsNewToken,
        uint256 amount,
        address locker
    ) internal returns (uint256 positionId, address pool) {
        int24 spacing = _tickSpacing(fee);
        if (tickIfToken0IsNewToken % spacing != 0) revert InvalidTick(tickIfToken0IsNewToken);
        bool tokenIsToken0 = token < pairedToken;
        // The configured tick prices the new token as token0; mirrored when it sorts second.
        pool = LegacyUniswapV3Factory(uniswapV3Factory).createPool(
            token, pairedToken, fee, spacing, tokenIsToken0 ? tickIfToken0IsNewToken : -tickIfToken0IsNewToken
        );
        TokenTransfers.send(token, pool, amount);
        positionId = _mintPosition(token, pairedToken, fee, tickIfToken0IsNewToken, amount, locker);
    }

    /// The single-sided position: from the starting price to the highest usable tick, on the new token's side.
    function _mintPosition(address token, address pairedToken, uint24 fee, int24 tick, uint256 amount, address locker)
        private
        returns (uint256 positionId)
    {
        int24 spacing = _tickSpacing(fee);
        int24 maxUsable = (int24(887272) / spacing) * spacing;
        LegacyPositionManager.MintParams memory m;
        m.fee = fee;
        m.recipient = locker;
        m.deadline = block.timestamp;
        if (token < pairedToken) {
            (m.token0, m.token1, m.tickLower, m.tickUpper, m.amount0Desired) = (token, pairedToken, tick, maxUsable, amount);
        } else {
            (m.token0, m.token1, m.tickLower, m.tickUpper, m.amount1Desired) = (pairedToken, token, -maxUsable, -tick, amount);
        }
        (positionId,,,) = LegacyPositionManager(positionManager).mint(m);
    }

    function _devBuy(address token, address pool, address pairedToken, address recipient)
        internal
        returns (uint256 bought)
    {
        if (msg.value == 0) return 0;
        if (pairedToken != weth) revert DevBuyNeedsWethPair();
        IWETHLike(weth).deposit{value: msg.value}();
        IERC20Like(weth).approve(pool, msg.value);
        uint256 before = IERC20Like(token).balanceOf(recipient);
        Pool(pool).swap(weth, msg.value, recipient);
        bought = IERC20Like(token).balanceOf(recipient) - before;
    }

    function _tickSpacing(uint24 fee) internal pure returns (int24) {
        if (fee == 10000) return 200;
        if (fee == 3000) return 60;
        if (fee == 500) return 10;
        if (fee == 100) return 1;
        revert UnsupportedFee(fee);
    }

    function _onlyOwner() internal view {
        if (msg.sender != owner) revert NotOwner(msg.sender);
    }
}

/// The v2 to v3.1 factories' record of deployments and the claim through the factory (`claimRewards(token)`
/// calls the token's locker's `collectRewards(positionId)`), as the platform's SDK's legacy fee claim sends it.
abstract contract LegacyDeployments is LegacyLaunch {
    struct DeploymentInfo {
        address token;
        uint256 positionId;
        address locker;
    }

    address public immutable liquidityLocker;
    mapping(address => bool) public admins;
    mapping(address => DeploymentInfo[]) public tokensDeployedByUsers;
    mapping(address => DeploymentInfo) public deploymentInfoForToken;

    error NotFound();

    constructor(address locker_) {
        liquidityLocker = locker_;
    }

    function setAdmin(address admin, bool isAdmin) external {
        _onlyOwner();
        admins[admin] = isAdmin;
    }

    function getTokensDeployedByUser(address user) external view returns (DeploymentInfo[] memory) {
        return tokensDeployedByUsers[user];
    }

    function claimRewards(address token) external {
        DeploymentInfo memory info = deploymentInfoForToken[token];
        if (info.token == address(0)) revert NotFound();
        ILegacyRewardLocker(info.locker).collectRewards(info.positionId);
    }

    function _onlyOwnerOrAdmin() internal view {
        if (msg.sender != owner && !admins[msg.sender]) revert NotAdmin(msg.sender);
    }

    function _record(address user, address token, uint256 positionId) internal {
        DeploymentInfo memory info = DeploymentInfo(token, positionId, liquidityLocker);
        deploymentInfoForToken[token] = info;
        tokensDeployedByUsers[user].push(info);
    }
}

/// v0 (SDK type `proxy`): owner only; each token gets its own `LegacyLockerV0`, owned by the deployer, which
/// keeps `lpFeesCut` percent of fees for the factory's owner. Paired with WETH.
contract LegacyFactoryV0 is LegacyLaunch {
    uint8 public constant lpFeesCut = 60;

    event TokenCreated(
        address tokenAddress,
        uint256 lpNftId,
        address deployer,
        string name,
        string symbol,
        uint256 supply,
        uint256 _supply,
        address lockerAddress
    );

    constructor(address owner_, address weth_, address uniswapV3Factory_, address positionManager_)
        LegacyLaunch(owner_, weth_, uniswapV3Factory_, positionManager_)
    {}

    function deployToken(
        string memory _name,
        string memory _symbol,
        uint256 _supply,
        int24 _initialTick,
        uint24 _fee,
        bytes32 _salt,
        address _deployer
    ) external payable returns (address token, uint256 tokenId) {
        _onlyOwner();
        address locker = address(new LegacyLockerV0(positionManager, _deployer, lpFeesCut, owner));
        Launch memory l = _launch(_name, _symbol, _supply, _fee, _salt, _deployer);
        (l.tickIfToken0IsNewToken, l.pairedToken) = (_initialTick, weth);
        (token, tokenId,) = _launchLegacy(l, locker);
        LegacyLockerV0(locker).initializer(tokenId);
        emit TokenCreated(token, tokenId, _deployer, _name, _symbol, _supply, _supply, locker);
    }
}

/// v1 (SDK type `clanker`): as v0, plus the requester's fid, the image and the cast hash.
contract LegacyFactoryV1 is LegacyLaunch {
    uint8 public constant lpFeesCut = 60;

    event TokenCreated(
        address tokenAddress,
        uint256 lpNftId,
        address deployer,
        uint256 fid,
        string name,
        string symbol,
        uint256 supply,
        address lockerAddress,
        string castHash
    );

    constructor(address owner_, address weth_, address uniswapV3Factory_, address positionManager_)
        LegacyLaunch(owner_, weth_, uniswapV3Factory_, positionManager_)
    {}

    function deployToken(
        string memory _name,
        string memory _symbol,
        uint256 _supply,
        int24 _initialTick,
        uint24 _fee,
        bytes32 _salt,
        address _deployer,
        uint256 _fid,
        string memory _image,
        string memory _castHash
    ) external payable returns (address token, uint256 tokenId) {
        _onlyOwner();
        // Field by field: a constructor call with all of them at once would not fit on the stack.
        Launch memory l = _launch(_name, _symbol, _supply, _fee, _salt, _deployer);
        (l.fid, l.image, l.castHash, l.tickIfToken0IsNewToken, l.pairedToken) = (_fid, _image, _castHash, _initialTick, weth);
        return _deploy(l);
    }

    function _deploy(Launch memory l) private returns (address token, uint256 tokenId) {
        address locker = address(new LegacyLockerV0(positionManager, l.deployer, lpFeesCut, owner));
        (token, tokenId,) = _launchLegacy(l, locker);
        LegacyLockerV0(locker).initializer(tokenId);
        emit TokenCreated(token, tokenId, l.deployer, l.fid, l.name, l.symbol, l.supply, locker, l.castHash);
    }
}

/// v2 (SDK type `clanker_v2`): owner or admins; any paired token; positions go to the v2 locker, whose user
/// reward recipient is the deployer.
contract LegacyFactoryV2 is LegacyDeployments {
    struct PoolConfig {
        int24 tick;
        address pairedToken;
        uint24 devBuyFee;
    }

    event TokenCreated(
        address tokenAddress,
        uint256 positionId,
        address deployer,
        uint256 fid,
        string name,
        string symbol,
        uint256 supply,
        address lockerAddress,
        string castHash
    );

    bool public deprecated;

    error Deprecated();

    constructor(address owner_, address weth_, address uniswapV3Factory_, address positionManager_, address locker_)
        LegacyLaunch(owner_, weth_, uniswapV3Factory_, positionManager_)
        LegacyDeployments(locker_)
    {}

    function setDeprecated(bool _deprecated) external {
        _onlyOwner();
        deprecated = _deprecated;
    }

    function deployToken(
        string memory _name,
        string memory _symbol,
        uint256 _supply,
        uint24 _fee,
        bytes32 _salt,
        address _deployer,
        uint256 _fid,
        string memory _image,
        string memory _castHash,
        PoolConfig memory _poolConfig
    ) external payable returns (address token, uint256 positionId) {
        _onlyOwnerOrAdmin();
        if (deprecated) revert Deprecated();
        Launch memory l = _launch(_name, _symbol, _supply, _fee, _salt, _deployer);
        (l.fid, l.image, l.castHash) = (_fid, _image, _castHash);
        (l.tickIfToken0IsNewToken, l.pairedToken) = (_poolConfig.tick, _poolConfig.pairedToken);
        return _deploy(l);
    }

    function _deploy(Launch memory l) private returns (address token, uint256 positionId) {
        (token, positionId,) = _launchLegacy(l, liquidityLocker);
        LegacyLockerV2(liquidityLocker).addUserRewardRecipient(LegacyLockerV2.UserRewardRecipient(l.deployer, positionId));
        _record(l.deployer, token, positionId);
        emit TokenCreated(token, positionId, l.deployer, l.fid, l.name, l.symbol, l.supply, liquidityLocker, l.castHash);
    }
}

/// v3 (SDK type `clanker_v3`): v2's deploy taken as one tuple, and an event without the locker. The presale
/// overload of the platform's v3 is not implemented.
contract LegacyFactoryV3 is LegacyDeployments {
    struct PoolConfig {
        int24 tick;
        address pairedToken;
        uint24 devBuyFee;
    }

    struct PreSaleTokenConfig {
        string _name;
        string _symbol;
        uint256 _supply;
        uint24 _fee;
        bytes32 _salt;
        address _deployer;
        uint256 _fid;
        string _image;
        string _castHash;
        PoolConfig _poolConfig;
    }

    event TokenCreated(
        address tokenAddress,
        uint256 positionId,
        address deployer,
        uint256 fid,
        string name,
        string symbol,
        uint256 supply,
        string castHash
    );

    constructor(address owner_, address weth_, address uniswapV3Factory_, address positionManager_, address locker_)
        LegacyLaunch(owner_, weth_, uniswapV3Factory_, positionManager_)
        LegacyDeployments(locker_)
    {}

    function deployToken(PreSaleTokenConfig memory preSaleTokenConfig)
        external
        payable
        returns (address token, uint256 positionId)
    {
        _onlyOwnerOrAdmin();
        PreSaleTokenConfig memory c = preSaleTokenConfig;
        Launch memory l = Launch(
            c._name, c._symbol, c._supply, c._fee, c._salt, c._deployer, c._fid, c._image, c._castHash,
            c._poolConfig.tick, c._poolConfig.pairedToken
        );
        (token, positionId,) = _launchLegacy(l, liquidityLocker);
        LegacyLockerV2(liquidityLocker).addUserRewardRecipient(LegacyLockerV2.UserRewardRecipient(c._deployer, positionId));
        _record(c._deployer, token, positionId);
        emit TokenCreated(token, positionId, c._deployer, c._fid, c._name, c._symbol, c._supply, c._castHash);
    }
}

/// v3.1's vault: holds a token's vaulted share for its creator admin until the unlock time.
contract LegacyVaultV3_1 {
    struct Allocation {
        uint256 amount;
        uint256 endTime;
        address admin;
    }

    address public immutable factory;
    mapping(address token => Allocation) public allocation;

    event Deposit(address indexed token, uint256 amount, uint256 endTime, address admin);
    event Withdraw(address indexed token, uint256 amount, address recipient);

    error NotAllowed(address sender);
    error Locked(uint256 endTime);

    constructor(address factory_) {
        factory = factory_;
    }

    function deposit(address token, uint256 amount, uint256 endTime, address admin) external {
        if (msg.sender != factory) revert NotAllowed(msg.sender);
        allocation[token] = Allocation(amount, endTime, admin);
        emit Deposit(token, amount, endTime, admin);
    }

    function withdraw(address token, address recipient) external {
        Allocation memory a = allocation[token];
        if (msg.sender != a.admin) revert NotAllowed(msg.sender);
        if (block.timestamp < a.endTime) revert Locked(a.endTime);
        delete allocation[token];
        TokenTransfers.send(token, recipient, a.amount);
        emit Withdraw(token, a.amount, recipient);
    }
}

/// v3.1 (SDK type `clanker_v3_1`): the platform's `deployToken(DeploymentConfig)`, open to anyone. 100 billion
/// tokens (the current `Token`, CREATE2 salt keccak256(abi.encode(creatorAdmin, salt))); a 1% pool (tick spacing
/// 200) against any paired token; up to 30% vaulted; the creator's reward 1 to 80 percent (the locker checks).
/// `deployTokenZeroSupply` and `deployTokenWithCustomTeamRewardRecipient` are not implemented.
contract LegacyFactoryV3_1 is LegacyDeployments {
    struct TokenConfig {
        string name;
        string symbol;
        bytes32 salt;
        string image;
        string metadata;
        string context;
        uint256 originatingChainId;
    }

    struct VaultConfig {
        uint8 vaultPercentage;
        uint256 vaultDuration;
    }

    struct PoolConfig {
        address pairedToken;
        int24 tickIfToken0IsNewToken;
    }

    struct InitialBuyConfig {
        uint24 pairedTokenPoolFee;
        uint256 pairedTokenSwapAmountOutMinimum;
    }

    struct RewardsConfig {
        uint256 creatorReward;
        address creatorAdmin;
        address creatorRewardRecipient;
        address interfaceAdmin;
        address interfaceRewardRecipient;
    }

    struct DeploymentConfig {
        TokenConfig tokenConfig;
        VaultConfig vaultConfig;
        PoolConfig poolConfig;
        InitialBuyConfig initialBuyConfig;
        RewardsConfig rewardsConfig;
    }

    /// TokenCreated's data members in the event's order (see _emitTokenCreated).
    struct TokenCreatedData {
        address creatorRewardRecipient;
        address interfaceRewardRecipient;
        uint256 positionId;
        string name;
        string symbol;
        int24 startingTickIfToken0IsNewToken;
        string metadata;
        uint256 amountTokensBought;
        uint256 vaultDuration;
        uint8 vaultPercentage;
        address msgSender;
    }

    uint256 public constant TOKEN_SUPPLY = 100_000_000_000e18;
    uint256 public constant MAX_CREATOR_REWARD = 80;
    uint256 public constant MAX_VAULT_PERCENTAGE = 30;
    uint24 public constant POOL_FEE = 10000;
    int24 public constant TICK_SPACING = 200;
    int24 public constant MAX_TICK = 887200;

    address public immutable vault;
    bool public deprecated;

    event TokenCreated(
        address indexed tokenAddress,
        address indexed creatorAdmin,
        address indexed interfaceAdmin,
        address creatorRewardRecipient,
        address interfaceRewardRecipient,
        uint256 positionId,
        string name,
        string symbol,
        int24 startingTickIfToken0IsNewToken,
        string metadata,
        uint256 amountTokensBought,
        uint256 vaultDuration,
        uint8 vaultPercentage,
        address msgSender
    );

    error Deprecated();
    error InvalidVaultConfiguration();

    constructor(
        address owner_,
        address weth_,
        address uniswapV3Factory_,
        address positionManager_,
        address locker_,
        address vault_
    ) LegacyLaunch(owner_, weth_, uniswapV3Factory_, positionManager_) LegacyDeployments(locker_) {
        vault = vault_;
    }

    function setDeprecated(bool deprecated_) external {
        _onlyOwner();
        deprecated = deprecated_;
    }

    function deployToken(DeploymentConfig calldata deploymentConfig)
        external
        payable
        returns (address tokenAddress, uint256 positionId)
    {
        if (deprecated) revert Deprecated();
        DeploymentConfig calldata c = deploymentConfig;
        uint256 vaulted = TOKEN_SUPPLY * c.vaultConfig.vaultPercentage / 100;
        if (c.vaultConfig.vaultPercentage > MAX_VAULT_PERCENTAGE) revert InvalidVaultConfiguration();
        tokenAddress = _createToken(c.tokenConfig, c.rewardsConfig.creatorAdmin);
        if (vaulted != 0) {
            TokenTransfers.send(tokenAddress, vault, vaulted);
            LegacyVaultV3_1(vault).deposit(
                tokenAddress, vaulted, block.timestamp + c.vaultConfig.vaultDuration, c.rewardsConfig.creatorAdmin
            );
        }
        address pool;
        (positionId, pool) = _placeLiquidity(
            tokenAddress,
            c.poolConfig.pairedToken,
            POOL_FEE,
            c.poolConfig.tickIfToken0IsNewToken,
            TOKEN_SUPPLY - vaulted,
            liquidityLocker
        );
        LegacyLockerV3_1(liquidityLocker).addTokenReward(
            LegacyLockerV3_1.TokenRewardInfo(
                positionId,
                c.rewardsConfig.creatorReward,
                LegacyLockerV3_1.RewardRecipient(c.rewardsConfig.creatorAdmin, c.rewardsConfig.creatorRewardRecipient),
                LegacyLockerV3_1.RewardRecipient(c.rewardsConfig.interfaceAdmin, c.rewardsConfig.interfaceRewardRecipient)
            )
        );
        uint256 bought = _devBuy(tokenAddress, pool, c.poolConfig.pairedToken, c.rewardsConfig.creatorAdmin);
        _record(c.rewardsConfig.creatorAdmin, tokenAddress, positionId);
        _emitTokenCreated(c, tokenAddress, positionId, bought);
    }

    function _createToken(TokenConfig calldata tokenConfig, address admin) private returns (address) {
        // Copied to memory: four calldata strings take two stack slots each, too many to encode at once.
        TokenConfig memory t = tokenConfig;
        return address(
            new Token{salt: keccak256(abi.encode(admin, t.salt))}(
                t.name, t.symbol, TOKEN_SUPPLY, admin, t.image, t.metadata, t.context
            )
        );
    }

    /// TokenCreated has more members than the legacy code generator holds on the stack: its data is the
    /// struct's encoding minus the leading offset word, logged directly.
    function _emitTokenCreated(DeploymentConfig calldata c, address token, uint256 positionId, uint256 bought) private {
        TokenCreatedData memory d;
        d.creatorRewardRecipient = c.rewardsConfig.creatorRewardRecipient;
        d.interfaceRewardRecipient = c.rewardsConfig.interfaceRewardRecipient;
        d.positionId = positionId;
        d.name = c.tokenConfig.name;
        d.symbol = c.tokenConfig.symbol;
        d.startingTickIfToken0IsNewToken = c.poolConfig.tickIfToken0IsNewToken;
        d.metadata = c.tokenConfig.metadata;
        d.amountTokensBought = bought;
        d.vaultDuration = c.vaultConfig.vaultDuration;
        d.vaultPercentage = c.vaultConfig.vaultPercentage;
        d.msgSender = msg.sender;
        bytes memory encoded = abi.encode(d);
        bytes32 topic0 = TokenCreated.selector;
        bytes32 tokenTopic = bytes32(uint256(uint160(token)));
        bytes32 creatorTopic = bytes32(uint256(uint160(c.rewardsConfig.creatorAdmin)));
        bytes32 interfaceTopic = bytes32(uint256(uint160(c.rewardsConfig.interfaceAdmin)));
        assembly ("memory-safe") {
            log4(add(encoded, 0x40), sub(mload(encoded), 0x20), topic0, tokenTopic, creatorTopic, interfaceTopic)
        }
    }
}
