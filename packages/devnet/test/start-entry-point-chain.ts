import { concatHex, createWalletClient, http, publicActions } from 'viem'
import { deterministicDeployer, entryPoints } from '../src/deploy-account-abstraction.ts'
import { devnetMnemonic } from '../src/devnet-chains.ts'
import { type AnvilProcess, spawnAnvil } from '../src/spawn-anvil.ts'

/**
 * A bare anvil on `port` with what Alto needs to start: twelve funded accounts (the bundler's
 * executor and utility keys are accounts 10 and 11) and the EntryPoints v0.7 and v0.8 at their
 * canonical addresses. Throws when an EntryPoint does not land where it belongs.
 */
export async function startEntryPointChain(port: number, chainId: number): Promise<AnvilProcess> {
  const anvil = await spawnAnvil({
    host: '127.0.0.1',
    port,
    chainId,
    mnemonic: devnetMnemonic,
    accountCount: 12,
  })
  try {
    const client = createWalletClient({ transport: http(anvil.rpcUrl) }).extend(publicActions)
    const [deployer] = await client.getAddresses()
    if (!deployer) throw new Error('anvil unlocked no account')
    for (const entryPoint of [entryPoints.v07, entryPoints.v08]) {
      const hash = await client.sendTransaction({
        account: deployer,
        chain: null,
        to: deterministicDeployer,
        data: concatHex([entryPoint.salt, entryPoint.bytecode]),
      })
      await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      const code = await client.getCode({ address: entryPoint.address })
      if (code === undefined || code.length < 100) throw new Error(`no EntryPoint at ${entryPoint.address}`)
    }
    return anvil
  } catch (error) {
    await anvil.stop()
    throw error
  }
}
