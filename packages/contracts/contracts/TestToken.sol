// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title TestToken
/// @notice A plain ERC-20 with configurable decimals for the devnet's stand-ins of USDC and USDT.
/// @dev Only the deploying account may mint, so a devnet user cannot print balances from the web app;
///      the devnet script (and later the relayer's inventory funding) mints as the deployer.
contract TestToken is ERC20 {
    /// @notice Raised when an account other than the deployer calls `mint`.
    error TestTokenUnauthorizedMinter(address caller);

    uint8 private immutable _tokenDecimals;

    /// @notice The only account allowed to mint: whoever deployed the token.
    address public immutable minter;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_) {
        _tokenDecimals = decimals_;
        minter = msg.sender;
    }

    /// @inheritdoc ERC20
    function decimals() public view override returns (uint8) {
        return _tokenDecimals;
    }

    /// @notice Creates `amount` new tokens for `to`.
    function mint(address to, uint256 amount) external {
        if (msg.sender != minter) revert TestTokenUnauthorizedMinter(msg.sender);
        _mint(to, amount);
    }
}
