// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {IUniswapV2Router02} from "@uniswap/v2-periphery/contracts/interfaces/IUniswapV2Router02.sol";

/// @notice EIP-3009's `receiveWithAuthorization` (USDC and other FiatToken-style tokens), (v, r, s) form.
interface IERC3009Receive {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;
}

// One contract, one ABI: the payment entries, the permit and authorization entries and the
// cross-chain escrow share state and events, so this file is longer than 300 lines.

/**
 * @title PayRouter
 * @notice Pays a link's receiver with an intent id: a plain payment, a swap through Uniswap V2 and
 * payment in one transaction, or a cross-chain intent (the payer escrows a deposit on the source
 * chain, the relayer fills the receiver on the destination chain from its own inventory and then
 * settles the escrow to itself; an unfilled deposit is refundable to the payer once its deadline and a
 * settlement window have passed). Escrows and fills are keyed by the hash of the whole order.
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

    /**
     * @notice Everything a cross-chain deposit promises. Its hash, the order key, names the escrow on
     * the source chain and the fill on the destination chain, so a fill, a settlement and a refund
     * each act on exactly one deposit: copying an intent id onto another deposit (another chain,
     * payer, amount or receiver) gives another key.
     */
    struct Order {
        bytes32 intentId;
        uint256 sourceChainId;
        address payer;
        address escrowToken;
        uint256 escrowAmount;
        address receiver;
        uint256 destinationChainId;
        address destinationToken;
        uint256 minAmountOut;
        uint64 fillDeadline;
    }

    /// @notice The latest fill deadline a deposit may ask for, counted from its block.
    uint64 public constant MAX_FILL_WINDOW = 1 hours;
    /// @notice After the fill deadline, the relayer alone may still settle this long before refunds open.
    uint64 public constant SETTLEMENT_WINDOW = 1 hours;

    address public immutable uniswapV2Router;
    address public immutable wrappedNative;
    /// @notice The only account that may fill orders and settle escrows.
    address public immutable relayer;

    mapping(bytes32 orderKey => DepositState) private _depositStates;
    /// @notice Whether the relayer has filled the order on this (destination) chain.
    mapping(bytes32 orderKey => bool) public filled;

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
    event Deposited(bytes32 indexed orderKey, bytes32 indexed intentId, address indexed payer, Order order);
    event Settled(bytes32 indexed orderKey, bytes32 indexed intentId);
    event Refunded(bytes32 indexed orderKey, bytes32 indexed intentId, address indexed payer, address token, uint256 amount);
    /// @notice What the relayer paid on this chain for an order: to whom, in which token, how much.
    event Filled(
        bytes32 indexed orderKey,
        bytes32 indexed intentId,
        address indexed receiver,
        address token,
        uint256 amount,
        uint256 sourceChainId,
        address relayer
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
     * @notice An EIP-2612 signature instead of a prior approval: sets this contract's allowance
     * over the caller's `token` with `permit`, then runs `data`, which must be a call of `pay`,
     * `swapAndPay` or `deposit` (delegatecall to itself, so the caller stays the payer and the
     * call's own checks and events are unchanged). Not payable: native payments need no approval.
     * A permit that fails because someone already submitted it (front-running) is fine as long as
     * the allowance covers `value`. Returns what the call returned.
     */
    function permitAndCall(
        address token,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s,
        bytes calldata data
    ) external returns (bytes memory result) {
        require(data.length >= 4, "PayRouter: bad call");
        bytes4 selector = bytes4(data[:4]);
        require(
            selector == this.pay.selector || selector == this.swapAndPay.selector || selector == this.deposit.selector,
            "PayRouter: bad call"
        );
        try IERC20Permit(token).permit(msg.sender, address(this), value, deadline, v, r, s) {}
        catch {
            require(IERC20(token).allowance(msg.sender, address(this)) >= value, "PayRouter: permit failed");
        }
        bool success;
        (success, result) = address(this).delegatecall(data);
        if (!success) {
            assembly ("memory-safe") {
                revert(add(result, 32), mload(result))
            }
        }
    }

    /**
     * @notice Same chain, same token, paid with an EIP-3009 `receiveWithAuthorization` signed by
     * `from` (no approval, and anyone may submit it: a relayer can pay the gas). The signed nonce
     * must be `authorizationNonce(intentId, receiver)`, so a copied signature cannot pay anyone
     * else or under another intent; the token's own checks refuse a replayed or expired one.
     */
    function payWithAuthorization(
        bytes32 intentId,
        address token,
        uint256 amount,
        address receiver,
        address from,
        uint256 validAfter,
        uint256 validBefore,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external nonReentrant {
        require(receiver != address(0), "PayRouter: zero receiver");
        require(amount > 0, "PayRouter: zero amount");
        require(token != address(0), "PayRouter: bad path");
        bytes32 nonce = authorizationNonce(intentId, receiver);
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC3009Receive(token).receiveWithAuthorization(
            from, address(this), amount, validAfter, validBefore, nonce, v, r, s
        );
        require(IERC20(token).balanceOf(address(this)) - before == amount, "PayRouter: bad value");
        emit Paid(intentId, from, receiver, token, amount);
        IERC20(token).safeTransfer(receiver, amount);
    }

    /// @notice The EIP-3009 nonce a payer signs for `payWithAuthorization`: keccak256(abi.encode(intentId, receiver)).
    function authorizationNonce(bytes32 intentId, address receiver) public pure returns (bytes32) {
        return keccak256(abi.encode(intentId, receiver));
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
     * fill `receiver` with `minAmountOut` of `destinationToken` on `destinationChainId` by
     * `fillDeadline` (at most MAX_FILL_WINDOW ahead). Returns the order key the escrow is kept under.
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
    ) external payable nonReentrant returns (bytes32 orderKey) {
        require(receiver != address(0), "PayRouter: zero receiver");
        require(amountIn > 0, "PayRouter: zero amount");
        require(minAmountOut > 0, "PayRouter: zero minimum");
        require(destinationChainId != block.chainid, "PayRouter: same chain");
        require(fillDeadline > block.timestamp, "PayRouter: deadline passed");
        require(fillDeadline <= block.timestamp + MAX_FILL_WINDOW, "PayRouter: deadline too far");

        Order memory order;
        order.intentId = intentId;
        order.sourceChainId = block.chainid;
        order.payer = msg.sender;
        order.receiver = receiver;
        order.destinationChainId = destinationChainId;
        order.destinationToken = destinationToken;
        order.minAmountOut = minAmountOut;
        order.fillDeadline = fillDeadline;
        (order.escrowToken, order.escrowAmount) = _takeEscrow(tokenIn, amountIn, swapPath, minEscrowAmount);
        orderKey = _openEscrow(order);
    }

    /// @dev Pulls the payer's input, swapping it into the path's last token when a path is given.
    function _takeEscrow(address tokenIn, uint256 amountIn, address[] calldata swapPath, uint256 minEscrowAmount)
        private
        returns (address escrowToken, uint256 escrowAmount)
    {
        escrowToken = swapPath.length == 0 ? tokenIn : swapPath[swapPath.length - 1];
        escrowAmount = swapPath.length == 0
            ? _pullToSelf(tokenIn, amountIn)
            : _swapToSelf(tokenIn, amountIn, swapPath, escrowToken, minEscrowAmount, block.timestamp);
        require(escrowAmount >= minEscrowAmount, "PayRouter: slippage");
    }

    function _openEscrow(Order memory order) private returns (bytes32 orderKey) {
        orderKey = keccak256(abi.encode(order));
        require(_depositStates[orderKey] == DepositState.None, "PayRouter: order exists");
        _depositStates[orderKey] = DepositState.Open;
        emit Deposited(orderKey, order.intentId, order.payer, order);
    }

    /**
     * @notice Releases an open escrow to the relayer once it has filled the order on the destination
     * chain. Open until someone refunds it, which is only possible SETTLEMENT_WINDOW after the fill
     * deadline, and a fill is only possible before it: an honest fill can always be settled.
     */
    function settle(Order calldata order) external nonReentrant onlyRelayer {
        require(order.sourceChainId == block.chainid, "PayRouter: wrong chain");
        bytes32 orderKey = keccak256(abi.encode(order));
        DepositState state = _depositStates[orderKey];
        require(state != DepositState.None, "PayRouter: unknown order");
        require(state == DepositState.Open, "PayRouter: not open");
        _depositStates[orderKey] = DepositState.Settled;
        emit Settled(orderKey, order.intentId);
        _send(order.escrowToken, relayer, order.escrowAmount);
    }

    /**
     * @notice Pays an open escrow back to its payer; anyone may call it once the fill deadline and
     * the settlement window after it have passed.
     */
    function refund(Order calldata order) external nonReentrant {
        require(order.sourceChainId == block.chainid, "PayRouter: wrong chain");
        bytes32 orderKey = keccak256(abi.encode(order));
        DepositState state = _depositStates[orderKey];
        require(state != DepositState.None, "PayRouter: unknown order");
        require(state == DepositState.Open, "PayRouter: not open");
        require(
            block.timestamp > uint256(order.fillDeadline) + SETTLEMENT_WINDOW, "PayRouter: settlement window open"
        );
        _depositStates[orderKey] = DepositState.Refunded;
        emit Refunded(orderKey, order.intentId, order.payer, order.escrowToken, order.escrowAmount);
        _send(order.escrowToken, order.payer, order.escrowAmount);
    }

    /**
     * @notice Cross-chain, destination side: the relayer pays the order's receiver at least its
     * `minAmountOut` of its `destinationToken` from its own inventory, directly (empty `swapPath`,
     * `tokenIn` is the destination token) or by swapping `amountIn` of `tokenIn` along `swapPath`;
     * once per order, and not after the order's fill deadline.
     */
    function fill(Order calldata order, address tokenIn, uint256 amountIn, address[] calldata swapPath)
        external
        payable
        nonReentrant
        onlyRelayer
        returns (uint256 amountOut)
    {
        require(order.destinationChainId == block.chainid, "PayRouter: wrong chain");
        require(block.timestamp <= order.fillDeadline, "PayRouter: fill deadline passed");
        require(order.receiver != address(0), "PayRouter: zero receiver");
        require(amountIn > 0, "PayRouter: zero amount");
        bytes32 orderKey = keccak256(abi.encode(order));
        require(!filled[orderKey], "PayRouter: already filled");
        filled[orderKey] = true;

        address tokenOut = order.destinationToken;
        if (swapPath.length == 0) {
            require(tokenIn == tokenOut, "PayRouter: bad path");
            require(msg.value == (tokenIn == address(0) ? amountIn : 0), "PayRouter: bad value");
            require(amountIn >= order.minAmountOut, "PayRouter: slippage");
            amountOut = amountIn;
            emit Filled(orderKey, order.intentId, order.receiver, tokenOut, amountOut, order.sourceChainId, msg.sender);
            if (tokenIn == address(0)) {
                _sendNative(order.receiver, amountOut);
            } else {
                IERC20(tokenIn).safeTransferFrom(msg.sender, order.receiver, amountOut);
            }
        } else {
            amountOut = _swapToSelf(tokenIn, amountIn, swapPath, tokenOut, order.minAmountOut, block.timestamp);
            emit Filled(orderKey, order.intentId, order.receiver, tokenOut, amountOut, order.sourceChainId, msg.sender);
            _send(tokenOut, order.receiver, amountOut);
        }
    }

    /// @notice The key an order's escrow and fill are kept under: keccak256 of its ABI encoding.
    function orderKeyOf(Order calldata order) external pure returns (bytes32) {
        return keccak256(abi.encode(order));
    }

    /// @notice The escrow state of an order key: 0 none, 1 open, 2 settled, 3 refunded.
    function depositState(bytes32 orderKey) external view returns (uint8) {
        return uint8(_depositStates[orderKey]);
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
