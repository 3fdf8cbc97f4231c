// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {TokenTransfers} from "./Types.sol";

/// Holds LP rewards per (fee owner, token) until the owner claims them. Only depositors (the LP
/// lockers) can store fees. Events, as the service indexes them:
///   StoreTokens(address indexed sender, address indexed feeOwner, address indexed token, uint256 balance, uint256 amount)
///   ClaimTokens(address indexed feeOwner, address indexed token, uint256 amountClaimed)
/// A claim always pays the fee owner, so anyone may trigger it. The owner is immutable, so the runtime code can
/// be installed at any address (the local chain puts it at the platform's).
contract FeeLocker {
    address public immutable owner;
    mapping(address depositor => bool) public allowedDepositors;
    mapping(address feeOwner => mapping(address token => uint256 balance)) public feesToClaim;

    event StoreTokens(
        address indexed sender, address indexed feeOwner, address indexed token, uint256 balance, uint256 amount
    );
    event ClaimTokens(address indexed feeOwner, address indexed token, uint256 amountClaimed);
    event AddDepositor(address indexed depositor);

    error Unauthorized();
    error NoFeesToClaim();

    constructor(address owner_) {
        owner = owner_;
    }

    function addDepositor(address depositor) external {
        if (msg.sender != owner) revert Unauthorized();
        allowedDepositors[depositor] = true;
        emit AddDepositor(depositor);
    }

    function storeFees(address feeOwner, address token, uint256 amount) external {
        if (!allowedDepositors[msg.sender]) revert Unauthorized();
        TokenTransfers.pull(token, msg.sender, address(this), amount);
        uint256 balance = feesToClaim[feeOwner][token] + amount;
        feesToClaim[feeOwner][token] = balance;
        emit StoreTokens(msg.sender, feeOwner, token, balance, amount);
    }

    function claim(address feeOwner, address token) external {
        uint256 amount = feesToClaim[feeOwner][token];
        if (amount == 0) revert NoFeesToClaim();
        feesToClaim[feeOwner][token] = 0;
        TokenTransfers.send(token, feeOwner, amount);
        emit ClaimTokens(feeOwner, token, amount);
    }

    function availableFees(address feeOwner, address token) external view returns (uint256) {
        return feesToClaim[feeOwner][token];
    }
}
