// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import "aa-v08/core/BasePaymaster.sol";
import "aa-v08/core/Helpers.sol";
import "aa-v08/core/UserOperationLib.sol";

/**
 * Pays gas for user operations that the sponsor service approved. The service decides by policy
 * (which accounts, contracts and tokens, fees and gas bounded by the chain's, a daily gas cap per
 * user and per policy) off chain and signs the operation with `verifyingSigner`; this contract
 * checks that signature, the time window, who submits the bundle, and an EIP-7702 sender's delegate.
 *
 * Only the operator's bundlers are paid for: validation reverts unless `tx.origin` is an allowed
 * bundler (the EntryPoint then reverts the whole bundle with AA33). Otherwise anyone holding a
 * signed operation could submit it with their own beneficiary and pocket the gas refund.
 * (ERC-7562 forbids ORIGIN in validation for public mempools; this paymaster serves a private
 * bundler, which runs its simulations from an allowed address, Alto's --eth-call-sender-address,
 * or from none: origin 0, which no signed transaction has.)
 *
 * paymasterAndData = paymaster (20) ‖ validation gas (16) ‖ post-op gas (16) ‖
 *                    abi.encode(uint48 validUntil, uint48 validAfter) (64) ‖ signature (65)
 */
contract SponsorPaymaster is BasePaymaster {

    uint256 private constant VALIDITY_OFFSET = UserOperationLib.PAYMASTER_DATA_OFFSET;
    uint256 private constant SIGNATURE_OFFSET = VALIDITY_OFFSET + 64;
    /// EIP-7702's delegation designator: 0xef0100 ‖ delegate, 23 bytes of code on the EOA.
    bytes3 private constant EIP7702_PREFIX = 0xef0100;
    uint256 private constant EIP7702_CODE_LENGTH = 23;

    address public verifyingSigner;
    /// The EOAs whose transactions may carry sponsored operations (the bundler's executors).
    mapping(address => bool) public isBundler;

    event VerifyingSignerChanged(address indexed previousSigner, address indexed newSigner);
    event BundlerChanged(address indexed bundler, bool allowed);

    /**
     * @param owner_ who may change the signer and the bundlers and move the deposit and stake (not
     *        msg.sender: deployed by CREATE2).
     * @param bundlers the bundler executor addresses allowed from the start.
     */
    constructor(IEntryPoint anEntryPoint, address signer, address owner_, address[] memory bundlers)
        BasePaymaster(anEntryPoint)
    {
        verifyingSigner = signer;
        for (uint256 i = 0; i < bundlers.length; i++) {
            isBundler[bundlers[i]] = true;
            emit BundlerChanged(bundlers[i], true);
        }
        _transferOwnership(owner_);
    }

    function setVerifyingSigner(address signer) external onlyOwner {
        emit VerifyingSignerChanged(verifyingSigner, signer);
        verifyingSigner = signer;
    }

    /// @notice Allows or stops a bundler executor (the transaction origin of the bundles).
    function setBundler(address bundler, bool allowed) external onlyOwner {
        isBundler[bundler] = allowed;
        emit BundlerChanged(bundler, allowed);
    }

    /**
     * @notice The EIP-7702 delegate of `account` (its code is 0xef0100 ‖ delegate), or address(0)
     *         when its code is anything else (a contract, or no code).
     */
    function senderDelegate(address account) public view returns (address delegate) {
        if (account.code.length != EIP7702_CODE_LENGTH) return address(0);
        bytes32 code;
        assembly ("memory-safe") {
            let free := mload(0x40)
            extcodecopy(account, free, 0, 23)
            code := mload(free)
        }
        if (bytes3(code) != EIP7702_PREFIX) return address(0);
        return address(bytes20(code << 24));
    }

    /**
     * @notice The hash the sponsor service signs (as an EIP-191 message) for `userOp`, the sender's
     *         EIP-7702 delegate (address(0) for a smart account) and the window. Validation takes
     *         `delegate` from the sender's code at that moment, so re-delegating after the service
     *         signed makes the signature fail.
     */
    function getHash(PackedUserOperation calldata userOp, address delegate, uint48 validUntil, uint48 validAfter)
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
                delegate,
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
        // Origin 0 is a bundler's eth_call simulation without a sender (Alto's filterOps runs so):
        // no signed transaction has it, so no outsider can submit a bundle as it.
        // solhint-disable-next-line avoid-tx-origin
        require(isBundler[tx.origin] || tx.origin == address(0), "SponsorPaymaster: not an allowed bundler");
        (uint48 validUntil, uint48 validAfter, bytes calldata signature) = parsePaymasterAndData(userOp.paymasterAndData);
        require(signature.length == 64 || signature.length == 65, "SponsorPaymaster: bad signature length");
        bytes32 hash = getHash(userOp, senderDelegate(userOp.sender), validUntil, validAfter);
        (address signer, ECDSA.RecoverError recoverError,) =
            ECDSA.tryRecover(MessageHashUtils.toEthSignedMessageHash(hash), signature);
        bool failed = recoverError != ECDSA.RecoverError.NoError || signer != verifyingSigner;
        return ("", _packValidationData(failed, validUntil, validAfter));
    }
}
