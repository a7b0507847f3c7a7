import {
  type AbiParameter,
  type Address,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  parseAbi,
  parseEther,
  toFunctionSelector,
  multicall3Abi as viemMulticall3Abi,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { multicall3Abi, multicall3DeployedBytecode } from '../generated/multicall3.ts'
import { testTokenAbi, testTokenBytecode } from '../generated/test-token.ts'
import { startTestAnvil } from './start-test-anvil.ts'

/** The published Multicall3 interface (as on every chain at 0xcA11…CA11), written from its docs. */
const canonicalMulticall3Abi = parseAbi([
  'struct Call { address target; bytes callData; }',
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Call3Value { address target; bool allowFailure; uint256 value; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate(Call[] calls) payable returns (uint256 blockNumber, bytes[] returnData)',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
  'function aggregate3Value(Call3Value[] calls) payable returns (Result[] returnData)',
  'function blockAndAggregate(Call[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, Result[] returnData)',
  'function getBasefee() view returns (uint256 basefee)',
  'function getBlockHash(uint256 blockNumber) view returns (bytes32 blockHash)',
  'function getBlockNumber() view returns (uint256 blockNumber)',
  'function getChainId() view returns (uint256 chainid)',
  'function getCurrentBlockCoinbase() view returns (address coinbase)',
  'function getCurrentBlockDifficulty() view returns (uint256 difficulty)',
  'function getCurrentBlockGasLimit() view returns (uint256 gaslimit)',
  'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
  'function getEthBalance(address addr) view returns (uint256 balance)',
  'function getLastBlockHash() view returns (bytes32 blockHash)',
  'function tryAggregate(bool requireSuccess, Call[] calls) payable returns (Result[] returnData)',
  'function tryBlockAndAggregate(bool requireSuccess, Call[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, Result[] returnData)',
])

const multicall3Address = getAddress('0xcA11bde05977b3631167028862bE2a173976CA11')

/** A function's shape without parameter names: what decides whether clients can talk to it. */
function describeShape(parameters: readonly AbiParameter[]): string {
  return parameters
    .map((parameter) =>
      'components' in parameter && parameter.components
        ? `(${describeShape(parameter.components)})${parameter.type.slice('tuple'.length)}`
        : parameter.type,
    )
    .join(',')
}

function describeFunctions(abi: readonly { type: string }[]): string[] {
  return abi
    .flatMap((item) =>
      item.type === 'function' ? [item as Extract<(typeof multicall3Abi)[number], { type: 'function' }>] : [],
    )
    .map(
      (item) =>
        `${toFunctionSelector(item)} ${item.name}(${describeShape(item.inputs)}) ${item.stateMutability} returns (${describeShape(item.outputs)})`,
    )
    .sort()
}

let anvil: Awaited<ReturnType<typeof startTestAnvil>>
let token: Address

beforeAll(async () => {
  anvil = await startTestAnvil()
  await anvil.testClient.setCode({ address: multicall3Address, bytecode: multicall3DeployedBytecode })
  const hash = await anvil.walletClient.deployContract({
    abi: testTokenAbi,
    bytecode: testTokenBytecode,
    args: ['USD Coin', 'USDC', 6],
  })
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash })
  if (!receipt.contractAddress) throw new Error('TestToken was not deployed')
  token = receipt.contractAddress
  const mint = await anvil.walletClient.writeContract({
    address: token,
    abi: testTokenAbi,
    functionName: 'mint',
    args: [anvil.deployer, 5_000_000n],
  })
  await anvil.publicClient.waitForTransactionReceipt({ hash: mint })
  await anvil.testClient.mine({ blocks: 3 })
})

afterAll(async () => {
  await anvil?.stop()
})

const balanceOf = (owner: Address) => ({
  target: token,
  callData: encodeFunctionData({ abi: testTokenAbi, functionName: 'balanceOf', args: [owner] }),
})
/** A call that always reverts: transferring more than the Multicall3 contract holds. */
const failingTransfer = () => ({
  target: token,
  callData: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [anvil.deployer, 1n] }),
})

describe('Multicall3', () => {
  it('has exactly the functions of the canonical Multicall3, selectors and return shapes included', () => {
    expect(describeFunctions(multicall3Abi)).toEqual(describeFunctions(canonicalMulticall3Abi))
    // viem's own subset declares the aggregators `view` so it can eth_call them; only shapes must match.
    const withoutMutability = (abi: readonly { type: string }[]) =>
      describeFunctions(abi).map((item) =>
        item.replace(/ (view|payable|nonpayable|pure) returns/, ' returns'),
      )
    for (const item of withoutMutability(viemMulticall3Abi)) {
      expect(withoutMutability(multicall3Abi)).toContain(item)
    }
  })

  it('serves viem multicall (aggregate3), keeping the failures it is allowed to tolerate', async () => {
    const results = await anvil.publicClient.multicall({
      multicallAddress: multicall3Address,
      contracts: [
        { address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [anvil.deployer] },
        { address: token, abi: testTokenAbi, functionName: 'transfer', args: [anvil.deployer, 1n] },
        {
          address: multicall3Address,
          abi: multicall3Abi,
          functionName: 'getEthBalance',
          args: [anvil.other],
        },
      ],
    })
    expect(results[0]).toEqual({ status: 'success', result: 5_000_000n })
    expect(results[1]?.status).toBe('failure')
    expect(results[2]).toEqual({
      status: 'success',
      result: await anvil.publicClient.getBalance({ address: anvil.other }),
    })
  })

  it('reverts aggregate3 with "Multicall3: call failed" when a call that may not fail fails', async () => {
    await expect(
      anvil.publicClient.simulateContract({
        address: multicall3Address,
        abi: multicall3Abi,
        functionName: 'aggregate3',
        args: [[{ ...failingTransfer(), allowFailure: false }]],
      }),
    ).rejects.toThrow('Multicall3: call failed')
  })

  it('runs aggregate, tryAggregate and blockAndAggregate with their block details', async () => {
    const head = await anvil.publicClient.getBlockNumber()
    const {
      result: [blockNumber, returnData],
    } = await anvil.publicClient.simulateContract({
      address: multicall3Address,
      abi: multicall3Abi,
      functionName: 'aggregate',
      args: [[balanceOf(anvil.deployer), balanceOf(anvil.other)]],
    })
    expect(blockNumber).toBeGreaterThanOrEqual(head)
    expect(
      returnData.map((data) => decodeFunctionResult({ abi: testTokenAbi, functionName: 'balanceOf', data })),
    ).toEqual([5_000_000n, 0n])
    await expect(
      anvil.publicClient.simulateContract({
        address: multicall3Address,
        abi: multicall3Abi,
        functionName: 'aggregate',
        args: [[balanceOf(anvil.deployer), failingTransfer()]],
      }),
    ).rejects.toThrow('Multicall3: call failed')

    const { result: tolerant } = await anvil.publicClient.simulateContract({
      address: multicall3Address,
      abi: multicall3Abi,
      functionName: 'tryAggregate',
      args: [false, [balanceOf(anvil.deployer), failingTransfer()]],
    })
    expect(tolerant.map((result) => result.success)).toEqual([true, false])
    await expect(
      anvil.publicClient.simulateContract({
        address: multicall3Address,
        abi: multicall3Abi,
        functionName: 'tryAggregate',
        args: [true, [balanceOf(anvil.deployer), failingTransfer()]],
      }),
    ).rejects.toThrow('Multicall3: call failed')

    const {
      result: [blockAndNumber, , blockResults],
    } = await anvil.publicClient.simulateContract({
      address: multicall3Address,
      abi: multicall3Abi,
      functionName: 'blockAndAggregate',
      args: [[balanceOf(anvil.deployer)]],
    })
    expect(blockAndNumber).toBeGreaterThanOrEqual(head)
    expect(blockResults).toEqual([
      { success: true, returnData: encodeAbiParameters([{ type: 'uint256' }], [5_000_000n]) },
    ])
  })

  it('forwards value with aggregate3Value and insists the values add up to msg.value', async () => {
    const before = await anvil.publicClient.getBalance({ address: anvil.other })
    const hash = await anvil.walletClient.writeContract({
      address: multicall3Address,
      abi: multicall3Abi,
      functionName: 'aggregate3Value',
      args: [[{ target: anvil.other, allowFailure: false, value: parseEther('1.5'), callData: '0x' }]],
      value: parseEther('1.5'),
    })
    expect((await anvil.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
    expect((await anvil.publicClient.getBalance({ address: anvil.other })) - before).toBe(parseEther('1.5'))
    expect(await anvil.publicClient.getBalance({ address: multicall3Address })).toBe(0n)

    await expect(
      anvil.publicClient.simulateContract({
        account: anvil.deployer,
        address: multicall3Address,
        abi: multicall3Abi,
        functionName: 'aggregate3Value',
        args: [[{ target: anvil.other, allowFailure: false, value: parseEther('1'), callData: '0x' }]],
        value: parseEther('2'),
      }),
    ).rejects.toThrow('Multicall3: value mismatch')
  })

  it('reports the chain, block and balances it runs on', async () => {
    const block = await anvil.publicClient.getBlock()
    const read = <
      const name extends
        | 'getChainId'
        | 'getBlockNumber'
        | 'getLastBlockHash'
        | 'getCurrentBlockGasLimit'
        | 'getCurrentBlockTimestamp'
        | 'getBasefee'
        | 'getCurrentBlockCoinbase'
        | 'getCurrentBlockDifficulty',
    >(
      functionName: name,
    ) =>
      anvil.publicClient.readContract({
        address: multicall3Address,
        abi: multicall3Abi,
        functionName,
        blockNumber: block.number,
      })
    expect(await read('getChainId')).toBe(31337n)
    expect(await read('getBlockNumber')).toBe(block.number)
    expect(await read('getLastBlockHash')).toBe(block.parentHash)
    expect(await read('getCurrentBlockGasLimit')).toBe(block.gasLimit)
    expect(await read('getCurrentBlockTimestamp')).toBe(block.timestamp)
    expect(await read('getBasefee')).toBe(block.baseFeePerGas)
    expect(await read('getCurrentBlockCoinbase')).toBe(getAddress(block.miner))
    expect(await read('getCurrentBlockDifficulty')).toBe(BigInt(block.mixHash))
    expect(
      await anvil.publicClient.readContract({
        address: multicall3Address,
        abi: multicall3Abi,
        functionName: 'getBlockHash',
        args: [block.number - 1n],
        blockNumber: block.number,
      }),
    ).toBe(block.parentHash)
    expect(
      await anvil.publicClient.readContract({
        address: multicall3Address,
        abi: multicall3Abi,
        functionName: 'getEthBalance',
        args: [anvil.deployer],
      }),
    ).toBe(await anvil.publicClient.getBalance({ address: anvil.deployer }))
  })
})
