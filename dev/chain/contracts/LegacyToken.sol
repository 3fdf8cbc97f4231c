// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// The ERC-20 of the v0 to v3 generations (the platform's ClankerToken of then): the whole supply minted to the
/// factory, plus the launch's `deployer`, `fid`, `image` and `castHash` as reads (v0 sets only the deployer).
/// v3.1 tokens are the current `Token`.
contract LegacyToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address account => uint256) public balanceOf;
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    address public immutable deployer;
    uint256 public immutable fid;
    string public image;
    string public castHash;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error InsufficientBalance();
    error InsufficientAllowance();
    error InvalidRecipient();

    constructor(
        string memory name_,
        string memory symbol_,
        uint256 supply,
        address deployer_,
        uint256 fid_,
        string memory image_,
        string memory castHash_
    ) {
        name = name_;
        symbol = symbol_;
        deployer = deployer_;
        fid = fid_;
        image = image_;
        castHash = castHash_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
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
