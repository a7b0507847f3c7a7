// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {DepositForwarder} from "./DepositForwarder.sol";
import {DepositTerms, ForwardRoute} from "./DepositTerms.sol";

/**
 * @title DepositFactory
 * @notice Deploys deposit forwarders with CREATE2 at addresses computed from their terms alone
 * (salt: keccak256(abi.encode(terms)); init code: the forwarder with the operator and terms), so a
 * deposit address is known, and can receive funds, before anything is deployed. Itself deployed
 * through the deterministic CREATE2 deployer with the operator as its only constructor argument:
 * one factory address, hence one deposit address, on every chain.
 */
contract DepositFactory {
    /// @notice The server's deposit key: the only account that may deploy-and-forward or refund to a sender.
    address public immutable operator;

    event DepositDeployed(bytes32 indexed depositId, address indexed forwarder);

    constructor(address operator_) {
        require(operator_ != address(0), "DepositFactory: zero operator");
        operator = operator_;
    }

    modifier onlyOperator() {
        require(msg.sender == operator, "DepositFactory: not operator");
        _;
    }

    /// @notice The forwarder address of `terms`, deployed or not.
    function addressOf(DepositTerms calldata terms) public view returns (address) {
        bytes32 initCodeHash =
            keccak256(abi.encodePacked(type(DepositForwarder).creationCode, abi.encode(operator, terms)));
        return address(
            uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), saltOf(terms), initCodeHash))))
        );
    }

    /// @notice The CREATE2 salt of `terms`: the hash of all of them.
    function saltOf(DepositTerms calldata terms) public pure returns (bytes32) {
        return keccak256(abi.encode(terms));
    }

    /// @notice Deploys the forwarder of `terms` unless it already exists; anyone may (it can only do what its terms say).
    function deploy(DepositTerms calldata terms) public returns (DepositForwarder forwarder) {
        address predicted = addressOf(terms);
        if (predicted.code.length > 0) return DepositForwarder(payable(predicted));
        forwarder = new DepositForwarder{salt: saltOf(terms)}(operator, terms);
        emit DepositDeployed(terms.depositId, address(forwarder));
    }

    /// @notice Deploys the forwarder of `terms` when needed and forwards `amount` of `token` along `route`, in one transaction.
    function deployAndForward(DepositTerms calldata terms, address token, uint256 amount, ForwardRoute calldata route)
        external
        onlyOperator
    {
        deploy(terms).forward(token, amount, route);
    }

    /// @notice Deploys the forwarder of `terms` when needed and refunds its whole `token` balance to its refund address.
    function deployAndRefund(DepositTerms calldata terms, address token) external onlyOperator {
        deploy(terms).refund(token);
    }

    /// @notice Deploys the forwarder of `terms` when needed and, after expiry, sends `amount` of `token` back to `sender`.
    function deployAndRefundToSender(DepositTerms calldata terms, address token, uint256 amount, address sender)
        external
        onlyOperator
    {
        deploy(terms).refundToSender(token, amount, sender);
    }
}
