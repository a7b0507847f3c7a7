// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/**
 * ERC-1271 digests bound to one account on one chain. A hash an app asks the account to sign is
 * wrapped as EIP-712 data of this account (`QuickLinksMessage(bytes32 hash)` in the domain
 * `QuickLinksAccount`, version 1, this chain, this address) before the owner's key signs it, so a
 * signature made for one account cannot be replayed as another account of the same owner.
 */
abstract contract ReplaySafeSignatures {
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant MESSAGE_TYPEHASH = keccak256("QuickLinksMessage(bytes32 hash)");
    bytes32 private constant NAME_HASH = keccak256("QuickLinksAccount");
    bytes32 private constant VERSION_HASH = keccak256("1");

    /// @notice The digest an owner signs so that `hash` is valid for this account (ERC-1271).
    function replaySafeHash(bytes32 hash) public view returns (bytes32) {
        bytes32 domainSeparator =
            keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
        return keccak256(
            abi.encodePacked("\x19\x01", domainSeparator, keccak256(abi.encode(MESSAGE_TYPEHASH, hash)))
        );
    }

    /// @dev The signer of `replaySafeHash(hash)`, or address(0) for a malformed signature.
    function _recoverReplaySafe(bytes32 hash, bytes memory signature) internal view returns (address) {
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(replaySafeHash(hash), signature);
        return recoverError == ECDSA.RecoverError.NoError ? signer : address(0);
    }
}
