// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Proofs over OpenZeppelin `standard-v1` trees of (address, uint256) leaves, the format clients upload:
/// leaf = keccak256(keccak256(abi.encode(account, amount))) (double hashing so a leaf can never pass
/// as an inner node) and each inner node hashes its two children in ascending order.
library MerkleProof {
    function leaf(address account, uint256 amount) internal pure returns (bytes32) {
        return keccak256(bytes.concat(keccak256(abi.encode(account, amount))));
    }

    function verify(bytes32[] calldata proof, bytes32 root, bytes32 leafHash) internal pure returns (bool) {
        bytes32 node = leafHash;
        for (uint256 i = 0; i < proof.length; i++) {
            bytes32 sibling = proof[i];
            node = node < sibling
                ? keccak256(abi.encodePacked(node, sibling))
                : keccak256(abi.encodePacked(sibling, node));
        }
        return node == root;
    }
}
