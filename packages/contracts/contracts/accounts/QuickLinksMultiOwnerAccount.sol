// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@openzeppelin/contracts/interfaces/IERC1271.sol";
import "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import "@openzeppelin/contracts/proxy/utils/UUPSUpgradeable.sol";
import "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import "aa-v08/accounts/callback/TokenCallbackHandler.sol";
import "aa-v08/core/BaseAccount.sol";
import "aa-v08/core/Helpers.sol";
import "./ReplaySafeSignatures.sol";

/**
 * A smart account with several ECDSA owners and a threshold k stored here: a user operation or an
 * ERC-1271 message is valid only with k distinct owners' signatures (the on-chain side of a
 * multi-owner embedded wallet, docs/signer.md#multi-owner). No owner acts alone: `execute` and
 * `executeBatch` run only for the EntryPoint (a user operation that passed the k-of-n check) or the
 * account itself, and the owners, the threshold and upgrades change only through the account
 * itself, that is through a k-of-n user operation.
 *
 * A signature is the concatenation of 65-byte ECDSA signatures (r, s, v) over the digest (the
 * user-operation hash; for ERC-1271 the account's `replaySafeHash`), ordered by strictly increasing
 * signer address, so no owner counts twice.
 */
contract QuickLinksMultiOwnerAccount is
    BaseAccount,
    TokenCallbackHandler,
    UUPSUpgradeable,
    Initializable,
    ReplaySafeSignatures,
    IERC1271
{
    IEntryPoint private immutable _entryPoint;
    address[] private _owners;
    mapping(address => bool) public isOwner;
    /// @notice How many distinct owners must sign (1 to the owner count).
    uint256 public threshold;

    event OwnersUpdated(address[] added, address[] removed, uint256 threshold);

    constructor(IEntryPoint anEntryPoint) {
        _entryPoint = anEntryPoint;
        _disableInitializers();
    }

    receive() external payable {}

    function initialize(address[] calldata initialOwners, uint256 initialThreshold) external initializer {
        _addOwners(initialOwners);
        _setThreshold(initialThreshold);
        emit OwnersUpdated(initialOwners, new address[](0), initialThreshold);
    }

    /// @inheritdoc BaseAccount
    function entryPoint() public view override returns (IEntryPoint) {
        return _entryPoint;
    }

    /// @notice The owners, in the order they were added (a removal moves the last one into its place).
    function owners() external view returns (address[] memory) {
        return _owners;
    }

    /**
     * @notice Adds, then removes owners, then sets the threshold; only the account itself may call it
     * (a k-of-n user operation), and the threshold must stay between 1 and the owner count.
     */
    function updateOwners(address[] calldata added, address[] calldata removed, uint256 newThreshold) external {
        require(msg.sender == address(this), "only the account");
        _addOwners(added);
        for (uint256 i = 0; i < removed.length; i++) {
            require(isOwner[removed[i]], "not an owner");
            isOwner[removed[i]] = false;
            for (uint256 j = 0; j < _owners.length; j++) {
                if (_owners[j] == removed[i]) {
                    _owners[j] = _owners[_owners.length - 1];
                    _owners.pop();
                    break;
                }
            }
        }
        _setThreshold(newThreshold);
        emit OwnersUpdated(added, removed, newThreshold);
    }

    /// @inheritdoc IERC1271
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return _checkSignatures(replaySafeHash(hash), signature)
            ? IERC1271.isValidSignature.selector
            : bytes4(0xffffffff);
    }

    function _addOwners(address[] calldata added) private {
        for (uint256 i = 0; i < added.length; i++) {
            require(added[i] != address(0) && added[i] != address(this), "invalid owner");
            require(!isOwner[added[i]], "already an owner");
            isOwner[added[i]] = true;
            _owners.push(added[i]);
        }
    }

    function _setThreshold(uint256 newThreshold) private {
        require(_owners.length > 0, "no owners left");
        require(newThreshold >= 1 && newThreshold <= _owners.length, "invalid threshold");
        threshold = newThreshold;
    }

    /**
     * @dev True when `signatures` holds at least `threshold` 65-byte signatures of `digest` by owners,
     * in strictly increasing signer order. Never reverts, and checks every signature even after a
     * bad one, so that a bundler's estimate with placeholder signatures costs what the real check does.
     */
    function _checkSignatures(bytes32 digest, bytes calldata signatures) private view returns (bool) {
        uint256 count = signatures.length / 65;
        bool valid = signatures.length % 65 == 0 && count >= threshold && count > 0;
        address previous = address(0);
        for (uint256 i = 0; i < count; i++) {
            (address signer, ECDSA.RecoverError recoverError,) =
                ECDSA.tryRecover(digest, signatures[i * 65:(i + 1) * 65]);
            if (recoverError != ECDSA.RecoverError.NoError || !isOwner[signer] || signer <= previous) {
                valid = false;
            }
            previous = signer;
        }
        return valid;
    }

    function _validateSignature(PackedUserOperation calldata userOp, bytes32 userOpHash)
        internal
        view
        override
        returns (uint256)
    {
        return _checkSignatures(userOpHash, userOp.signature) ? SIG_VALIDATION_SUCCESS : SIG_VALIDATION_FAILED;
    }

    /// @dev No single owner executes: only a user operation (through the EntryPoint) or the account itself.
    function _requireForExecute() internal view override {
        require(msg.sender == address(_entryPoint) || msg.sender == address(this), "only the EntryPoint or the account");
    }

    function _authorizeUpgrade(address) internal view override {
        require(msg.sender == address(this), "only the account");
    }
}
