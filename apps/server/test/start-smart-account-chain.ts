import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { quickLinksAccountAbi } from '@quicklinks/contracts/generated/quick-links-account'
import { quickLinksAccountFactoryAbi } from '@quicklinks/contracts/generated/quick-links-account-factory'
import { deployDevnetChain } from '@quicklinks/devnet/deploy-devnet-chain'
import { devnetAccountCount, devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import { type AltoProcess, spawnAlto } from '@quicklinks/devnet/spawn-alto'
import { type AnvilProcess, spawnAnvil } from '@quicklinks/devnet/spawn-anvil'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import {
  type Address,
  type Chain,
  createPublicClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  type LocalAccount,
  type PublicClient,
  type Transport,
} from 'viem'
import {
  entryPoint08Abi,
  entryPoint08Address,
  getUserOperationHash,
  type SmartAccount,
  toSmartAccount,
} from 'viem/account-abstraction'

/** One devnet chain for server tests: anvil with the devnet's contracts, and (optionally) Alto. */
export type SmartAccountTestChain = {
  chainId: number
  rpcUrl: string
  /** Alto's URL, when started with a bundler. */
  bundlerUrl: string | undefined
  /** The chain's deployment as deployment.json lists it (with bundlerUrl when there is one). */
  deployment: Awaited<ReturnType<typeof deployDevnetChain>> & { bundlerUrl?: string }
  client: PublicClient<Transport, Chain>
  /** Writes `{ chains: [deployment] }` where a server's config reads its devnet deployment. */
  writeDeploymentFile(file: string): void
  stop(): Promise<void>
}

/**
 * Starts a throwaway anvil (chain 8453, Prague) on a free loopback port, deploys the devnet's
 * contracts on it (ERC-4337 included) and, when `withBundler`, Pimlico's Alto beside it. Fails
 * like spawnAnvil, deployDevnetChain and spawnAlto do; whatever started is stopped then.
 */
export async function startSmartAccountTestChain(options: {
  withBundler: boolean
}): Promise<SmartAccountTestChain> {
  const chainId = 8453
  const port = await getFreePort()
  const anvil: AnvilProcess = await spawnAnvil({
    host: '127.0.0.1',
    port,
    chainId,
    mnemonic: devnetMnemonic,
    accountCount: devnetAccountCount,
  })
  let alto: AltoProcess | undefined
  try {
    const deployed = await deployDevnetChain({
      rpcUrl: anvil.rpcUrl,
      chain: {
        chainId,
        port,
        name: 'Base',
        nativeSymbol: 'ETH',
        wrappedNativeSymbol: 'WETH',
        nativeUsdcPrice: 3000,
      },
    })
    if (options.withBundler) {
      alto = await spawnAlto({ host: '127.0.0.1', port: await getFreePort(), rpcUrl: anvil.rpcUrl, chainId })
    }
    const bundlerUrl = alto?.bundlerUrl
    const deployment = { ...deployed, ...(bundlerUrl === undefined ? {} : { bundlerUrl }) }
    const chain = defineChain({
      id: chainId,
      name: 'Base',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    })
    const running = alto
    return {
      chainId,
      rpcUrl: anvil.rpcUrl,
      bundlerUrl,
      deployment,
      client: createPublicClient({ chain, transport: http(anvil.rpcUrl), pollingInterval: 100 }),
      writeDeploymentFile(file) {
        mkdirSync(dirname(file), { recursive: true })
        writeFileSync(file, JSON.stringify({ chains: [deployment] }))
      },
      async stop() {
        await running?.stop()
        await anvil.stop()
      },
    }
  } catch (error) {
    await alto?.stop()
    await anvil.stop()
    throw error
  }
}

/**
 * A viem SmartAccount over QuickLinksAccount (salt 0) for `owner`, enough to send user operations in
 * tests: execute/executeBatch calls, createAccount as init code, the owner's ECDSA signature over
 * the v0.8 user-operation hash. It signs no messages (tests sign those as the contract expects).
 */
export async function toTestQuickLinksAccount(input: {
  client: PublicClient<Transport, Chain>
  owner: LocalAccount
  factory: Address
}): Promise<SmartAccount> {
  const { client, owner, factory } = input
  const address = await client.readContract({
    address: factory,
    abi: quickLinksAccountFactoryAbi,
    functionName: 'getAddress',
    args: [owner.address, 0n],
  })
  const entryPoint = { abi: entryPoint08Abi, address: entryPoint08Address, version: '0.8' } as const
  const refuse = async (): Promise<Hex> => {
    throw new Error('the test account signs user operations only')
  }
  return toSmartAccount({
    client,
    entryPoint,
    getAddress: async () => address,
    getFactoryArgs: async () => ({
      factory,
      factoryData: encodeFunctionData({
        abi: quickLinksAccountFactoryAbi,
        functionName: 'createAccount',
        args: [owner.address, 0n],
      }),
    }),
    encodeCalls: async (calls) =>
      calls.length === 1 && calls[0] !== undefined
        ? encodeFunctionData({
            abi: quickLinksAccountAbi,
            functionName: 'execute',
            args: [calls[0].to, calls[0].value ?? 0n, calls[0].data ?? '0x'],
          })
        : encodeFunctionData({
            abi: quickLinksAccountAbi,
            functionName: 'executeBatch',
            args: [
              calls.map((call) => ({ target: call.to, value: call.value ?? 0n, data: call.data ?? '0x' })),
            ],
          }),
    getStubSignature: async () =>
      '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c',
    signMessage: refuse,
    signTypedData: refuse,
    signUserOperation: async ({ chainId, ...userOperation }) => {
      const hash = getUserOperationHash({
        chainId: chainId ?? client.chain.id,
        entryPointAddress: entryPoint.address,
        entryPointVersion: '0.8',
        userOperation: { ...userOperation, sender: address },
      })
      if (owner.sign === undefined) throw new Error('the owner cannot sign hashes')
      return owner.sign({ hash })
    },
  })
}
