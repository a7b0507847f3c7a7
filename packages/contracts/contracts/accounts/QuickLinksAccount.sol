// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@openzeppelin/contracts/interfaces/IERC1271.sol";
import "aa-v08/accounts/SimpleAccount.sol";
import "./ReplaySafeSignatures.sol";

/**
 * The embedded wallet's single-owner smart account: the published ERC-4337 v0.8 `SimpleAccount`
 * (one ECDSA owner signs the EIP-712 user-operation hash; `execute`/`executeBatch` from the
 * EntryPoint or the owner; UUPS upgradable by the owner) plus ERC-1271 over replay-safe digests,
 * so apps (and our own sign-in) can verify messages signed as the account.
 */
contract QuickLinksAccount is SimpleAccount, ReplaySafeSignatures, IERC1271 {
    constructor(IEntryPoint anEntryPoint) SimpleAccount(anEntryPoint) {}

    /// @inheritdoc IERC1271
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        address signer = _recoverReplaySafe(hash, signature);
        return signer != address(0) && signer == owner ? IERC1271.isValidSignature.selector : bytes4(0xffffffff);
    }
}
