// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import "aa-v08/core/BasePaymaster.sol";
import "aa-v08/core/Helpers.sol";
import "aa-v08/core/UserOperationLib.sol";

/**
 * Pays gas for user operations that the sponsor service approved. The service decides by policy
 * (which accounts, contracts and tokens, a daily gas cap per user) off chain and signs the
 * operation with `verifyingSigner`; this contract checks that signature and the time window.
 *
 * paymasterAndData = paymaster (20) ‖ validation gas (16) ‖ post-op gas (16) ‖
 *                    abi.encode(uint48 validUntil, uint48 validAfter) (64) ‖ signature (65)
 */
contract SponsorPaymaster is BasePaymaster {

    uint256 private constant VALIDITY_OFFSET = UserOperationLib.PAYMASTER_DATA_OFFSET;
    uint256 private constant SIGNATURE_OFFSET = VALIDITY_OFFSET + 64;

    address public verifyingSigner;

    event VerifyingSignerChanged(address indexed previousSigner, address indexed newSigner);

    /// @param owner_ who may change the signer and move the deposit and stake (not msg.sender: deployed by CREATE2).
    constructor(IEntryPoint anEntryPoint, address signer, address owner_) BasePaymaster(anEntryPoint) {
        verifyingSigner = signer;
        _transferOwnership(owner_);
    }

    function setVerifyingSigner(address signer) external onlyOwner {
        emit VerifyingSignerChanged(verifyingSigner, signer);
        verifyingSigner = signer;
    }

    /// @notice The hash the sponsor service signs (as an EIP-191 message) for `userOp` and the window.
    function getHash(PackedUserOperation calldata userOp, uint48 validUntil, uint48 validAfter)
        public
        view
        returns (bytes32)
    {
        return keccak256(
            abi.encode(
                userOp.sender,
                userOp.nonce,
                keccak256(userOp.initCode),
                keccak256(userOp.callData),
                userOp.accountGasLimits,
                uint256(bytes32(userOp.paymasterAndData[UserOperationLib.PAYMASTER_VALIDATION_GAS_OFFSET:VALIDITY_OFFSET])),
                userOp.preVerificationGas,
                userOp.gasFees,
                block.chainid,
                address(this),
                validUntil,
                validAfter
            )
        );
    }

    function parsePaymasterAndData(bytes calldata paymasterAndData)
        public
        pure
        returns (uint48 validUntil, uint48 validAfter, bytes calldata signature)
    {
        (validUntil, validAfter) = abi.decode(paymasterAndData[VALIDITY_OFFSET:SIGNATURE_OFFSET], (uint48, uint48));
        signature = paymasterAndData[SIGNATURE_OFFSET:];
    }

    function _validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32, uint256)
        internal
        view
        override
        returns (bytes memory context, uint256 validationData)
    {
        (uint48 validUntil, uint48 validAfter, bytes calldata signature) = parsePaymasterAndData(userOp.paymasterAndData);
        require(signature.length == 64 || signature.length == 65, "SponsorPaymaster: bad signature length");
        bytes32 digest = MessageHashUtils.toEthSignedMessageHash(getHash(userOp, validUntil, validAfter));
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(digest, signature);
        bool failed = recoverError != ECDSA.RecoverError.NoError || signer != verifyingSigner;
        return ("", _packValidationData(failed, validUntil, validAfter));
    }
}
