import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import {
  receiptDomain,
  receiptPrimaryType,
  receiptTypes,
  reviveReceiptMessage,
  type SignedReceipt,
  toReceiptMessageJson,
} from '@quicklinks/core/api/receipts'
import { repoRoot } from '@quicklinks/runtime/env'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from './build-test-app.ts'
import { type PaymentDevnet, startPaymentApp, startPaymentDevnet } from './payment-test-kit.ts'
import { payTestLink } from './receipt-test-kit.ts'

// `npm run verify-receipt` as a user runs it: a real process, a served receipt, the devnet's RPC.

let devnet: PaymentDevnet
let testApp: TestApp
let origin: string
let receiptUrl: string
let receipt: SignedReceipt
let wellKnown: unknown
let forger: Server
/** What the forger's server answers at /api/receipts/… and at the well-known path. */
const forged: { receipt: unknown; wellKnown: unknown } = { receipt: null, wellKnown: null }

beforeAll(async () => {
  devnet = await startPaymentDevnet()
  testApp = await startPaymentApp(devnet, { receiptSigningKey: generatePrivateKey() })
  origin = await testApp.app.listen({ host: '127.0.0.1', port: 0 })
  const payment = await payTestLink(devnet, testApp.app, { ownerEmail: null })
  receiptUrl = `${origin}/api/receipts/${payment.intentId}`
  receipt = ((await (await fetch(receiptUrl)).json()) as { data: SignedReceipt }).data
  wellKnown = await (await fetch(`${origin}/.well-known/quick-links-receipts.json`)).json()
  forger = createServer((request, response) => {
    const body = request.url?.startsWith('/.well-known/') ? forged.wellKnown : { data: forged.receipt }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  })
  await new Promise<void>((resolve) => forger.listen(0, '127.0.0.1', resolve))
}, 180_000)

afterAll(async () => {
  await new Promise((resolve) => forger?.close(resolve))
  await testApp?.close()
  await devnet?.stop()
})

function runCli(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      join(repoRoot, 'node_modules', '.bin', 'tsx'),
      [join(repoRoot, 'apps', 'server', 'bin', 'verify-receipt.ts'), ...args],
      { cwd: repoRoot, timeout: 60_000 },
      (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: stdout.trim() }),
    )
  })
}

const forgerUrl = () =>
  `http://127.0.0.1:${(forger.address() as AddressInfo).port}/api/receipts/${receipt.message.sourceTxHash}`
const rpcUrl = () => devnet.chain(8453).rpcUrl

/** The receipt with a bigger amount, signed again by `key`. */
async function reSign(key: `0x${string}`): Promise<SignedReceipt> {
  const account = privateKeyToAccount(key)
  const message = reviveReceiptMessage(receipt.message)
  const edited = { ...message, amountReceived: message.amountReceived * 2n }
  const signature = await account.signTypedData({
    domain: receiptDomain,
    types: receiptTypes,
    primaryType: receiptPrimaryType,
    message: edited,
  })
  return { ...receipt, message: toReceiptMessageJson(edited), signature, signer: account.address }
}

describe('npm run verify-receipt', { timeout: 120_000 }, () => {
  it('says "verified" for a devnet payment\'s receipt, checked against the devnet RPC', async () => {
    expect(await runCli([receiptUrl, '--rpc', rpcUrl()])).toEqual({ code: 0, stdout: 'verified' })
    expect(await runCli([receiptUrl, '--rpc', `8453=${rpcUrl()}`, '--signer', receipt.signer])).toEqual({
      code: 0,
      stdout: 'verified',
    })
  })

  it('says "signature invalid" for an edited amount under the instance\'s signature, or a signer other than expected', async () => {
    const message = {
      ...receipt.message,
      amountReceived: (BigInt(receipt.message.amountReceived) * 2n).toString(),
    }
    forged.receipt = { ...receipt, message }
    forged.wellKnown = wellKnown
    const edited = await runCli([forgerUrl(), '--rpc', rpcUrl()])
    expect(edited.code).toBe(1)
    expect(edited.stdout).toMatch(/^signature invalid/)

    const stranger = privateKeyToAccount(generatePrivateKey()).address
    const pinned = await runCli([receiptUrl, '--rpc', rpcUrl(), '--signer', stranger])
    expect(pinned).toEqual({
      code: 1,
      stdout: `signature invalid: signed by ${receipt.signer}, not the expected signer ${stranger}`,
    })
  })

  it('says the signer does not match when an edited receipt is signed again by another key', async () => {
    forged.receipt = await reSign(generatePrivateKey())
    forged.wellKnown = wellKnown
    const answer = await runCli([forgerUrl(), '--rpc', rpcUrl()])
    expect(answer.code).toBe(1)
    expect(answer.stdout).toMatch(
      /^signature invalid: signed by 0x[0-9a-fA-F]{40}, but http:\/\/127\.0\.0\.1:\d+ signs with /,
    )
  })

  it('says "does not match the chain" for an edited amount a lying server signed with its own key', async () => {
    const key = generatePrivateKey()
    const lie = await reSign(key)
    forged.receipt = lie
    forged.wellKnown = { ...(wellKnown as object), signer: lie.signer }
    const answer = await runCli([forgerUrl(), '--rpc', rpcUrl(), '--signer', lie.signer])
    expect(answer.code).toBe(1)
    expect(answer.stdout).toBe(
      `does not match the chain: the destination transaction credited ${receipt.message.receiver} ${receipt.message.amountReceived} of ${receipt.message.destinationToken}, not ${lie.message.amountReceived}`,
    )
  })
})
