// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @title ReentrantReceiver
 * @notice Test-only contract account: it can act as a payer (`execute` forwards a call with value)
 * and, once armed, makes one call of the attacker's choosing when it receives native currency,
 * recording whether that call succeeded instead of reverting. Never deploy outside tests.
 */
contract ReentrantReceiver {
    address private _target;
    bytes private _data;

    /// @notice Whether the last re-entrant call succeeded, and what it returned or reverted with.
    bool public attackSucceeded;
    bytes public attackResult;
    uint256 public attackCount;

    /// @notice Calls `target` with `data` and `msg.value`, bubbling up a revert.
    function execute(address target, bytes calldata data) external payable returns (bytes memory) {
        (bool success, bytes memory result) = target.call{value: msg.value}(data);
        if (!success) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        return result;
    }

    /// @notice Makes the next native payment to this contract call `target` with `data` (once).
    function arm(address target, bytes calldata data) external {
        _target = target;
        _data = data;
    }

    receive() external payable {
        address target = _target;
        if (target == address(0)) return;
        bytes memory data = _data;
        _target = address(0);
        delete _data;
        attackCount += 1;
        (attackSucceeded, attackResult) = target.call(data);
    }
}
