import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildViemChain } from '@quicklinks/devnet/build-viem-chain'
import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import { type AnvilProcess, spawnAnvil } from '@quicklinks/devnet/spawn-anvil'
import { createPublicClient, createWalletClient, http } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFreePorts } from '../../../../../packages/devnet/test/find-free-ports.ts'
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts'
import { nativeToken, postJson, type TestTransactionRecord } from '../../../test/payment-test-kit.ts'

// A Squid-routed payment followed from the route to its transaction record: the source transaction
// really runs on an anvil (Avalanche's chain id), Squid is a loopback server replaying the recorded
// v2 responses of ../routing/providers/squid/fixtures, and the server's tracker polls it.

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(
    readFileSync(new URL(`../routing/providers/squid/fixtures/${name}.json`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>

const integratorId = 'quick-links-test'
const fromChainId = 43114
const toChainId = 8453
const baseUsdc = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
/** The recorded route's Squid router (no code on the anvil: the call is a plain value transfer). */
const squidRouter = '0xce16F69375520ab01377ce7B88f5BA8C48F8D666'
const recordedQuoteId = '6f388be5205ee044cd7fd5047a4ce72e'
/** The recorded success's destination transaction (toChain.transactionId). */
const recordedDestTxHash = '0x9af48c105a6556155eb86e9a2f552a51474ea11ff37a9a86c2ed24bb37abbbee'
/** The source hash the status fixtures were recorded for; the replay puts the queried hash in its place. */
const recordedSourceTxHash = '0xc6b6ed43d2e29b36197a1acc711ed14eec735de8525689ab0d216f736f4ba65c'

type Recorded = {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  body: Record<string, unknown> | undefined
}

let anvil: AnvilProcess
let squid: Server
let testApp: TestApp
const squidRequests: Recorded[] = []
/** What GET /v2/status answers now: a recorded status body (the queried hash put in); null answers 404. */
let statusReply: Record<string, unknown> | null = null
let routeCount = 0

/** A recorded response with the recorded source hash replaced by the one asked about, as Squid answers for it. */
function withSourceHash(body: Record<string, unknown>, transactionId: string): unknown {
  return JSON.parse(JSON.stringify(body).replaceAll(recordedSourceTxHash, transactionId))
}

/** The recorded route, its `params` echoing the request as Squid's do. */
function routeReply(requestBody: Record<string, unknown> | undefined): unknown {
  const recorded = fixture('route-avalanche-avax-to-base-usdc') as { route: Record<string, unknown> }
  return { ...recorded, route: { ...recorded.route, params: { ...requestBody } } }
}

beforeAll(async () => {
  const [port] = (await findFreePorts(1)) as [number]
  anvil = await spawnAnvil({
    host: '127.0.0.1',
    port,
    chainId: fromChainId,
    mnemonic: devnetMnemonic,
    accountCount: 10,
  })

  squid = createServer((request, response) => {
    let text = ''
    request.on('data', (chunk) => {
      text += chunk
    })
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1')
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined
      squidRequests.push({
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body,
      })
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers })
        response.end(JSON.stringify(json))
      }
      const route = `${request.method} ${url.pathname}`
      if (route === 'GET /v2/chains') return send(200, fixture('chains'))
      if (route === 'GET /v2/tokens') return send(200, fixture('tokens'))
      if (route === 'POST /v2/route') {
        routeCount += 1
        return send(200, routeReply(body), { 'x-request-id': `req-squid-${routeCount}` })
      }
      if (route === 'GET /v2/status' && statusReply) {
        return send(200, withSourceHash(statusReply, url.searchParams.get('transactionId') ?? ''))
      }
      return send(404, { message: 'Not found' })
    })
  })
  await new Promise<void>((resolve) => squid.listen(0, '127.0.0.1', resolve))

  testApp = await buildTestApp(
    {
      routingProvider: 'squid',
      squidApiUrl: `http://127.0.0.1:${(squid.address() as AddressInfo).port}`,
      squidIntegratorId: integratorId,
      rpcUrls: { [fromChainId]: anvil.rpcUrl },
      workerIntervalMs: 100,
    },
    { startWorkers: true },
  )
})

afterAll(async () => {
  await testApp?.close()
  await new Promise((resolve) => squid?.close(resolve))
  await anvil?.stop()
})

type BuiltRoute = {
  intentId: `0x${string}`
  route: {
    transactionRequest: {
      to: `0x${string}`
      target: string
      data: `0x${string}`
      value: string
      gasLimit: string
      maxFeePerGas: string
      maxPriorityFeePerGas: string
    }
    estimate: { toAmountMin: string; actions: { type: string }[] }
    spender: string | null
  }
}

/**
 * Builds an AVAX → Base USDC route through POST /api/squid/route for `payerIndex`, sends its
 * transaction on the anvil as the pay modal's wallet would, and posts the receipt.
 */
async function payThroughSquid(
  payerIndex: number,
): Promise<{ built: BuiltRoute; hash: `0x${string}`; payer: `0x${string}`; requestId: string }> {
  const account = mnemonicToAccount(devnetMnemonic, { addressIndex: payerIndex })
  const receiver = mnemonicToAccount(devnetMnemonic, { addressIndex: 2 }).address
  const response = await postJson(testApp.app, '/api/squid/route', {
    fromChain: fromChainId,
    toChain: String(toChainId),
    fromToken: nativeToken,
    toToken: baseUsdc,
    fromAmount: '1000000000000000000',
    fromAddress: account.address,
    toAddress: receiver,
    slippage: 1,
  })
  expect(response.statusCode, response.body).toBe(200)
  const built = response.json().data as BuiltRoute
  const routeCall = squidRequests.findLast((request) => request.path === '/v2/route')
  expect(routeCall?.headers['x-integrator-id']).toBe(integratorId)
  expect(routeCall?.body).toMatchObject({
    fromChain: String(fromChainId),
    toChain: String(toChainId),
    fromAddress: account.address,
    toAddress: receiver,
  })
  expect(built.route.transactionRequest.to).toBe(squidRouter)
  expect(built.route.estimate.actions.map((action) => action.type)).toEqual(['swap', 'bridge', 'transfer'])
  expect(built.route.spender).toBeNull()

  const chain = buildViemChain({
    chainId: fromChainId,
    name: 'Avalanche',
    rpcUrl: anvil.rpcUrl,
    nativeSymbol: 'AVAX',
  })
  const wallet = createWalletClient({ account, chain, transport: http(anvil.rpcUrl) })
  const request = built.route.transactionRequest
  const hash = await wallet.sendTransaction({
    to: request.to,
    data: request.data,
    value: BigInt(request.value),
    gas: BigInt(request.gasLimit),
    maxFeePerGas: BigInt(request.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(request.maxPriorityFeePerGas),
  })
  const mined = await createPublicClient({ chain, transport: http(anvil.rpcUrl) }).waitForTransactionReceipt({
    hash,
  })
  expect(mined.status).toBe('success')

  const receipt = await postJson(testApp.app, `/api/route-intent/${built.intentId}/receipt`, { txHash: hash })
  expect(receipt.statusCode, receipt.body).toBe(202)
  return { built, hash, payer: account.address, requestId: `req-squid-${routeCount}` }
}

/** Polls GET /api/data/transactions/{payer} (as the pay modal does) until the intent's record passes `isDone`. */
async function waitForRecord(
  payer: string,
  intentId: string,
  isDone: (record: TestTransactionRecord & Record<string, unknown>) => boolean,
  timeoutMs = 20_000,
): Promise<TestTransactionRecord & Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs
  let last: (TestTransactionRecord & Record<string, unknown>) | undefined
  while (Date.now() < deadline) {
    const response = await testApp.app.inject({ method: 'GET', url: `/api/data/transactions/${payer}` })
    expect(response.statusCode, response.body).toBe(200)
    last = (response.json().data as (TestTransactionRecord & Record<string, unknown>)[]).find(
      (record) => record.intent_id === intentId,
    )
    if (last && isDone(last)) return last
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`record of ${intentId} never got there within ${timeoutMs} ms: ${JSON.stringify(last)}`)
}

const statusCallsFor = (hash: string) =>
  squidRequests.filter(
    (request) => request.path === '/v2/status' && request.query.get('transactionId') === hash,
  )

/** Squid answers `ongoing` until the record shows it: bridging, with Squid's own fields written. */
async function expectBridging(payer: string, intentId: string, hash: string) {
  const record = await waitForRecord(
    payer,
    intentId,
    (candidate) => candidate.status_raw === 'ongoing' && candidate.gas_status === 'gas_paid',
  )
  expect(statusCallsFor(hash).length).toBeGreaterThan(0)
  expect(record).toMatchObject({
    status: 'bridging',
    status_raw: 'ongoing',
    source_tx_hash: hash,
    dest_tx_hash: null,
    is_refunded: false,
    is_gmp_transaction: true,
    error_message: null,
    from_chain_tx_url: `https://snowtrace.io/tx/${hash}`,
    to_chain_tx_url: null,
  })
  expect(record.route_status).toEqual([
    { type: 'swap', chainId: fromChainId, txHash: hash, status: 'success' },
    { type: 'bridge', chainId: fromChainId, txHash: hash, status: 'pending' },
    { type: 'transfer', chainId: toChainId, txHash: null, status: 'pending' },
  ])
  return record
}

describe('Squid-routed payments, from POST /api/squid/route to the transaction record', {
  timeout: 60_000,
}, () => {
  it('goes from bridging (ongoing) to success with the destination hash Squid reports', async () => {
    // Squid has not indexed the transaction yet (404): the mined source keeps the record bridging,
    // never back at submitted, and tracking goes on.
    statusReply = null
    const { built, hash, payer, requestId } = await payThroughSquid(1)
    const unknown = await waitForRecord(
      payer,
      built.intentId,
      (candidate) => candidate.status_raw === 'ongoing' && statusCallsFor(hash).length >= 2,
    )
    expect(unknown).toMatchObject({ status: 'bridging', source_tx_hash: hash, dest_tx_hash: null })

    statusReply = fixture('status-ongoing')
    const bridging = await expectBridging(payer, built.intentId, hash)
    expect(bridging.request_id).toBe(requestId)

    // Every status call names the payment as the route call left it: integrator, request id, quote id.
    for (const call of statusCallsFor(hash)) {
      expect(call.headers['x-integrator-id']).toBe(integratorId)
      expect(Object.fromEntries(call.query)).toEqual({
        transactionId: hash,
        fromChainId: String(fromChainId),
        toChainId: String(toChainId),
        requestId,
        quoteId: recordedQuoteId,
      })
    }

    statusReply = fixture('status-success')
    const record = await waitForRecord(payer, built.intentId, (candidate) => candidate.status !== 'bridging')
    expect(record).toMatchObject({
      status: 'success',
      status_raw: 'success',
      source_tx_hash: hash,
      dest_tx_hash: recordedDestTxHash,
      is_refunded: false,
      error_message: null,
      gas_status: 'gas_paid_enough_gas',
      from_chain_tx_url: `https://snowtrace.io/tx/${hash}`,
      to_chain_tx_url: `https://basescan.org/tx/${recordedDestTxHash}`,
      request_id: requestId,
    })
    expect(record.route_status).toEqual([
      { type: 'swap', chainId: fromChainId, txHash: hash, status: 'success' },
      { type: 'bridge', chainId: fromChainId, txHash: recordedDestTxHash, status: 'success' },
      { type: 'transfer', chainId: toChainId, txHash: recordedDestTxHash, status: 'success' },
    ])
    expect(record.time_spent_ms).toBeGreaterThanOrEqual(0)

    // A final payment is no longer polled.
    const callsAtEnd = statusCallsFor(hash).length
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(statusCallsFor(hash).length).toBe(callsAtEnd)
  })

  const failures = [
    {
      name: 'partial_success (delivered, but not as the link’s token) fails the payment',
      payerIndex: 3,
      // The recorded success, with the word Squid uses when the destination call did not deliver the asked token.
      reply: () => ({ ...fixture('status-success'), squidTransactionStatus: 'partial_success' }),
      statusRaw: 'partial_success',
      isRefunded: false,
      destTxHash: recordedDestTxHash,
      errorMessage: 'partial success',
    },
    {
      name: 'a refund fails the payment and marks it refunded',
      payerIndex: 4,
      reply: () => fixture('status-refund'),
      statusRaw: 'refunded',
      isRefunded: true,
      destTxHash: null,
      errorMessage: 'refunded',
    },
  ] as const

  for (const failure of failures) {
    it(failure.name, async () => {
      statusReply = fixture('status-ongoing')
      const { built, hash, payer } = await payThroughSquid(failure.payerIndex)
      await expectBridging(payer, built.intentId, hash)

      statusReply = failure.reply()
      const record = await waitForRecord(
        payer,
        built.intentId,
        (candidate) => candidate.status !== 'bridging',
      )
      expect(record).toMatchObject({
        status: 'failed',
        status_raw: failure.statusRaw,
        is_refunded: failure.isRefunded,
        source_tx_hash: hash,
        dest_tx_hash: failure.destTxHash,
        error_message: failure.errorMessage,
      })
      expect(record.route_status.map((step) => step.status)).toEqual(['success', 'failed', 'failed'])
      for (const call of statusCallsFor(hash)) {
        expect(call.headers['x-integrator-id']).toBe(integratorId)
        expect(call.query.get('quoteId')).toBe(recordedQuoteId)
      }
    })
  }
})
