// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {IUniswapV2Router02} from "@uniswap/v2-periphery/contracts/interfaces/IUniswapV2Router02.sol";

/**
 * @title PayRouter
 * @notice Pays a link's receiver with an intent id: a plain payment, a swap through Uniswap V2 and
 * payment in one transaction, or a cross-chain intent (the payer escrows a deposit on the source
 * chain, the relayer fills the receiver on the destination chain from its own inventory and then
 * settles the escrow to itself; an unfilled deposit is refundable to the payer after its deadline).
 * `address(0)` stands for the chain's native currency everywhere; Uniswap paths use the wrapped
 * native token for native legs.
 */
contract PayRouter is ReentrancyGuard {
    using SafeERC20 for IERC20;

    enum DepositState {
        None,
        Open,
        Settled,
        Refunded
    }

    struct Deposit {
        address payer;
        uint64 fillDeadline;
        DepositState state;
        address token;
        uint256 amount;
    }

    address public immutable uniswapV2Router;
    address public immutable wrappedNative;
    /// @notice The only account that may fill intents and settle escrows.
    address public immutable relayer;

    mapping(bytes32 intentId => Deposit) private _deposits;
    /// @notice Whether the relayer has filled the intent on this (destination) chain.
    mapping(bytes32 intentId => bool) public filled;

    event Paid(
        bytes32 indexed intentId, address indexed payer, address indexed receiver, address token, uint256 amount
    );
    event SwappedAndPaid(
        bytes32 indexed intentId,
        address indexed payer,
        address indexed receiver,
        address tokenIn,
        uint256 amountIn,
        address tokenOut,
        uint256 amountOut
    );
    event Deposited(
        bytes32 indexed intentId,
        address indexed payer,
        address escrowToken,
        uint256 escrowAmount,
        uint256 destinationChainId,
        address destinationToken,
        uint256 minAmountOut,
        address receiver,
        uint64 fillDeadline
    );
    event Settled(bytes32 indexed intentId);
    event Refunded(bytes32 indexed intentId, address indexed payer, address token, uint256 amount);
    event Filled(
        bytes32 indexed intentId,
        address indexed relayer,
        address indexed receiver,
        address token,
        uint256 amount,
        uint256 sourceChainId
    );

    modifier onlyRelayer() {
        require(msg.sender == relayer, "PayRouter: not relayer");
        _;
    }

    constructor(address uniswapV2Router_, address wrappedNative_, address relayer_) {
        require(
            uniswapV2Router_ != address(0) && wrappedNative_ != address(0) && relayer_ != address(0),
            "PayRouter: zero address"
        );
        uniswapV2Router = uniswapV2Router_;
        wrappedNative = wrappedNative_;
        relayer = relayer_;
    }

    /// @dev Native currency only arrives from the router, as the output of swapExactTokensForETH.
    receive() external payable {
        require(msg.sender == uniswapV2Router, "PayRouter: unexpected native transfer");
    }

    /// @notice Same chain, same token: pays `amount` of `token` (native: msg.value) to `receiver`.
    function pay(bytes32 intentId, address token, uint256 amount, address receiver) external payable nonReentrant {
        require(receiver != address(0), "PayRouter: zero receiver");
        require(amount > 0, "PayRouter: zero amount");
        emit Paid(intentId, msg.sender, receiver, token, amount);
        if (token == address(0)) {
            require(msg.value == amount, "PayRouter: bad value");
            _sendNative(receiver, amount);
        } else {
            require(msg.value == 0, "PayRouter: bad value");
            IERC20(token).safeTransferFrom(msg.sender, receiver, amount);
        }
    }

    /**
     * @notice Same chain, other token: swaps `amountIn` of `tokenIn` along `path` and pays what the
     * swap yielded (at least `amountOutMin`) in `tokenOut` to `receiver`.
     */
    function swapAndPay(
        bytes32 intentId,
        address tokenIn,
        uint256 amountIn,
        address[] calldata path,
        address tokenOut,
        uint256 amountOutMin,
        address receiver,
        uint256 deadline
    ) external payable nonReentrant returns (uint256 amountOut) {
        require(receiver != address(0), "PayRouter: zero receiver");
        amountOut = _swapToSelf(tokenIn, amountIn, path, tokenOut, amountOutMin, deadline);
        emit SwappedAndPaid(intentId, msg.sender, receiver, tokenIn, amountIn, tokenOut, amountOut);
        _send(tokenOut, receiver, amountOut);
    }

    /**
     * @notice Cross-chain, source side: escrows `amountIn` of `tokenIn`, or what swapping it along
     * `swapPath` yields in the path's last token (at least `minEscrowAmount`), for the relayer to
     * fill `receiver` with `minAmountOut` of `destinationToken` on `destinationChainId` before
     * `fillDeadline`.
     */
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
    ) external payable nonReentrant {
        require(_deposits[intentId].state == DepositState.None, "PayRouter: intent exists");
        require(receiver != address(0), "PayRouter: zero receiver");
        require(amountIn > 0, "PayRouter: zero amount");
        require(fillDeadline > block.timestamp, "PayRouter: deadline passed");

        address escrowToken = swapPath.length == 0 ? tokenIn : swapPath[swapPath.length - 1];
        Deposit storage escrow = _deposits[intentId];
        escrow.payer = msg.sender;
        escrow.fillDeadline = fillDeadline;
        escrow.state = DepositState.Open;
        escrow.token = escrowToken;

        uint256 escrowAmount;
        if (swapPath.length == 0) {
            escrowAmount = _pullToSelf(tokenIn, amountIn);
        } else {
            escrowAmount = _swapToSelf(tokenIn, amountIn, swapPath, escrowToken, minEscrowAmount, block.timestamp);
        }
        require(escrowAmount >= minEscrowAmount, "PayRouter: slippage");
        escrow.amount = escrowAmount;

        emit Deposited(
            intentId,
            msg.sender,
            escrowToken,
            escrowAmount,
            destinationChainId,
            destinationToken,
            minAmountOut,
            receiver,
            fillDeadline
        );
    }

    /// @notice Releases an open escrow to the relayer once it has filled the intent elsewhere.
    function settle(bytes32 intentId) external nonReentrant onlyRelayer {
        Deposit storage escrow = _deposits[intentId];
        require(escrow.state != DepositState.None, "PayRouter: unknown intent");
        require(escrow.state == DepositState.Open, "PayRouter: not open");
        escrow.state = DepositState.Settled;
        emit Settled(intentId);
        _send(escrow.token, relayer, escrow.amount);
    }

    /// @notice Pays an open escrow back to its payer; anyone may call it once the fill deadline has passed.
    function refund(bytes32 intentId) external nonReentrant {
        Deposit storage escrow = _deposits[intentId];
        require(escrow.state != DepositState.None, "PayRouter: unknown intent");
        require(escrow.state == DepositState.Open, "PayRouter: not open");
        require(block.timestamp > escrow.fillDeadline, "PayRouter: deadline not passed");
        escrow.state = DepositState.Refunded;
        emit Refunded(intentId, escrow.payer, escrow.token, escrow.amount);
        _send(escrow.token, escrow.payer, escrow.amount);
    }

    /**
     * @notice Cross-chain, destination side: the relayer pays `receiver` from its own inventory,
     * directly (empty `swapPath`, `tokenIn == tokenOut`) or by swapping `amountIn` of `tokenIn`
     * along `swapPath`; at least `minAmountOut` of `tokenOut`, once per intent.
     */
    function fill(
        bytes32 intentId,
        address tokenIn,
        uint256 amountIn,
        address[] calldata swapPath,
        address tokenOut,
        uint256 minAmountOut,
        address receiver,
        uint256 sourceChainId
    ) external payable nonReentrant onlyRelayer returns (uint256 amountOut) {
        require(!filled[intentId], "PayRouter: already filled");
        require(receiver != address(0), "PayRouter: zero receiver");
        require(amountIn > 0, "PayRouter: zero amount");
        filled[intentId] = true;

        if (swapPath.length == 0) {
            require(tokenIn == tokenOut, "PayRouter: bad path");
            require(msg.value == (tokenIn == address(0) ? amountIn : 0), "PayRouter: bad value");
            require(amountIn >= minAmountOut, "PayRouter: slippage");
            amountOut = amountIn;
            emit Filled(intentId, msg.sender, receiver, tokenOut, amountOut, sourceChainId);
            if (tokenIn == address(0)) {
                _sendNative(receiver, amountOut);
            } else {
                IERC20(tokenIn).safeTransferFrom(msg.sender, receiver, amountOut);
            }
        } else {
            amountOut = _swapToSelf(tokenIn, amountIn, swapPath, tokenOut, minAmountOut, block.timestamp);
            emit Filled(intentId, msg.sender, receiver, tokenOut, amountOut, sourceChainId);
            _send(tokenOut, receiver, amountOut);
        }
    }

    /// @notice The escrow of an intent: state 0 none, 1 open, 2 settled, 3 refunded.
    function deposits(bytes32 intentId)
        external
        view
        returns (address payer, address token, uint256 amount, uint64 fillDeadline, uint8 state)
    {
        Deposit storage escrow = _deposits[intentId];
        return (escrow.payer, escrow.token, escrow.amount, escrow.fillDeadline, uint8(escrow.state));
    }

    /// @dev Takes `amount` of `token` from the caller (native: msg.value) and returns what arrived.
    function _pullToSelf(address token, uint256 amount) private returns (uint256 received) {
        if (token == address(0)) {
            require(msg.value == amount, "PayRouter: bad value");
            return amount;
        }
        require(msg.value == 0, "PayRouter: bad value");
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
        return IERC20(token).balanceOf(address(this)) - before;
    }

    /**
     * @dev Swaps the caller's `amountIn` of `tokenIn` along `path` into this contract and returns the
     * measured output in `tokenOut` (native when `tokenOut` is zero and the path ends in the wrapped
     * native token). Reverts when the ends of the path do not match the tokens, when msg.value does
     * not match, and when the output is below `amountOutMin`.
     */
    function _swapToSelf(
        address tokenIn,
        uint256 amountIn,
        address[] calldata path,
        address tokenOut,
        uint256 amountOutMin,
        uint256 deadline
    ) private returns (uint256 amountOut) {
        require(amountIn > 0, "PayRouter: zero amount");
        require(path.length >= 2, "PayRouter: bad path");
        require(tokenIn != tokenOut, "PayRouter: bad path");
        require(path[0] == (tokenIn == address(0) ? wrappedNative : tokenIn), "PayRouter: bad path");
        require(
            path[path.length - 1] == (tokenOut == address(0) ? wrappedNative : tokenOut), "PayRouter: bad path"
        );
        require(msg.value == (tokenIn == address(0) ? amountIn : 0), "PayRouter: bad value");

        uint256 before = _balanceOfSelf(tokenOut);
        IUniswapV2Router02 router = IUniswapV2Router02(uniswapV2Router);
        if (tokenIn == address(0)) {
            router.swapExactETHForTokens{value: amountIn}(amountOutMin, path, address(this), deadline);
        } else {
            uint256 received = _pullToSelf(tokenIn, amountIn);
            IERC20(tokenIn).forceApprove(address(router), received);
            if (tokenOut == address(0)) {
                router.swapExactTokensForETH(received, amountOutMin, path, address(this), deadline);
            } else {
                router.swapExactTokensForTokens(received, amountOutMin, path, address(this), deadline);
            }
        }
        amountOut = _balanceOfSelf(tokenOut) - before;
        require(amountOut >= amountOutMin, "PayRouter: slippage");
    }

    function _balanceOfSelf(address token) private view returns (uint256) {
        return token == address(0) ? address(this).balance : IERC20(token).balanceOf(address(this));
    }

    function _send(address token, address to, uint256 amount) private {
        if (token == address(0)) {
            _sendNative(to, amount);
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }

    function _sendNative(address to, uint256 amount) private {
        (bool success,) = to.call{value: amount}("");
        require(success, "PayRouter: native transfer failed");
    }
}
