import { erc20Abi, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { createWorkerRounds } from '../../../../test/create-worker-rounds.ts'
import { usePaymentScene } from '../../../../test/payment-scene.ts'
import { buildTestRoute, postJson, type TestTransactionRecord } from '../../../../test/payment-test-kit.ts'

// A chain that reorgs under a payment: with a confirmation depth of 2 on Base, the record is not a
// success before two blocks sit on the payment, goes back to waiting when the payment leaves the
// chain, and is a success again (once, with the amount that arrived) when it is mined again.

const payerIndex = 1
const rounds = createWorkerRounds()
const scene = usePaymentScene({ confirmations: { 8453: 2 } }, { onWorkerRound: rounds.onWorkerRound })

async function readRecord(payer: string, intentId: string): Promise<TestTransactionRecord | undefined> {
  const response = await scene.testApp.app.inject({ method: 'GET', url: `/api/data/transactions/${payer}` })
  return (response.json().data as TestTransactionRecord[]).find((record) => record.intent_id === intentId)
}

async function waitForStatus(
  payer: string,
  intentId: string,
  status: string,
): Promise<TestTransactionRecord> {
  const deadline = Date.now() + 20_000
  let last: TestTransactionRecord | undefined
  while (Date.now() < deadline) {
    // Read again after each tracker round (listening first, so a round during the read counts).
    const round = rounds.next('tracker')
    last = await readRecord(payer, intentId)
    if (last?.status === status) return last
    await round
  }
  throw new Error(`record never ${status}: ${JSON.stringify(last)}`)
}

const rpc = (method: string, params: unknown[] = []) =>
  scene.devnet.publicClient(8453).request({ method, params } as never) as Promise<unknown>

describe('a reorg under a same-chain payment, confirmation depth 2', { timeout: 60_000 }, () => {
  it('is no success before two blocks, moves back when reorged out, and succeeds once when mined again', async () => {
    const { devnet, testApp } = scene
    const payer = devnet.account(payerIndex).address
    const receiver = devnet.account(8).address
    const usdc = devnet.token(8453, 'USDC')
    const amount = parseUnits('4', 6)
    const route = await buildTestRoute(testApp.app, {
      fromChain: 8453,
      toChain: 8453,
      fromToken: usdc,
      toToken: usdc,
      fromAmount: amount.toString(),
      fromAddress: payer,
      toAddress: receiver,
    })
    const before = await devnet.balanceOf(8453, usdc, receiver)
    const snapshot = await rpc('evm_snapshot')
    const wallet = devnet.wallet(8453, payerIndex)
    const client = devnet.publicClient(8453)
    const approve = async () => {
      const hash = await wallet.writeContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'approve',
        args: [route.route.transactionRequest.to, amount],
      })
      await client.waitForTransactionReceipt({ hash })
    }
    await approve()
    const request = await wallet.prepareTransactionRequest({
      to: route.route.transactionRequest.to,
      data: route.route.transactionRequest.data,
      value: 0n,
      gas: BigInt(route.route.transactionRequest.gasLimit),
    })
    const signed = await wallet.signTransaction(request)
    const hash = await client.sendRawTransaction({ serializedTransaction: signed })
    await client.waitForTransactionReceipt({ hash })

    const posted = await postJson(testApp.app, `/api/route-intent/${route.intentId}/receipt`, {
      txHash: hash,
    })
    expect(posted.json().data.status).toBe('submitted')
    // Three more rounds of every tracker lane do not make one block enough.
    await rounds.settle('tracker', 3)
    expect((await readRecord(payer, route.intentId))?.status).toBe('submitted')

    await rpc('anvil_mine', ['0x2'])
    const confirmed = await waitForStatus(payer, route.intentId, 'success')
    expect(confirmed.to_amount_wei).toBe(amount.toString())

    // The payment (and its approval) leave the chain.
    expect(await rpc('evm_revert', [snapshot])).toBe(true)
    expect(await devnet.balanceOf(8453, usdc, receiver)).toBe(before)
    const reorged = await waitForStatus(payer, route.intentId, 'submitted')
    expect(reorged.to_amount_wei).toBeNull()

    // Mined again, in another block: the same transaction, so the same record, a success once more.
    await approve()
    expect(await client.sendRawTransaction({ serializedTransaction: signed })).toBe(hash)
    await client.waitForTransactionReceipt({ hash })
    await rpc('anvil_mine', ['0x4'])
    const again = await waitForStatus(payer, route.intentId, 'success')
    expect(again.source_tx_hash).toBe(hash)
    expect(again.to_amount_wei).toBe(amount.toString())
    expect((await devnet.balanceOf(8453, usdc, receiver)) - before).toBe(amount)
  })
})
