// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {DepositTerms, ForwardRoute, IDepositPayRouter} from "./DepositTerms.sol";

/**
 * @title DepositForwarder
 * @notice A deposit address: whatever arrives here (any ERC-20, or native currency) can only
 * (i) go into the PayRouter route of its terms, to the receiver, chain and token fixed at
 * deployment, before expiry; or (ii) go back to the refund address of its terms, or, when the payer
 * gave none, to the sender the operator names, the latter only after expiry. There is no other
 * call that moves funds: no owner, no upgrade, no arbitrary call, no self-destruct. The operator
 * (the server's deposit key) chooses only the route's quote (intent id, swap path, minimums,
 * deadline), exactly as the server quotes a wallet payment's route.
 */
contract DepositForwarder is ReentrancyGuard {
    using SafeERC20 for IERC20;

    address public immutable factory;
    address public immutable operator;
    bytes32 public immutable depositId;
    address public immutable payRouter;
    address public immutable receiver;
    uint256 public immutable destinationChainId;
    address public immutable destinationToken;
    address public immutable refundAddress;
    uint64 public immutable expiresAt;

    event Forwarded(bytes32 indexed depositId, bytes32 indexed intentId, address token, uint256 amount);
    event RefundSent(bytes32 indexed depositId, address indexed to, address token, uint256 amount);

    constructor(address operator_, DepositTerms memory terms) {
        require(terms.payRouter != address(0) && terms.receiver != address(0), "DepositForwarder: zero address");
        factory = msg.sender;
        operator = operator_;
        depositId = terms.depositId;
        payRouter = terms.payRouter;
        receiver = terms.receiver;
        destinationChainId = terms.destinationChainId;
        destinationToken = terms.destinationToken;
        refundAddress = terms.refundAddress;
        expiresAt = terms.expiresAt;
    }

    /// @notice Native deposits arrive as plain transfers; an unfilled escrow's refund comes back here too.
    receive() external payable {}

    modifier onlyOperator() {
        require(msg.sender == operator || msg.sender == factory, "DepositForwarder: not operator");
        _;
    }

    /**
     * @notice Pays `amount` of `token` (address(0): native) held here into this deposit's route:
     * PayRouter.pay (same chain, the link's token), swapAndPay (same chain, another token) or
     * deposit (another chain: escrow for the relayer to fill the receiver there). Before expiry only.
     */
    function forward(address token, uint256 amount, ForwardRoute calldata route) external nonReentrant onlyOperator {
        require(block.timestamp < expiresAt, "DepositForwarder: expired");
        require(amount > 0, "DepositForwarder: zero amount");
        uint256 value = 0;
        if (token == address(0)) {
            value = amount;
        } else {
            IERC20(token).forceApprove(payRouter, amount);
        }
        IDepositPayRouter router = IDepositPayRouter(payRouter);
        if (destinationChainId == block.chainid) {
            if (token == destinationToken) {
                require(route.path.length == 0, "DepositForwarder: bad path");
                router.pay{value: value}(route.intentId, token, amount, receiver);
            } else {
                router.swapAndPay{value: value}(
                    route.intentId, token, amount, route.path, destinationToken, route.minAmountOut, receiver, route.deadline
                );
            }
        } else {
            router.deposit{value: value}(
                route.intentId,
                token,
                amount,
                route.path,
                route.minEscrowAmount,
                destinationChainId,
                destinationToken,
                route.minAmountOut,
                receiver,
                route.deadline
            );
        }
        if (token != address(0)) IERC20(token).forceApprove(payRouter, 0);
        emit Forwarded(depositId, route.intentId, token, amount);
    }

    /**
     * @notice Sends this deposit's whole balance of `token` to its refund address. The operator may
     * do it at any time (a token it cannot route); anyone may once the deposit has expired.
     */
    function refund(address token) external nonReentrant {
        require(refundAddress != address(0), "DepositForwarder: no refund address");
        require(
            block.timestamp >= expiresAt || msg.sender == operator || msg.sender == factory,
            "DepositForwarder: not expired"
        );
        _sendAll(token, refundAddress);
    }

    /**
     * @notice Without a refund address in its terms, the operator sends `amount` of `token` back to
     * `sender`, the address a transfer came from (read from the chain), after expiry only.
     */
    function refundToSender(address token, uint256 amount, address sender)
        external
        nonReentrant
        onlyOperator
    {
        require(refundAddress == address(0), "DepositForwarder: refund address set");
        require(block.timestamp >= expiresAt, "DepositForwarder: not expired");
        require(sender != address(0), "DepositForwarder: zero sender");
        _send(token, sender, amount);
    }

    function _sendAll(address token, address to) private {
        uint256 amount = token == address(0) ? address(this).balance : IERC20(token).balanceOf(address(this));
        require(amount > 0, "DepositForwarder: nothing to refund");
        _send(token, to, amount);
    }

    function _send(address token, address to, uint256 amount) private {
        emit RefundSent(depositId, to, token, amount);
        if (token == address(0)) {
            (bool success,) = to.call{value: amount}("");
            require(success, "DepositForwarder: native transfer failed");
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }
}
