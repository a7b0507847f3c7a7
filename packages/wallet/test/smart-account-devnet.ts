import { createServer, type IncomingMessage } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { sponsorPaymasterAbi } from '@quicklinks/contracts/generated/sponsor-paymaster'
import { devnetPaymasterSignerIndex } from '@quicklinks/devnet/deploy-account-abstraction'
import { deployDevnetChain } from '@quicklinks/devnet/deploy-devnet-chain'
import { devnetAccountCount, devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import type { DeployedDevnetChain } from '@quicklinks/devnet/devnet-deployment'
import { getDevnetAccount } from '@quicklinks/devnet/get-devnet-account'
import { type AltoProcess, spawnAlto } from '@quicklinks/devnet/spawn-alto'
import { type AnvilProcess, spawnAnvil } from '@quicklinks/devnet/spawn-anvil'
import {
  type Address,
  type Client,
  concatHex,
  createClient,
  createTestClient,
  defineChain,
  encodeAbiParameters,
  type Hex,
  http,
  numberToHex,
  type TestClient,
} from 'viem'
import {
  formatUserOperation,
  type RpcUserOperation,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { readContract } from 'viem/actions'
import type { SmartAccountChainConfig } from '../src/smart-accounts/smart-wallet-types.ts'
import type { SponsorRefusalReason } from '../src/wallet-error.ts'

/** A port the OS just handed out on loopback (free right now). */
export async function getFreePort(): Promise<number> {
  const server = createNetServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  await new Promise<void>((done) => server.close(() => done()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

export type SmartAccountDevnetChain = {
  chainId: number
  rpcUrl: string
  bundlerUrl: string
  deployment: DeployedDevnetChain
  config: SmartAccountChainConfig
  client: Client
  /** anvil's cheat codes (setBalance…). */
  testClient: TestClient
  stop(): Promise<void>
}

/**
 * One devnet chain for smart-account tests: anvil (Prague) on a free port with the whole devnet
 * deployed (tokens, EntryPoints, factories, Simple7702Account, SponsorPaymaster) and a real Alto
 * bundler in front of it, with the devnet's executor and utility keys (accounts 10 and 11).
 */
export async function startSmartAccountDevnetChain(input: {
  chainId: number
}): Promise<SmartAccountDevnetChain> {
  const port = await getFreePort()
  const anvil: AnvilProcess = await spawnAnvil({
    host: '127.0.0.1',
    port,
    chainId: input.chainId,
    mnemonic: devnetMnemonic,
    accountCount: devnetAccountCount,
  })
  let alto: AltoProcess | undefined
  try {
    const deployment = await deployDevnetChain({
      rpcUrl: anvil.rpcUrl,
      chain: {
        chainId: input.chainId,
        port,
        name: `Test ${input.chainId}`,
        nativeSymbol: 'ETH',
        wrappedNativeSymbol: 'WETH',
        nativeUsdcPrice: 3000,
      },
    })
    alto = await spawnAlto({
      host: '127.0.0.1',
      port: await getFreePort(),
      rpcUrl: anvil.rpcUrl,
      chainId: input.chainId,
    })
    const bundlerUrl = alto.bundlerUrl
    const contracts = deployment.contracts
    const chain = defineChain({
      id: input.chainId,
      name: `Test ${input.chainId}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    })
    const running = alto
    return {
      chainId: input.chainId,
      rpcUrl: anvil.rpcUrl,
      bundlerUrl,
      deployment,
      config: {
        chainId: input.chainId,
        entryPoint: contracts.entryPointV08,
        accountFactory: contracts.accountFactory,
        multiOwnerAccountFactory: contracts.multiOwnerAccountFactory,
        simple7702Account: contracts.simple7702Account,
      },
      client: createClient({ chain, transport: http(anvil.rpcUrl) }),
      testClient: createTestClient({ mode: 'anvil', chain, transport: http(anvil.rpcUrl) }),
      async stop() {
        await running.stop()
        await anvil.stop()
      },
    }
  } catch (error) {
    await alto?.stop()
    await anvil.stop()
    throw error
  }
}

export type TestSponsor = {
  url: string
  /** Set to make the next calls refuse with this reason (null: sponsor). */
  refuse: SponsorRefusalReason | null
  /** How many operations got a signed `pm_getPaymasterData`. */
  signedCount: number
  stop(): Promise<void>
}

/** The policy id the test sponsor accepts; any other is UNKNOWN_POLICY. */
export const testPolicyId = 'test-policy'

/**
 * A stand-in for the server's ERC-7677 sponsor service while it is not in this package's reach:
 * a real HTTP JSON-RPC endpoint answering pm_getPaymasterStubData and pm_getPaymasterData for
 * the chain's SponsorPaymaster, signing with the devnet paymaster key (account 12) exactly as
 * SponsorPaymaster.sol checks, and refusing like the service does (JSON-RPC error with
 * `data.reason`).
 */
export async function startTestSponsor(chain: SmartAccountDevnetChain): Promise<TestSponsor> {
  const signer = getDevnetAccount(devnetPaymasterSignerIndex)
  const paymaster = chain.deployment.contracts.sponsorPaymaster
  const validationGas = 120_000n
  const postOpGas = 1n

  const answer = async (method: string, params: unknown[]): Promise<unknown> => {
    const [rpcUserOperation, , , context] = params as [RpcUserOperation, Address, Hex, { policyId?: string }]
    if (context?.policyId !== testPolicyId) throw refusal('UNKNOWN_POLICY')
    if (sponsor.refuse) throw refusal(sponsor.refuse)
    const validUntil = Math.floor(Date.now() / 1000) + 600
    const validAfter = 0
    const validity = encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter])
    const gas = {
      paymaster,
      paymasterVerificationGasLimit: numberToHex(validationGas),
      paymasterPostOpGasLimit: numberToHex(postOpGas),
    }
    if (method === 'pm_getPaymasterStubData') {
      return { ...gas, paymasterData: concatHex([validity, `0x${'ff'.repeat(64)}1c`]) }
    }
    const userOperation = {
      ...formatUserOperation(rpcUserOperation),
      paymaster,
      paymasterVerificationGasLimit: validationGas,
      paymasterPostOpGasLimit: postOpGas,
      paymasterData: '0x',
    } as UserOperation<'0.8'>
    // An EIP-7702 sender's delegate is part of the hash: the one its authorization sets, else its code's.
    const delegate =
      rpcUserOperation.eip7702Auth?.address ??
      (await readContract(chain.client, {
        address: paymaster,
        abi: sponsorPaymasterAbi,
        functionName: 'senderDelegate',
        args: [rpcUserOperation.sender],
      }))
    const hash = await readContract(chain.client, {
      address: paymaster,
      abi: sponsorPaymasterAbi,
      functionName: 'getHash',
      args: [toPackedUserOperation(userOperation), delegate, validUntil, validAfter],
    })
    const signature = await signer.signMessage({ message: { raw: hash } })
    sponsor.signedCount += 1
    return { ...gas, paymasterData: concatHex([validity, signature]) }
  }

  const server = createServer((request, response) => {
    void (async () => {
      const body = JSON.parse(await readBody(request)) as { id: number; method: string; params: unknown[] }
      let reply: unknown
      try {
        if (body.method !== 'pm_getPaymasterStubData' && body.method !== 'pm_getPaymasterData') {
          throw { code: -32601, message: 'Method not found' }
        }
        reply = { jsonrpc: '2.0', id: body.id, result: await answer(body.method, body.params) }
      } catch (error) {
        const rpcError =
          typeof error === 'object' && error !== null && 'code' in error
            ? error
            : { code: -32603, message: error instanceof Error ? error.message : 'failed' }
        reply = { jsonrpc: '2.0', id: body.id, error: rpcError }
      }
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify(reply))
    })()
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  const sponsor: TestSponsor = {
    url: `http://127.0.0.1:${address.port}`,
    refuse: null,
    signedCount: 0,
    stop: () => new Promise<void>((done) => server.close(() => done())),
  }
  return sponsor
}

/** A refusal as the server's sponsor service answers it (HTTP 200, JSON-RPC error -32001). */
function refusal(reason: SponsorRefusalReason) {
  const resetsAt = reason === 'POLICY_SPENT' ? { resetsAt: '2030-01-01T00:00:00.000Z' } : {}
  return {
    code: -32001,
    message: `Sponsorship refused: ${reason}`,
    data: { reason, policyId: testPolicyId, ...resetsAt },
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
