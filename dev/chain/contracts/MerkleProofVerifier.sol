// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {MerkleProof} from "./MerkleProof.sol";

/// Lets tests check that the proofs the service serves verify on chain, exactly as the airdrop and
/// presale contracts verify them.
contract MerkleProofVerifier {
    function verify(bytes32[] calldata proof, bytes32 root, address account, uint256 amount)
        external
        pure
        returns (bool)
    {
        return MerkleProof.verify(proof, root, MerkleProof.leaf(account, amount));
    }

    function leaf(address account, uint256 amount) external pure returns (bytes32) {
        return MerkleProof.leaf(account, amount);
    }
}
