import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testTokenAbi, testTokenBytecode } from '../generated/test-token.ts'
import { startTestAnvil } from './start-test-anvil.ts'

let anvil: Awaited<ReturnType<typeof startTestAnvil>>

beforeAll(async () => {
  anvil = await startTestAnvil()
})

afterAll(async () => {
  await anvil?.stop()
})

async function deployToken(name: string, symbol: string, decimals: number) {
  const hash = await anvil.walletClient.deployContract({
    abi: testTokenAbi,
    bytecode: testTokenBytecode,
    args: [name, symbol, decimals],
  })
  const { contractAddress } = await anvil.publicClient.waitForTransactionReceipt({ hash })
  if (!contractAddress) throw new Error('no contract deployed')
  return contractAddress
}

describe('TestToken', () => {
  it('has the name, symbol and decimals it was deployed with, and no supply', async () => {
    const address = await deployToken('USD Coin', 'USDC', 6)
    const read = <const name extends 'name' | 'symbol' | 'decimals' | 'totalSupply' | 'minter'>(
      functionName: name,
    ) => anvil.publicClient.readContract({ address, abi: testTokenAbi, functionName })
    expect([
      await read('name'),
      await read('symbol'),
      await read('decimals'),
      await read('totalSupply'),
    ]).toEqual(['USD Coin', 'USDC', 6, 0n])
    expect(await read('minter')).toBe(anvil.deployer)
    const eighteen = await deployToken('Other', 'OTH', 18)
    expect(
      await anvil.publicClient.readContract({
        address: eighteen,
        abi: testTokenAbi,
        functionName: 'decimals',
      }),
    ).toBe(18)
  })

  it('lets the deployer mint to anyone', async () => {
    const address = await deployToken('Tether USD', 'USDT', 6)
    const hash = await anvil.walletClient.writeContract({
      address,
      abi: testTokenAbi,
      functionName: 'mint',
      args: [anvil.other, 1_500_000n],
    })
    expect((await anvil.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
    expect(
      await anvil.publicClient.readContract({
        address,
        abi: testTokenAbi,
        functionName: 'balanceOf',
        args: [anvil.other],
      }),
    ).toBe(1_500_000n)
  })

  it('refuses to mint for anyone but the deployer', async () => {
    const address = await deployToken('USD Coin', 'USDC', 6)
    await expect(
      anvil.publicClient.simulateContract({
        address,
        abi: testTokenAbi,
        functionName: 'mint',
        args: [anvil.other, 1n],
        account: anvil.other,
      }),
    ).rejects.toThrow(/TestTokenUnauthorizedMinter/)
  })
})
