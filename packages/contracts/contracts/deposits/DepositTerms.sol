// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @notice Everything a deposit address commits to. The factory deploys a deposit's forwarder with
 * CREATE2 from these terms (salt: their hash; init code: the forwarder with the terms as its
 * constructor arguments), so the address itself is the commitment: another receiver, chain, token,
 * refund address or expiry gives another address. None of them is chain-specific, so one deposit has
 * one address on every chain where the factory sits at one address.
 */
struct DepositTerms {
    /// @notice The server's id of the deposit (bytes32 of its UUID).
    bytes32 depositId;
    /// @notice The PayRouter the forwarder pays through (the same address on every devnet chain).
    address payRouter;
    /// @notice The link's receiver: the only address a forward can pay.
    address receiver;
    /// @notice The link's chain: a forward on another chain escrows for the relayer to fill there.
    uint256 destinationChainId;
    /// @notice The link's token on that chain (address(0) for its native currency).
    address destinationToken;
    /// @notice Where refunds go; address(0) when the payer gave none (then the transfer's sender).
    address refundAddress;
    /// @notice Unix seconds: forwards end and refunds open to anyone.
    uint64 expiresAt;
}

/// @notice The parameters of one forward that the deposit's terms leave to the operator's quote.
struct ForwardRoute {
    /// @notice The route intent's id (PayRouter's bytes32), under which the payment is tracked.
    bytes32 intentId;
    /// @notice Uniswap V2 path for a swap (same chain) or into the escrow token (cross-chain); empty otherwise.
    address[] path;
    /// @notice Same chain: the least the receiver gets; cross-chain: the least the relayer must fill.
    uint256 minAmountOut;
    /// @notice Cross-chain only: the least escrow the source swap must yield.
    uint256 minEscrowAmount;
    /// @notice Same chain: the swap's deadline; cross-chain: the fill deadline.
    uint64 deadline;
}

/// @notice The calls of PayRouter a forwarder makes; the receiver, chain and token come from the terms.
interface IDepositPayRouter {
    function pay(bytes32 intentId, address token, uint256 amount, address receiver) external payable;

    function swapAndPay(
        bytes32 intentId,
        address tokenIn,
        uint256 amountIn,
        address[] calldata path,
        address tokenOut,
        uint256 amountOutMin,
        address receiver,
        uint256 deadline
    ) external payable returns (uint256 amountOut);

    function deposit(
        bytes32 intentId,
        address tokenIn,
        uint256 amountIn,
        address[] calldata swapPath,
        uint256 minEscrowAmount,
        uint256 destinationChainId,
        address destinationToken,
        uint256 minAmountOut,
        address receiver,
        uint64 fillDeadline
    ) external payable returns (bytes32 orderKey);
}
