// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Multicall3
/// @notice Batches many calls into one. Our own implementation of the widely deployed Multicall3
///         interface (same function signatures, struct layouts and revert strings), so that viem's
///         `multicall` action and any other Multicall3 client work against it unchanged.
/// @dev The devnet installs this contract's runtime code at the canonical address
///      0xcA11bde05977b3631167028862bE2a173976CA11 with `anvil_setCode`, so it must not rely on
///      constructor-set state or immutables. Written for clarity rather than for the last unit of gas.
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Call3Value {
        address target;
        bool allowFailure;
        uint256 value;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Runs every call in order and reverts if any of them fails.
    /// @return blockNumber The number of the block the calls ran in.
    /// @return returnData The raw return data of each call, in order.
    function aggregate(Call[] calldata calls)
        public
        payable
        returns (uint256 blockNumber, bytes[] memory returnData)
    {
        blockNumber = block.number;
        returnData = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; ++i) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            _requireSuccess(success);
            returnData[i] = data;
        }
    }

    /// @notice Runs every call in order; a failed call only reverts the batch when `requireSuccess`.
    function tryAggregate(bool requireSuccess, Call[] calldata calls)
        public
        payable
        returns (Result[] memory returnData)
    {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; ++i) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) _requireSuccess(success);
            returnData[i] = Result({success: success, returnData: data});
        }
    }

    /// @notice `tryAggregate` that also reports the block number and hash the calls ran in.
    function tryBlockAndAggregate(bool requireSuccess, Call[] calldata calls)
        public
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory returnData)
    {
        blockNumber = block.number;
        blockHash = blockhash(block.number);
        returnData = tryAggregate(requireSuccess, calls);
    }

    /// @notice `tryBlockAndAggregate` with every call required to succeed.
    function blockAndAggregate(Call[] calldata calls)
        public
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory returnData)
    {
        return tryBlockAndAggregate(true, calls);
    }

    /// @notice Runs every call in order; each call says whether its failure may be tolerated.
    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; ++i) {
            Call3 calldata item = calls[i];
            (bool success, bytes memory data) = item.target.call(item.callData);
            if (!item.allowFailure) _requireSuccess(success);
            returnData[i] = Result({success: success, returnData: data});
        }
    }

    /// @notice `aggregate3` where each call forwards its own amount of native currency.
    /// @dev The values must add up to exactly `msg.value`, so no native currency stays behind.
    function aggregate3Value(Call3Value[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        uint256 totalValue = 0;
        for (uint256 i = 0; i < calls.length; ++i) {
            Call3Value calldata item = calls[i];
            totalValue += item.value;
            (bool success, bytes memory data) = item.target.call{value: item.value}(item.callData);
            if (!item.allowFailure) _requireSuccess(success);
            returnData[i] = Result({success: success, returnData: data});
        }
        require(totalValue == msg.value, "Multicall3: value mismatch");
    }

    /// @notice The hash of block `blockNumber` (zero outside the last 256 blocks).
    function getBlockHash(uint256 blockNumber) public view returns (bytes32 blockHash) {
        blockHash = blockhash(blockNumber);
    }

    /// @notice The current block number.
    function getBlockNumber() public view returns (uint256 blockNumber) {
        blockNumber = block.number;
    }

    /// @notice The current block's fee recipient.
    function getCurrentBlockCoinbase() public view returns (address coinbase) {
        coinbase = block.coinbase;
    }

    /// @notice The current block's difficulty; since the merge, its PREVRANDAO value.
    function getCurrentBlockDifficulty() public view returns (uint256 difficulty) {
        difficulty = block.prevrandao;
    }

    /// @notice The current block's gas limit.
    function getCurrentBlockGasLimit() public view returns (uint256 gaslimit) {
        gaslimit = block.gaslimit;
    }

    /// @notice The current block's timestamp.
    function getCurrentBlockTimestamp() public view returns (uint256 timestamp) {
        timestamp = block.timestamp;
    }

    /// @notice The native-currency balance of `addr`.
    function getEthBalance(address addr) public view returns (uint256 balance) {
        balance = addr.balance;
    }

    /// @notice The hash of the previous block.
    function getLastBlockHash() public view returns (bytes32 blockHash) {
        unchecked {
            blockHash = blockhash(block.number - 1);
        }
    }

    /// @notice The current block's base fee.
    function getBasefee() public view returns (uint256 basefee) {
        basefee = block.basefee;
    }

    /// @notice The chain id.
    function getChainId() public view returns (uint256 chainid) {
        chainid = block.chainid;
    }

    function _requireSuccess(bool success) private pure {
        require(success, "Multicall3: call failed");
    }
}
