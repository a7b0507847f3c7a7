// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import "@openzeppelin/contracts/utils/Create2.sol";
import "./QuickLinksMultiOwnerAccount.sol";

/**
 * Deploys `QuickLinksMultiOwnerAccount` proxies at CREATE2 addresses fixed by the initial owners,
 * the initial threshold and the salt (the same on every chain where this factory has one address).
 * Anyone may call `createAccount`, as ERC-6492 verifiers need to.
 */
contract QuickLinksMultiOwnerAccountFactory {
    QuickLinksMultiOwnerAccount public immutable accountImplementation;

    constructor(IEntryPoint entryPoint) {
        accountImplementation = new QuickLinksMultiOwnerAccount(entryPoint);
    }

    function createAccount(address[] calldata owners, uint256 threshold, uint256 salt)
        external
        returns (QuickLinksMultiOwnerAccount)
    {
        address account = getAddress(owners, threshold, salt);
        if (account.code.length == 0) {
            new ERC1967Proxy{salt: bytes32(salt)}(address(accountImplementation), _initializer(owners, threshold));
        }
        return QuickLinksMultiOwnerAccount(payable(account));
    }

    function getAddress(address[] calldata owners, uint256 threshold, uint256 salt) public view returns (address) {
        bytes memory initCode = abi.encodePacked(
            type(ERC1967Proxy).creationCode, abi.encode(address(accountImplementation), _initializer(owners, threshold))
        );
        return Create2.computeAddress(bytes32(salt), keccak256(initCode));
    }

    function _initializer(address[] calldata owners, uint256 threshold) private pure returns (bytes memory) {
        return abi.encodeCall(QuickLinksMultiOwnerAccount.initialize, (owners, threshold));
    }
}
