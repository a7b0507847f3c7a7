import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { buildTestApp } from '../../../../test/build-test-app.ts'
import {
  createReceiverLink,
  sendRouteTransaction as sendTestRouteTransaction,
  usePaymentScene,
} from '../../../../test/payment-scene.ts'
import {
  buildTestRoute,
  nativeToken,
  postJson,
  type TestRoute,
  waitForFinalRecord,
  withTestLink,
} from '../../../../test/payment-test-kit.ts'

// Local payments that fail or are refused: a revert, a transaction that is not the route's,
// receipts for hashes the chain does not have yet, routes the server cannot build (the successful
// ones are in local-payments.test.ts; the set-up is the payment scene's).

const scene = usePaymentScene()

const payerIndex = 1
const receiverIndex = 2

/** A payment link of account 2 for `symbol` on `chainId`, stored as the owner would create it. */
const createLink = (chainId: number, symbol: string) =>
  createReceiverLink(scene, receiverIndex, chainId, symbol)

type BuiltRoute = TestRoute

const buildRoute = (body: Record<string, unknown>): Promise<BuiltRoute> =>
  buildTestRoute(scene.testApp.app, body)

/** Sends exactly the route's transaction from the payer and waits until it is mined. */
const sendRouteTransaction = (fromChain: number, built: BuiltRoute) =>
  sendTestRouteTransaction(scene.devnet, payerIndex, fromChain, built)

// Chain round trips on a CI runner shared by every test project: more room than the default 30 s.
describe('local payments on the devnet that fail or are refused', { timeout: 60_000 }, () => {
  it('fails a reverted payment with its revert reason', async () => {
    const { devnet, testApp } = scene
    const payer = devnet.account(payerIndex).address
    const usdc = devnet.token(8453, 'USDC')
    const built = await buildRoute({
      fromChain: 8453,
      toChain: 8453,
      fromToken: usdc,
      toToken: usdc,
      fromAmount: parseUnits('1000000', 6).toString(),
      fromAddress: payer,
      toAddress: devnet.account(receiverIndex).address,
    })
    // Exactly the route's transaction, sent without an approval of that much USDC: it reverts.
    const { hash, receipt } = await sendRouteTransaction(8453, built)
    expect(receipt.status).toBe('reverted')
    expect(
      (await postJson(testApp.app, `/api/route-intent/${built.intentId}/receipt`, { txHash: hash }))
        .statusCode,
    ).toBe(202)

    const record = await waitForFinalRecord(testApp.app, payer, built.intentId)
    expect(record.status).toBe('failed')
    expect(record.error_message).toMatch(/ERC20InsufficientAllowance/)
    expect(record.route_status.map((step) => step.status)).toEqual(['failed'])
  })

  it('fails a receipt whose transaction is not the route’s', async () => {
    const { devnet, testApp } = scene
    const payer = devnet.account(payerIndex).address
    const built = await buildRoute({
      fromChain: 8453,
      toChain: 8453,
      fromToken: nativeToken,
      toToken: nativeToken,
      fromAmount: '1000',
      fromAddress: payer,
      toAddress: devnet.account(receiverIndex).address,
    })
    const hash = await devnet
      .wallet(8453, payerIndex)
      .sendTransaction({ to: devnet.account(3).address, value: 1000n })
    await devnet.publicClient(8453).waitForTransactionReceipt({ hash })
    expect(
      (await postJson(testApp.app, `/api/route-intent/${built.intentId}/receipt`, { txHash: hash }))
        .statusCode,
    ).toBe(202)
    const record = await waitForFinalRecord(testApp.app, payer, built.intentId)
    expect(record.status).toBe('failed')
    expect(record.source_tx_hash).toBe(hash)
    expect(record.error_message).toBe(
      "Transaction does not match the route: it calls another contract than the route's.",
    )
  })

  it('answers receipts: 202 for hashes not yet on chain (each a candidate), 404 for an unknown intent, 422 for a bad hash', async () => {
    const { devnet, testApp } = scene
    const built = await buildRoute({
      fromChain: 8453,
      toChain: 8453,
      fromToken: nativeToken,
      toToken: nativeToken,
      fromAmount: '1000',
      fromAddress: devnet.account(5).address,
      toAddress: devnet.account(receiverIndex).address,
    })
    const first = `0x${'ab'.repeat(32)}`
    const url = `/api/route-intent/${built.intentId}/receipt`
    const accepted = await postJson(testApp.app, url, { txHash: first })
    expect(accepted.statusCode).toBe(202)
    expect(accepted.json().data).toEqual({ intentId: built.intentId, txHash: first, status: 'submitted' })
    expect(
      (await postJson(testApp.app, url, { txHash: first.toUpperCase().replace('0X', '0x') })).statusCode,
    ).toBe(202)
    // Nothing is believed before the chain shows it: a second unknown hash waits beside the first.
    const second = await postJson(testApp.app, url, { txHash: `0x${'cd'.repeat(32)}` })
    expect(second.statusCode).toBe(202)
    expect(second.json().data.status).toBe('submitted')
    const unknown = await postJson(testApp.app, `/api/route-intent/0x${'12'.repeat(32)}/receipt`, {
      txHash: first,
    })
    expect(unknown.statusCode).toBe(404)
    const bad = await postJson(testApp.app, url, { txHash: 'nope' })
    expect(bad.statusCode).toBe(422)
    expect(bad.json().error.message).toBe('txHash must be a transaction hash (0x followed by 64 hex digits).')
  })

  it('answers 503 for a cross-chain route when the server has no relayer key', async () => {
    const { devnet } = scene
    const withoutRelayer = await buildTestApp({ devnetDeploymentFile: devnet.deploymentFile })
    try {
      const response = await postJson(
        withoutRelayer.app,
        '/api/local/route',
        await withTestLink(withoutRelayer.app, {
          fromChain: 42161,
          toChain: 43114,
          fromToken: devnet.token(42161, 'USDC'),
          toToken: devnet.token(43114, 'USDC'),
          fromAmount: '1000000',
          fromAddress: devnet.account(payerIndex).address,
          toAddress: devnet.account(receiverIndex).address,
        }),
      )
      expect(response.statusCode).toBe(503)
      expect(response.json().error.message).toBe(
        'Cross-chain payments are not available: this server has no relayer configured (RELAYER_PRIVATE_KEY). Pay on the same chain.',
      )
    } finally {
      await withoutRelayer.close()
    }
  })

  it('refuses routes it cannot build with 422 and a message naming the problem', async () => {
    const { devnet, testApp } = scene
    const payer = devnet.account(payerIndex).address
    const receiver = devnet.account(receiverIndex).address
    const usdc = devnet.token(8453, 'USDC')
    const valid = {
      fromChain: 8453,
      toChain: 8453,
      fromToken: nativeToken,
      toToken: usdc,
      fromAmount: '1000000000000000',
      fromAddress: payer,
      toAddress: receiver,
    }
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { ...valid, fromAmount: '0' },
        'fromAmount',
        "fromAmount must be a positive integer in the token's smallest unit.",
      ],
      [
        { ...valid, fromAmount: '1.5' },
        'fromAmount',
        "fromAmount must be a positive integer in the token's smallest unit.",
      ],
      [
        { ...valid, fromAmount: undefined },
        'fromAmount',
        "fromAmount must be a positive integer in the token's smallest unit.",
      ],
      [{ ...valid, fromChain: 'base' }, 'fromChain', 'fromChain must be a chain id such as 8453.'],
      [
        { ...valid, toChain: 1 },
        'toChain',
        'Chain 1 is not supported. Supported chains: Base (8453), Avalanche (43114), Arbitrum (42161).',
      ],
      [
        { ...valid, toToken: `0x${'12'.repeat(20)}` },
        'toToken',
        `Token 0x${'12'.repeat(20)} is not available on Base.`,
      ],
      [
        { ...valid, fromAddress: '0x123' },
        'fromAddress',
        'fromAddress must be the paying wallet address (0x followed by 40 hex digits).',
      ],
      [
        { ...valid, toToken: nativeToken, toAddress: payer },
        'toAddress',
        'The receiver is the paying wallet: paying yourself the same token on the same chain does nothing.',
      ],
      [
        { ...valid, fromAmount: '1' },
        'fromAmount',
        '0.000000000000000001 ETH is too small to route: enter a larger amount.',
      ],
      [{ ...valid, slippage: 80 }, 'slippage', 'slippage must be a percentage from 0 to 50.'],
      [{ ...valid, linkId: 'x' }, 'linkId', 'linkId must be a link id (a UUID).'],
    ]
    for (const [body, field, message] of cases) {
      // Each names a link it pays, so what is refused is the route itself.
      const response = await postJson(testApp.app, '/api/local/route', await withTestLink(testApp.app, body))
      expect(response.statusCode, JSON.stringify(body)).toBe(422)
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field, message })
    }
    const link = await createLink(43114, 'USDC')
    const wrongLink = await postJson(testApp.app, '/api/local/route', { ...valid, linkId: link.id })
    expect(wrongLink.statusCode).toBe(422)
    expect(wrongLink.json().error.message).toBe(
      "The route does not pay this link: toChain, toToken and toAddress must be the link's.",
    )
  })
})
