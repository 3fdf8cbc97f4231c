// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// An ETH/USD feed with Chainlink's AggregatorV3Interface, so USD market caps run against the local
/// chain exactly as against the real feed. Its owner moves the price; each move is a new round.
contract MockAggregatorV3 {
    address public immutable owner;
    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;

    uint80 private _roundId;
    int256 private _answer;
    uint256 private _updatedAt;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    error Unauthorized();

    constructor(uint8 decimals_, string memory description_, int256 answer) {
        owner = msg.sender;
        decimals = decimals_;
        description = description_;
        _setAnswer(answer);
    }

    function setAnswer(int256 answer) external {
        if (msg.sender != owner) revert Unauthorized();
        _setAnswer(answer);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return (_roundId, _answer, _updatedAt, _updatedAt, _roundId);
    }

    function latestAnswer() external view returns (int256) {
        return _answer;
    }

    function _setAnswer(int256 answer) private {
        _roundId += 1;
        _answer = answer;
        _updatedAt = block.timestamp;
        emit AnswerUpdated(answer, _roundId, block.timestamp);
    }
}
