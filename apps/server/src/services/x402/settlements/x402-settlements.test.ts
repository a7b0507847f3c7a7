import { eip3009ABI } from '@x402/evm'
import { eq } from 'drizzle-orm'
import { encodeFunctionData, type Hash, keccak256, parseSignature, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { buildTestApp } from '../../../../test/build-test-app.ts'
import { usePaymentScene } from '../../../../test/payment-scene.ts'
import { getDevnetRelayerPrivateKey } from '../../../../test/payment-test-kit.ts'
import { waitUntil } from '../../../../test/wait-until.ts'
import {
  readTransfers,
  signX402Payment,
  usdcRequirements,
  x402PayerIndex,
  x402ReceiverIndex,
} from '../../../../test/x402-test-kit.ts'
import { x402Settlements } from '../../../db/schema.ts'
import { signRelayerTransaction } from '../../payments/providers/local/relayer/relayer-chain.ts'
import { queueX402Settlement, recordX402Signed } from './x402-settlements-repository.ts'

// The facilitator's settlements through the relayer (docs/decisions/0031), in-process on the
// devnet: written down before they are sent, one per authorization, sent only by the writer.

const scene = usePaymentScene()
const base = 8453

const settleOnce = async (app = scene.testApp.app, amount = parseUnits('1.25', 6)) => {
  const { devnet } = scene
  const requirements = usdcRequirements(devnet, base, devnet.account(x402ReceiverIndex).address, amount)
  const payload = await signX402Payment(devnet, x402PayerIndex, requirements)
  return { requirements, payload, client: await app.x402.facilitatorClient() }
}

const readRow = async (hash: string) => {
  const [row] = await scene.testApp.app.db
    .select()
    .from(x402Settlements)
    .where(eq(x402Settlements.txHash, hash))
  return row
}

describe('x402 settlements through the relayer', { timeout: 90_000 }, () => {
  it('settles an authorization from the relayer key, its hash and bytes written down before it was sent', async () => {
    const { devnet } = scene
    const receiver = devnet.account(x402ReceiverIndex).address
    const usdc = devnet.token(base, 'USDC')
    const before = await devnet.balanceOf(base, usdc, receiver)
    const { requirements, payload, client } = await settleOnce()

    const settled = await client.settle(payload, requirements)
    expect(settled).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: devnet.account(x402PayerIndex).address,
    })
    expect(await devnet.balanceOf(base, usdc, receiver)).toBe(before + parseUnits('1.25', 6))
    const transaction = await devnet.publicClient(base).getTransaction({ hash: settled.transaction as Hash })
    expect(transaction.from.toLowerCase()).toBe(devnet.chain(base).relayer.toLowerCase())
    const row = await readRow(settled.transaction)
    expect(row).toMatchObject({ state: 'sent', network: 'eip155:8453', asset: usdc.toLowerCase() })
    expect(keccak256(row?.rawTx as `0x${string}`)).toBe(settled.transaction)
  })

  it('sends one authorization submitted twice at once once, and refuses the other as a used nonce', async () => {
    const { devnet } = scene
    const receiver = devnet.account(x402ReceiverIndex).address
    const usdc = devnet.token(base, 'USDC')
    const before = await devnet.balanceOf(base, usdc, receiver)
    const { requirements, payload, client } = await settleOnce(scene.testApp.app, parseUnits('2', 6))

    const answers = await Promise.all([
      client.settle(payload, requirements),
      client.settle(payload, requirements),
    ])
    const settled = answers.filter((answer) => answer.success)
    expect(settled).toHaveLength(1)
    expect(answers.find((answer) => !answer.success)?.errorReason).toBe(
      'invalid_exact_evm_nonce_already_used',
    )
    expect(await readTransfers(devnet, base, settled[0]?.transaction as Hash)).toHaveLength(1)
    expect(await devnet.balanceOf(base, usdc, receiver)).toBe(before + parseUnits('2', 6))
  })

  it('queues the settlement of an instance that is not the writer, and the writer sends it', async () => {
    const { devnet, testApp } = scene
    // A second instance on the same database with the same key, without workers: never the writer.
    const other = await buildTestApp(
      {
        devMode: true,
        devnetDeploymentFile: devnet.deploymentFile,
        relayerPrivateKey: getDevnetRelayerPrivateKey(),
      },
      { database: testApp.database },
    )
    try {
      expect(await other.app.relayerHub?.isWriter()).toBe(false)
      const { requirements, payload, client } = await settleOnce(other.app, parseUnits('0.5', 6))
      const settled = await client.settle(payload, requirements)
      expect(settled.success).toBe(true)
      const row = await readRow(settled.transaction)
      expect(row?.state).toBe('sent')
      expect(
        testApp.logs.some(
          (line) => line.msg === 'Relayer sent a queued x402 settlement' && line.settlementId === row?.id,
        ),
      ).toBe(true)
    } finally {
      await other.app.close()
    }
  })

  it('sends the same bytes again when a settlement was signed and written down but never sent (a restart)', async () => {
    const { devnet, testApp } = scene
    const chain = (await testApp.app.relayerHub?.chains())?.get(base)
    if (!chain) throw new Error('no relayer chain for Base')
    const { requirements, payload } = await settleOnce(testApp.app, parseUnits('0.75', 6))
    const { authorization, signature } = payload.payload as {
      authorization: {
        from: `0x${string}`
        to: `0x${string}`
        value: string
        validAfter: string
        validBefore: string
        nonce: `0x${string}`
      }
      signature: `0x${string}`
    }
    const { v, yParity, r, s: sValue } = parseSignature(signature)
    const data = encodeFunctionData({
      abi: eip3009ABI,
      functionName: 'transferWithAuthorization',
      args: [
        authorization.from,
        authorization.to,
        BigInt(authorization.value),
        BigInt(authorization.validAfter),
        BigInt(authorization.validBefore),
        authorization.nonce,
        Number(v ?? BigInt(yParity)),
        r,
        sValue,
      ],
    })
    const asset = requirements.asset as `0x${string}`
    // What a writer that died between writing the row and the broadcast leaves behind.
    const row = await queueX402Settlement(testApp.app.db, {
      network: requirements.network,
      chainId: base,
      asset,
      payer: authorization.from,
      nonce: authorization.nonce,
      data,
    })
    if (!row) throw new Error('not queued')
    await testApp.app.db
      .update(x402Settlements)
      .set({ state: 'signing' })
      .where(eq(x402Settlements.id, row.id))
    const signed = await signRelayerTransaction(chain, { to: asset, data })
    await recordX402Signed(testApp.app.db, row.id, signed, Date.now() - 60_000)

    await waitUntil(
      async () => (await readRow(signed.hash))?.state === 'sent',
      20_000,
      'the written-down settlement sent again',
    )
    const receipt = await devnet.publicClient(base).waitForTransactionReceipt({ hash: signed.hash })
    expect(receipt.status).toBe('success')
    expect((await readRow(signed.hash))?.state).toBe('sent')
  })
})
