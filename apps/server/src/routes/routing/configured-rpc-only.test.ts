import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import { type AnvilProcess, spawnAnvil } from '@quicklinks/devnet/spawn-anvil'
import {
  type SquidStandIn,
  type SquidStandInChain,
  startSquidStandIn,
} from '@quicklinks/devnet/start-squid-stand-in'
import { getFreePort } from '@quicklinks/runtime/test/get-free-port'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { createSession } from '../../services/sessions/create-session.ts'
import { getOrCreateUser } from '../../services/users/get-or-create-user.ts'

const csrf = 'Wr_pgTqEdsYsZfUtASL3WjVWSx2LuyWGlKad1PfksSA'
const integratorId = 'quick-links-test'
const wallet = `0x${'ab'.repeat(20)}`

/**
 * Squid's catalogue names an RPC URL for every chain; here it is a third party's node on loopback
 * that lies (a huge balance for any eth_call, any chain id) and records every request it gets.
 */
type ThirdPartyNode = { url: string; requests: string[]; close(): Promise<void> }

async function startThirdPartyNode(): Promise<ThirdPartyNode> {
  const requests: string[] = []
  const server: Server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    request.on('end', () => {
      requests.push(`${request.method} ${request.url} ${body}`)
      const payload = JSON.parse(body || '{}') as { id?: number }
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ jsonrpc: '2.0', id: payload.id ?? 1, result: `0x${'f'.repeat(64)}` }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

function catalogueChain(chainId: number, networkIdentifier: string, rpc: string): SquidStandInChain {
  return {
    chainId: String(chainId),
    chainType: 'evm',
    networkIdentifier,
    axelarChainName: networkIdentifier,
    networkName: networkIdentifier,
    rpc,
    chainIconURI: '',
    blockExplorerUrls: [],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18, icon: '' },
    squidContracts: {
      squidRouter: '0xce16F69375520ab01377ce7B88f5BA8C48F8D666',
      squidMulticall: '0xaD6Cea45f98444a922a2b4fE96b8C90F0862D2F4',
    },
    sameChainSwapsSupported: true,
    estimatedRouteDuration: 60,
  }
}

describe('RPC URLs come from configuration only, never from the routing catalogue', () => {
  let thirdParty: ThirdPartyNode
  let ourNode: AnvilProcess
  let squid: SquidStandIn
  let testApp: TestApp
  let sessionToken: string

  beforeAll(async () => {
    thirdParty = await startThirdPartyNode()
    ourNode = await spawnAnvil({
      host: '127.0.0.1',
      port: await getFreePort(),
      chainId: 43114,
      mnemonic: devnetMnemonic,
      accountCount: 1,
    })
    // Both chains name the third party's node in the catalogue; only Avalanche is configured.
    squid = await startSquidStandIn({
      integratorId,
      chains: [
        catalogueChain(8453, 'base', thirdParty.url),
        catalogueChain(43114, 'avalanche', thirdParty.url),
      ],
      tokens: [],
    })
    testApp = await buildTestApp({
      routingProvider: 'squid',
      squidApiUrl: squid.url,
      squidIntegratorId: integratorId,
      rpcUrls: { 43114: ourNode.rpcUrl },
    })
    const user = await getOrCreateUser(testApp.database.db, { address: wallet })
    sessionToken = (await createSession(testApp.database.db, { userId: user.id })).token
  }, 60_000)

  afterAll(async () => {
    await testApp?.close()
    await squid?.stop()
    await ourNode?.stop()
    await thirdParty?.close()
  })

  const relay = (chainId: number, method: string) =>
    testApp.app.inject({
      method: 'POST',
      url: `/api/squid/rpc/${chainId}`,
      payload: { jsonrpc: '2.0', id: 1, method, params: [] },
      cookies: { csrf_token: csrf, ql_session: sessionToken },
      headers: { 'x-csrf-token': csrf },
    })

  it("balances of a chain the catalogue lists with an RPC URL but configuration does not: a clear 503, and the catalogue's node is never asked", async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/data/wallets/base/${wallet}/balances`,
    })
    expect(response.statusCode).toBe(503)
    expect(response.json().error.message).toBe(
      'Chain 8453 is not configured on this server (set RPC_URL_8453).',
    )
    expect(thirdParty.requests).toEqual([])
  })

  it("the RPC relay to that chain: a clear 503, and the catalogue's node is never asked", async () => {
    const response = await relay(8453, 'eth_chainId')
    expect(response.statusCode).toBe(503)
    expect(response.json().error.message).toBe(
      'Chain 8453 is not configured on this server (set RPC_URL_8453).',
    )
    expect(thirdParty.requests).toEqual([])
  })

  it('a configured chain is read and relayed through its RPC_URL_<chainId>, not the catalogue one', async () => {
    const chainId = await relay(43114, 'eth_chainId')
    expect(chainId.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa86a' })
    const balances = await testApp.app.inject({
      method: 'GET',
      url: `/api/data/wallets/avalanche/${wallet}/balances`,
    })
    expect(balances.statusCode).toBe(200)
    // Anvil's fresh chain has no Multicall3: the native entry alone at 0, not the third party's lie.
    expect(balances.json().data).toEqual([expect.objectContaining({ chainId: 43114, balance: '0' })])
    expect(thirdParty.requests).toEqual([])
  })
})
