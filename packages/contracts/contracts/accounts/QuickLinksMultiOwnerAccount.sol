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
 * A smart account with several ECDSA owners, any one of which signs user operations and ERC-1271
 * messages (the on-chain side of a multi-owner embedded wallet; the quorum that decides what gets
 * signed lives in the signer service). The owner set changes only through the account itself
 * (`updateOwners` in a user operation) and never becomes empty.
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

    event OwnersUpdated(address[] added, address[] removed);

    constructor(IEntryPoint anEntryPoint) {
        _entryPoint = anEntryPoint;
        _disableInitializers();
    }

    receive() external payable {}

    function initialize(address[] calldata initialOwners) external initializer {
        require(initialOwners.length > 0, "no owners");
        _addOwners(initialOwners);
        emit OwnersUpdated(initialOwners, new address[](0));
    }

    /// @inheritdoc BaseAccount
    function entryPoint() public view override returns (IEntryPoint) {
        return _entryPoint;
    }

    /// @notice The owners, in the order they were added (a removal moves the last one into its place).
    function owners() external view returns (address[] memory) {
        return _owners;
    }

    /// @notice Adds then removes owners; only the account itself may call it, and one owner must remain.
    function updateOwners(address[] calldata added, address[] calldata removed) external {
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
        require(_owners.length > 0, "no owners left");
        emit OwnersUpdated(added, removed);
    }

    /// @inheritdoc IERC1271
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        address signer = _recoverReplaySafe(hash, signature);
        return signer != address(0) && isOwner[signer] ? IERC1271.isValidSignature.selector : bytes4(0xffffffff);
    }

    function _addOwners(address[] calldata added) private {
        for (uint256 i = 0; i < added.length; i++) {
            require(added[i] != address(0) && added[i] != address(this), "invalid owner");
            require(!isOwner[added[i]], "already an owner");
            isOwner[added[i]] = true;
            _owners.push(added[i]);
        }
    }

    function _validateSignature(PackedUserOperation calldata userOp, bytes32 userOpHash)
        internal
        view
        override
        returns (uint256)
    {
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(userOpHash, userOp.signature);
        return recoverError == ECDSA.RecoverError.NoError && isOwner[signer] ? SIG_VALIDATION_SUCCESS : SIG_VALIDATION_FAILED;
    }

    function _requireForExecute() internal view override {
        require(msg.sender == address(_entryPoint) || isOwner[msg.sender], "not an owner or the EntryPoint");
    }

    function _authorizeUpgrade(address) internal view override {
        require(msg.sender == address(this), "only the account");
    }
}
