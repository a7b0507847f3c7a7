import { uniswapV2PairBytecode } from '@quicklinks/contracts/generated/uniswap-v2-pair'
import { type Address, encodePacked, getContractAddress, keccak256 } from 'viem'

/** keccak256 of the pair's creation code: what the factory's CREATE2 and Router02's `pairFor` use. */
const pairInitCodeHash = keccak256(uniswapV2PairBytecode)

/** The address the factory deploys the pair of two tokens to (CREATE2 over the sorted pair). */
export function computePairAddress(factory: Address, tokenA: Address, tokenB: Address): Address {
  const [token0, token1] = BigInt(tokenA) < BigInt(tokenB) ? [tokenA, tokenB] : [tokenB, tokenA]
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory,
    salt: keccak256(encodePacked(['address', 'address'], [token0, token1])),
    bytecodeHash: pairInitCodeHash,
  })
}

/**
 * Router02 hard-codes the pair init-code hash (UniswapV2Library.pairFor). When a build of the
 * periphery does not match the core's pair bytecode, every router call reads the wrong address.
 */
export function assertRouterKnowsPairCode(routerCode: `0x${string}` | undefined, chainName: string): void {
  if (!routerCode?.toLowerCase().includes(pairInitCodeHash.slice(2).toLowerCase())) {
    throw new Error(
      `${chainName}: UniswapV2Router02 does not contain the pair init-code hash ${pairInitCodeHash} of @uniswap/v2-core's UniswapV2Pair, so its swaps would fail`,
    )
  }
}
