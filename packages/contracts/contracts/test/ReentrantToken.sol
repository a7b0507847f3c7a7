// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/**
 * @title ReentrantToken
 * @notice Test-only ERC-20 that, once armed, makes one call of the attacker's choosing from inside
 * its next transfer (while the caller is mid-function) and records whether that call succeeded.
 * Anyone may mint. Never deploy outside tests.
 */
contract ReentrantToken is ERC20 {
    address private _target;
    bytes private _data;

    /// @notice Whether the last re-entrant call succeeded, and what it returned or reverted with.
    bool public attackSucceeded;
    bytes public attackResult;
    uint256 public attackCount;

    constructor() ERC20("Reentrant Token", "RENT") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Makes the next transfer call `target` with `data` (once).
    function arm(address target, bytes calldata data) external {
        _target = target;
        _data = data;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        address target = _target;
        if (target == address(0)) return;
        bytes memory data = _data;
        _target = address(0);
        delete _data;
        attackCount += 1;
        (attackSucceeded, attackResult) = target.call(data);
    }
}
