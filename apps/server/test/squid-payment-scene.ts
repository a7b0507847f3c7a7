import {
  type SquidStandIn,
  squidRouterAddress,
  startSquidStandIn,
} from '@quicklinks/devnet/start-squid-stand-in'
import { erc20Abi, type Hash, parseEther } from 'viem'
import { afterAll, beforeAll, expect } from 'vitest'
import { buildTestApp, type TestApp } from './build-test-app.ts'
import { createWorkerRounds } from './create-worker-rounds.ts'
import {
  nativeToken,
  type PaymentDevnet,
  postJson,
  startPaymentDevnet,
  type TestTransactionRecord,
  withTestLink,
} from './payment-test-kit.ts'

// A Squid-routed payment followed from the route to its transaction record: the source
// transaction really runs on the devnet's Avalanche anvil, Squid is the project's loopback
// stand-in (documented response shapes; statuses replayed from ./fixtures/squid), and the
// destination chain is the devnet's Base anvil, where the tracker checks what Squid claims.

export const integratorId = 'quick-links-test'
export const fromChainId = 43114
export const toChainId = 8453
/** The hashes the status fixtures were recorded with; the replay puts this payment's in their place. */
const recordedSourceTxHash = '0xc6b6ed43d2e29b36197a1acc711ed14eec735de8525689ab0d216f736f4ba65c'
const recordedDestTxHash = '0x9af48c105a6556155eb86e9a2f552a51474ea11ff37a9a86c2ed24bb37abbbee'
/** Who plays Squid's executor on the destination chain (it holds devnet USDC). */
const executorIndex = 8

/**
 * Registers the file's hooks (a payment devnet, the Squid stand-in replaying `statusReply`, an app
 * routing through Squid and running its workers every 100 ms; all stopped after the file) and
 * returns the helpers that pay through Squid and follow the record. Call once at the top of a file.
 */
export function useSquidPaymentScene() {
  let devnet: PaymentDevnet
  let squid: SquidStandIn
  let testApp: TestApp
  /** The status body GET /v2/status replays now (null: 404), with this payment's hashes put in. */
  let statusReply: Record<string, unknown> | null = null
  let destTxHash: string = recordedDestTxHash

  /** The tracker's rounds: the tests wait for them, not for time. */
  const rounds = createWorkerRounds()

  beforeAll(async () => {
    devnet = await startPaymentDevnet()
    squid = await startSquidStandIn({ deployment: devnet.deployment, integratorId })
    squid.setStatus((query) =>
      statusReply === null
        ? null
        : (JSON.parse(
            JSON.stringify(statusReply)
              .replaceAll(recordedSourceTxHash, query.transactionId)
              .replaceAll(recordedDestTxHash, destTxHash),
          ) as Record<string, unknown>),
    )
    testApp = await buildTestApp(
      {
        routingProvider: 'squid',
        squidApiUrl: squid.url,
        squidIntegratorId: integratorId,
        rpcUrls: Object.fromEntries(devnet.deployment.chains.map((chain) => [chain.chainId, chain.rpcUrl])),
        workerIntervalMs: 100,
      },
      { startWorkers: true, onWorkerRound: rounds.onWorkerRound },
    )
  })

  afterAll(async () => {
    await testApp?.close()
    await squid?.stop()
    await devnet?.stop()
  })

  type BuiltRoute = {
    intentId: `0x${string}`
    route: {
      transactionRequest: {
        to: `0x${string}`
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

  /** A fresh receiver (holds nothing). */
  function freshAddress(): `0x${string}` {
    return `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('hex')}`
  }

  /**
   * Builds an AVAX → Base USDC route through POST /api/squid/route for `payerIndex`, sends its
   * transaction on the Avalanche anvil as the pay modal's wallet would, and posts the receipt.
   */
  async function payThroughSquid(payerIndex: number) {
    const payer = devnet.account(payerIndex).address
    const receiver = freshAddress()
    const response = await postJson(
      testApp.app,
      '/api/squid/route',
      await withTestLink(testApp.app, {
        fromChain: fromChainId,
        toChain: String(toChainId),
        fromToken: nativeToken,
        toToken: devnet.token(toChainId, 'USDC'),
        fromAmount: parseEther('1').toString(),
        fromAddress: payer,
        toAddress: receiver,
        slippage: 1,
      }),
    )
    expect(response.statusCode, response.body).toBe(200)
    const built = response.json().data as BuiltRoute
    const routeCall = squid.requests.findLast((request) => request.path === '/v2/route')
    expect(routeCall?.headers['x-integrator-id']).toBe(integratorId)
    expect(routeCall?.body).toMatchObject({ fromChain: String(fromChainId), toChain: String(toChainId) })
    expect(built.route.transactionRequest.to).toBe(squidRouterAddress)
    expect(built.route.spender).toBeNull()

    const request = built.route.transactionRequest
    const hash = await devnet.wallet(fromChainId, payerIndex).sendTransaction({
      to: request.to,
      data: request.data,
      value: BigInt(request.value),
      gas: BigInt(request.gasLimit),
    })
    const mined = await devnet.publicClient(fromChainId).waitForTransactionReceipt({ hash })
    expect(mined.status).toBe('success')
    const receipt = await postJson(testApp.app, `/api/route-intent/${built.intentId}/receipt`, {
      txHash: hash,
    })
    expect(receipt.statusCode, receipt.body).toBe(202)
    const requestId = routeCall ? squid.requests.indexOf(routeCall) : -1
    expect(requestId).toBeGreaterThanOrEqual(0)
    return { built, hash, payer, receiver, toAmountMin: BigInt(built.route.estimate.toAmountMin) }
  }

  /** Squid's executor pays `amount` of Base USDC to `to` on the destination anvil; returns the hash. */
  async function deliver(to: `0x${string}`, amount: bigint): Promise<Hash> {
    const hash = await devnet.wallet(toChainId, executorIndex).writeContract({
      address: devnet.token(toChainId, 'USDC'),
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, amount],
    })
    await devnet.publicClient(toChainId).waitForTransactionReceipt({ hash })
    return hash
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
      // Read again after each tracker round (listening first, so a round during the read counts).
      const round = rounds.next('tracker')
      const response = await testApp.app.inject({ method: 'GET', url: `/api/data/transactions/${payer}` })
      expect(response.statusCode, response.body).toBe(200)
      last = (response.json().data as (TestTransactionRecord & Record<string, unknown>)[]).find(
        (record) => record.intent_id === intentId,
      )
      if (last && isDone(last)) return last
      await round
    }
    throw new Error(`record of ${intentId} never got there within ${timeoutMs} ms: ${JSON.stringify(last)}`)
  }

  const statusCallsFor = (hash: string) =>
    squid.requests.filter(
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
    })
    expect(record.route_status.map((step) => step.status)).toEqual(['success', 'pending'])
    return record
  }

  return {
    rounds,
    /** The status body GET /v2/status replays now (null: 404). */
    get statusReply() {
      return statusReply
    },
    set statusReply(reply: Record<string, unknown> | null) {
      statusReply = reply
    },
    /** The destination transaction the replayed status names. */
    get destTxHash() {
      return destTxHash
    },
    set destTxHash(hash: string) {
      destTxHash = hash
    },
    freshAddress,
    payThroughSquid,
    deliver,
    waitForRecord,
    statusCallsFor,
    expectBridging,
  }
}
