// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {
    DeploymentConfig,
    TokenConfig,
    PoolConfig,
    LockerConfig,
    MevModuleConfig,
    ExtensionConfig,
    ITokenExtension,
    IPoolHook,
    ILpLocker,
    IMevModule,
    TokenTransfers
} from "./Types.sol";
import {Token} from "./Token.sol";
import {Pool} from "./Pool.sol";
import {TickMath} from "./TickMath.sol";

/// The local stand-in for the platform's version-4 factory: same `deployToken(DeploymentConfig)` and
/// `TokenCreated` ABI, same CREATE2 salt rule and the same limits, each failing with its own custom
/// error so the service can say which rule a request broke. Instead of a Uniswap v4 pool it creates a
/// V3-style `Pool` at the starting price and reports the v4-style pool id. It passes each module its data
/// as the platform's factory does: `poolData` to the hook, `lockerData` to the locker, `mevModuleData` to
/// the MEV module once the pool exists. The owner is immutable, so the runtime code can be installed at
/// any address (the local chain puts it at the platform's).
contract Factory {
    uint256 public constant TOKEN_SUPPLY = 100_000_000_000 * 1e18;
    uint256 public constant BPS = 10_000;
    uint256 public constant MAX_EXTENSION_BPS = 9_000;
    uint256 public constant MAX_EXTENSIONS = 10;
    uint256 public constant MAX_REWARD_RECIPIENTS = 7;
    uint256 public constant MAX_POSITIONS = 7;
    int24 public constant MAX_TICK_SPACING = 16_384;
    /// v4 pools whose hook sets the fee carry this flag in their key, so it is part of the pool id.
    uint24 public constant DYNAMIC_FEE_FLAG = 0x800000;

    enum ModuleKind {
        Hook,
        Locker,
        Extension,
        MevModule
    }

    struct DeploymentInfo {
        address pool;
        bytes32 poolId;
        address hook;
        address locker;
    }

    /// TokenCreated's non-indexed fields, in order (see `_emitTokenCreated`).
    struct TokenCreatedData {
        address msgSender;
        string tokenImage;
        string tokenName;
        string tokenSymbol;
        string tokenMetadata;
        string tokenContext;
        int24 startingTick;
        address poolHook;
        bytes32 poolId;
        address pairedToken;
        address locker;
        address mevModule;
        uint256 extensionsSupply;
        address[] extensions;
    }

    address public immutable owner;
    mapping(ModuleKind kind => mapping(address module => bool)) public enabledModules;
    mapping(address token => DeploymentInfo) public deploymentInfo;
    mapping(bytes32 poolId => address pool) public poolOf;

    event TokenCreated(
        address msgSender,
        address indexed tokenAddress,
        address indexed tokenAdmin,
        string tokenImage,
        string tokenName,
        string tokenSymbol,
        string tokenMetadata,
        string tokenContext,
        int24 startingTick,
        address poolHook,
        bytes32 poolId,
        address pairedToken,
        address locker,
        address mevModule,
        uint256 extensionsSupply,
        address[] extensions
    );
    /// Local addition: where the V3-style pool of a pool id lives (the v4 factory has no such event).
    event PoolCreated(bytes32 indexed poolId, address indexed pool, address indexed token, uint160 sqrtPriceX96, int24 tick);
    event ModuleEnabled(ModuleKind indexed kind, address indexed module, bool enabled);

    // Errors the platform's v4 contracts also have carry their names (IClanker, IClankerLpLockerMultiple);
    // the others are local.
    error Unauthorized();
    error ZeroTokenAdmin();
    error OnlyOriginatingChain();
    error TokenAlreadyDeployed(address token);
    error TokenDeploymentFailed();
    error HookNotEnabled();
    error LockerNotEnabled();
    error MevModuleNotEnabled();
    error ExtensionNotEnabled();
    error InvalidPairedToken();
    error InvalidTickSpacing();
    error TicksNotMultipleOfTickSpacing();
    error TicksOutOfTickBounds();
    error NoRewardRecipients();
    error TooManyRewardParticipants();
    error MismatchedRewardArrays();
    error ZeroRewardAddress();
    error ZeroRewardAmount();
    error InvalidRewardBps();
    error NoPositions();
    error TooManyPositions();
    error MismatchedPositionInfos();
    error TickRangeLowerThanStartingTick();
    error TicksBackwards();
    error InvalidPositionBps();
    error MaxExtensionsExceeded();
    error MaxExtensionBpsExceeded();
    error ExtensionMsgValueMismatch();

    constructor(address owner_) {
        owner = owner_;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized();
        _;
    }

    function setModule(ModuleKind kind, address module, bool enabled) external onlyOwner {
        enabledModules[kind][module] = enabled;
        emit ModuleEnabled(kind, module, enabled);
    }

    function deployToken(DeploymentConfig calldata deploymentConfig) external payable returns (address tokenAddress) {
        _checkToken(deploymentConfig.tokenConfig);
        uint24 lpFee = _checkPool(deploymentConfig.poolConfig);
        _checkLocker(deploymentConfig.lockerConfig, deploymentConfig.poolConfig);
        _checkMevModule(deploymentConfig.mevModuleConfig);
        _checkExtensions(deploymentConfig.extensionConfigs);

        tokenAddress = _createToken(deploymentConfig.tokenConfig);
        (address pool, bytes32 poolId) = _createPool(tokenAddress, deploymentConfig.poolConfig, lpFee);
        uint256 extensionsSupply = _payExtensions(deploymentConfig, tokenAddress);

        address locker = deploymentConfig.lockerConfig.locker;
        uint256 liquiditySupply = TOKEN_SUPPLY - extensionsSupply;
        TokenTransfers.send(tokenAddress, locker, liquiditySupply);
        ILpLocker(locker).placeLiquidity(
            deploymentConfig.lockerConfig, deploymentConfig.poolConfig, tokenAddress, pool, liquiditySupply
        );
        address mevModule = deploymentConfig.mevModuleConfig.mevModule;
        if (mevModule != address(0)) IMevModule(mevModule).initialize(poolId, deploymentConfig.mevModuleConfig.mevModuleData);

        deploymentInfo[tokenAddress] = DeploymentInfo(pool, poolId, deploymentConfig.poolConfig.hook, locker);
        _emitTokenCreated(deploymentConfig, tokenAddress, poolId, extensionsSupply);
    }

    function _checkToken(TokenConfig calldata t) private view {
        if (t.tokenAdmin == address(0)) revert ZeroTokenAdmin();
        // Other chains get their supply by bridging; only the originating chain mints it.
        if (t.originatingChainId != block.chainid) revert OnlyOriginatingChain();
    }

    function _checkPool(PoolConfig calldata p) private view returns (uint24 lpFee) {
        if (!enabledModules[ModuleKind.Hook][p.hook]) revert HookNotEnabled();
        if (p.pairedToken == address(0)) revert InvalidPairedToken();
        if (p.tickSpacing <= 0 || p.tickSpacing > MAX_TICK_SPACING) revert InvalidTickSpacing();
        _checkTick(p.tickIfToken0IsClanker, p.tickSpacing);
        // The hook owns its data's rules (pool extension, static fees at most 10%, dynamic base at least 0.25%).
        lpFee = IPoolHook(p.hook).validatePoolData(p.poolData);
    }

    function _checkTick(int24 tick, int24 tickSpacing) private pure {
        if (tick % tickSpacing != 0) revert TicksNotMultipleOfTickSpacing();
        if (tick < TickMath.MIN_TICK || tick > TickMath.MAX_TICK) revert TicksOutOfTickBounds();
    }

    function _checkLocker(LockerConfig calldata l, PoolConfig calldata p) private view {
        if (!enabledModules[ModuleKind.Locker][l.locker]) revert LockerNotEnabled();

        uint256 recipients = l.rewardRecipients.length;
        if (recipients == 0) revert NoRewardRecipients();
        if (recipients > MAX_REWARD_RECIPIENTS) revert TooManyRewardParticipants();
        if (l.rewardAdmins.length != recipients || l.rewardBps.length != recipients) revert MismatchedRewardArrays();
        uint256 rewardBpsSum;
        for (uint256 i = 0; i < recipients; i++) {
            if (l.rewardRecipients[i] == address(0) || l.rewardAdmins[i] == address(0)) revert ZeroRewardAddress();
            if (l.rewardBps[i] == 0) revert ZeroRewardAmount();
            rewardBpsSum += l.rewardBps[i];
        }
        if (rewardBpsSum != BPS) revert InvalidRewardBps();

        uint256 positions = l.positionBps.length;
        if (positions == 0) revert NoPositions();
        if (positions > MAX_POSITIONS) revert TooManyPositions();
        if (l.tickLower.length != positions || l.tickUpper.length != positions) revert MismatchedPositionInfos();
        uint256 positionBpsSum;
        for (uint256 i = 0; i < positions; i++) {
            int24 lower = l.tickLower[i];
            int24 upper = l.tickUpper[i];
            _checkTick(lower, p.tickSpacing);
            _checkTick(upper, p.tickSpacing);
            // Liquidity below the starting price would be paired-token liquidity the deployer never supplied.
            if (lower < p.tickIfToken0IsClanker) revert TickRangeLowerThanStartingTick();
            // An empty range too: it could hold no liquidity (the platform's pool manager refuses it).
            if (lower >= upper) revert TicksBackwards();
            positionBpsSum += l.positionBps[i];
        }
        if (positionBpsSum != BPS) revert InvalidPositionBps();
    }

    function _checkMevModule(MevModuleConfig calldata m) private view {
        if (m.mevModule != address(0) && !enabledModules[ModuleKind.MevModule][m.mevModule]) {
            revert MevModuleNotEnabled();
        }
    }

    function _checkExtensions(ExtensionConfig[] calldata extensions) private view {
        if (extensions.length > MAX_EXTENSIONS) revert MaxExtensionsExceeded();
        uint256 bpsSum;
        uint256 valueSum;
        for (uint256 i = 0; i < extensions.length; i++) {
            if (!enabledModules[ModuleKind.Extension][extensions[i].extension]) {
                revert ExtensionNotEnabled();
            }
            bpsSum += extensions[i].extensionBps;
            valueSum += extensions[i].msgValue;
        }
        // At least 10% of the supply always goes to the pool.
        if (bpsSum > MAX_EXTENSION_BPS) revert MaxExtensionBpsExceeded();
        if (valueSum != msg.value) revert ExtensionMsgValueMismatch();
    }

    function _createToken(TokenConfig calldata tokenConfig) private returns (address token) {
        // Copied to memory: five calldata strings take two stack slots each, too many to encode at once.
        TokenConfig memory t = tokenConfig;
        bytes32 salt = keccak256(abi.encode(t.tokenAdmin, t.salt));
        bytes memory initCode = abi.encodePacked(
            type(Token).creationCode, abi.encode(t.name, t.symbol, TOKEN_SUPPLY, t.tokenAdmin, t.image, t.metadata, t.context)
        );
        // Checked up front so a repeated (admin, salt) says so instead of failing without a reason.
        address predicted = address(
            uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, keccak256(initCode)))))
        );
        if (predicted.code.length != 0) revert TokenAlreadyDeployed(predicted);
        assembly ("memory-safe") {
            token := create2(0, add(initCode, 0x20), mload(initCode), salt)
        }
        if (token == address(0)) revert TokenDeploymentFailed();
    }

    function _createPool(address token, PoolConfig calldata p, uint24 lpFee) private returns (address pool, bytes32 poolId) {
        bool tokenIsToken0 = token < p.pairedToken;
        (address token0, address token1) = tokenIsToken0 ? (token, p.pairedToken) : (p.pairedToken, token);
        // The configured tick prices the new token as token0; mirrored when it sorts second.
        int24 tick = tokenIsToken0 ? p.tickIfToken0IsClanker : -p.tickIfToken0IsClanker;
        uint160 sqrtPriceX96 = TickMath.sqrtPriceAtTick(tick);
        poolId = keccak256(abi.encode(token0, token1, DYNAMIC_FEE_FLAG, p.tickSpacing, p.hook));
        pool = address(new Pool(token0, token1, lpFee, p.tickSpacing, sqrtPriceX96, tick));
        poolOf[poolId] = pool;
        emit PoolCreated(poolId, pool, token, sqrtPriceX96, tick);
    }

    function _payExtensions(DeploymentConfig calldata config, address token) private returns (uint256 extensionsSupply) {
        ExtensionConfig[] calldata extensions = config.extensionConfigs;
        for (uint256 i = 0; i < extensions.length; i++) {
            uint256 amount = TOKEN_SUPPLY * extensions[i].extensionBps / BPS;
            extensionsSupply += amount;
            if (amount != 0) TokenTransfers.send(token, extensions[i].extension, amount);
            ITokenExtension(extensions[i].extension).receiveTokens{value: extensions[i].msgValue}(config, token, amount, i);
        }
    }

    /// TokenCreated has more fields than the legacy code generator can hold on the stack, so its data
    /// is built as a struct with the same fields in the same order (whose encoding, minus the leading
    /// offset word, is exactly the event's data) and logged directly.
    function _emitTokenCreated(DeploymentConfig calldata config, address token, bytes32 poolId, uint256 extensionsSupply)
        private
    {
        TokenCreatedData memory d;
        d.msgSender = msg.sender;
        d.tokenImage = config.tokenConfig.image;
        d.tokenName = config.tokenConfig.name;
        d.tokenSymbol = config.tokenConfig.symbol;
        d.tokenMetadata = config.tokenConfig.metadata;
        d.tokenContext = config.tokenConfig.context;
        d.startingTick = config.poolConfig.tickIfToken0IsClanker;
        d.poolHook = config.poolConfig.hook;
        d.poolId = poolId;
        d.pairedToken = config.poolConfig.pairedToken;
        d.locker = config.lockerConfig.locker;
        d.mevModule = config.mevModuleConfig.mevModule;
        d.extensionsSupply = extensionsSupply;
        d.extensions = new address[](config.extensionConfigs.length);
        for (uint256 i = 0; i < d.extensions.length; i++) {
            d.extensions[i] = config.extensionConfigs[i].extension;
        }
        bytes memory encoded = abi.encode(d);
        bytes32 topic0 = TokenCreated.selector;
        bytes32 admin = bytes32(uint256(uint160(config.tokenConfig.tokenAdmin)));
        bytes32 tokenTopic = bytes32(uint256(uint160(token)));
        assembly ("memory-safe") {
            log3(add(encoded, 0x40), sub(mload(encoded), 0x20), topic0, tokenTopic, admin)
        }
    }
}
