// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import "@openzeppelin/contracts/utils/Create2.sol";
import "./QuickLinksAccount.sol";

/**
 * Deploys `QuickLinksAccount` proxies at CREATE2 addresses that depend only on the owner and the
 * salt, so an account has one address on every chain where this factory sits at one address.
 * Unlike the published v0.8 sample factory, anyone may call `createAccount`: the result is fixed
 * by its arguments, and ERC-6492 verifiers must be able to deploy an account to check its
 * signature.
 */
contract QuickLinksAccountFactory {
    QuickLinksAccount public immutable accountImplementation;

    constructor(IEntryPoint entryPoint) {
        accountImplementation = new QuickLinksAccount(entryPoint);
    }

    /// @notice Deploys the account (or returns it when it exists already).
    function createAccount(address owner, uint256 salt) external returns (QuickLinksAccount) {
        address account = getAddress(owner, salt);
        if (account.code.length == 0) {
            new ERC1967Proxy{salt: bytes32(salt)}(
                address(accountImplementation), abi.encodeCall(SimpleAccount.initialize, (owner))
            );
        }
        return QuickLinksAccount(payable(account));
    }

    /// @notice The counterfactual address `createAccount(owner, salt)` deploys to.
    function getAddress(address owner, uint256 salt) public view returns (address) {
        bytes memory initCode = abi.encodePacked(
            type(ERC1967Proxy).creationCode,
            abi.encode(address(accountImplementation), abi.encodeCall(SimpleAccount.initialize, (owner)))
        );
        return Create2.computeAddress(bytes32(salt), keccak256(initCode));
    }
}
