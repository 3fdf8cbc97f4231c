// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// The launched ERC-20. The whole supply is minted to the deployer (the factory), which splits it
/// between extensions and the LP locker in the same transaction. Image and metadata stay editable by
/// the admin because creators fix them after launch; the context (where the launch came from) does not.
contract Token {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address account => uint256) public balanceOf;
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    address public immutable originalAdmin;
    address public admin;
    string public imageUrl;
    string public metadata;
    string public context;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event UpdateImage(string image);
    event UpdateMetadata(string metadata);
    event UpdateAdmin(address indexed oldAdmin, address indexed newAdmin);

    error NotAdmin();
    error InsufficientBalance();
    error InsufficientAllowance();
    error InvalidRecipient();

    constructor(
        string memory name_,
        string memory symbol_,
        uint256 supply,
        address admin_,
        string memory image_,
        string memory metadata_,
        string memory context_
    ) {
        name = name_;
        symbol = symbol_;
        originalAdmin = admin_;
        admin = admin_;
        imageUrl = image_;
        metadata = metadata_;
        context = context_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    modifier onlyAdmin() {
        if (msg.sender != admin) revert NotAdmin();
        _;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance();
            allowance[from][msg.sender] = allowed - amount;
        }
        _move(from, to, amount);
        return true;
    }

    function updateImage(string calldata image) external onlyAdmin {
        imageUrl = image;
        emit UpdateImage(image);
    }

    function updateMetadata(string calldata metadata_) external onlyAdmin {
        metadata = metadata_;
        emit UpdateMetadata(metadata_);
    }

    function updateAdmin(address newAdmin) external onlyAdmin {
        emit UpdateAdmin(admin, newAdmin);
        admin = newAdmin;
    }

    /// Everything an indexer needs about the launch in one call.
    function allData()
        external
        view
        returns (address originalAdmin_, address admin_, string memory image, string memory metadata_, string memory context_)
    {
        return (originalAdmin, admin, imageUrl, metadata, context);
    }

    function _move(address from, address to, uint256 amount) private {
        if (to == address(0)) revert InvalidRecipient();
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance();
        unchecked {
            balanceOf[from] = balance - amount;
        }
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
