// npm run bench: our x402 facilitator (issue 34, docs/decisions/0031), settle latency and 50 at once.
// Starts a throw-away devnet chain (Base on a free port), builds the app in-process (dev mode, its
// workers on, so its relayer holds the writer lock of the devnet's relayer key) listening on a free
// loopback port, and settles EIP-3009 USDC payments signed by @x402/evm's client scheme with a
// viem account, through POST /x402/facilitator/settle with @x402/core's HTTPFacilitatorClient (what
// a resource server with X402_FACILITATOR_URL calls):
//   - settle, request → mined and answered: median and p95 of 20, one at a time (2 untimed first);
//   - 50 distinct authorizations at once, each sent twice at once (100 requests): all 50 settle,
//     none twice (50 answers refused as a used nonce, 50 transactions with distinct relayer
//     nonces, one Transfer each, the receiver up by exactly 50 payments).
// Exits 1 when a settlement fails or the chain disagrees.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { devnetMnemonic } from '@quicklinks/devnet/devnet-chains'
import { startDevnet } from '@quicklinks/devnet/start-devnet'
import { HTTPFacilitatorClient } from '@x402/core/server'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { createPublicClient, erc20Abi, type Hash, http, parseEventLogs, parseUnits } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { findFreePorts } from '../../../packages/devnet/test/find-free-ports.ts'
import { buildApp } from '../src/app.ts'
import { parseServerEnv } from '../src/config/server-env.ts'
import { printLatencyTable, summarizeLatencies } from './lib/latency-table.ts'

const chainId = 8453
const timed = 20
const warmUps = 2
const atOnce = 50
const amount = parseUnits('0.01', 6)

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ql-bench-x402-'))
  const [chainPort = 0] = await findFreePorts(1)
  console.log(`• Starting the devnet chain ${chainId} on ${chainPort}…`)
  const devnet = await startDevnet({
    dataDir,
    bundlers: false,
    chains: [{ chainId, port: chainPort }],
  })
  let app: Awaited<ReturnType<typeof buildApp>> | undefined
  try {
    const chain = devnet.deployment.chains[0]
    const usdc = chain?.tokens.find((token) => token.symbol === 'USDC')
    if (!chain || !usdc?.signatures?.authorizations) throw new Error('no EIP-3009 USDC on the devnet')
    const config = parseServerEnv({
      DATA_DIR: dataDir,
      DEV_MODE: 'true',
      LOG_LEVEL: 'silent',
      PORT: '0',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      SIGNER_MASTER_KEY: '5e'.repeat(32),
      WORKER_INTERVAL_MS: '100',
      DEVNET_DEPLOYMENT_FILE: path.join(dataDir, 'devnet', 'deployment.json'),
      [`RPC_URL_${chainId}`]: chain.rpcUrl,
    })
    app = await buildApp(config, { startWorkers: true })
    const origin = await app.listen({ host: '127.0.0.1', port: 0 })
    const hub = app.relayerHub
    const deadline = Date.now() + 15_000
    while (!(await hub?.isWriter()) && Date.now() < deadline)
      await new Promise((done) => setTimeout(done, 100))
    if (!(await hub?.isWriter())) throw new Error('the app never took the relayer writer lock')

    const facilitator = new HTTPFacilitatorClient({ url: `${origin}/x402/facilitator` })
    const client = createPublicClient({ transport: http(chain.rpcUrl) })
    const payer = mnemonicToAccount(devnetMnemonic, { addressIndex: 2 })
    const receiver = mnemonicToAccount(devnetMnemonic, { addressIndex: 5 }).address
    const requirements: PaymentRequirements = {
      scheme: 'exact',
      network: `eip155:${chainId}`,
      asset: usdc.address,
      amount: amount.toString(),
      payTo: receiver,
      maxTimeoutSeconds: 120,
      extra: { name: usdc.signatures.name, version: usdc.signatures.version },
    }
    const scheme = new ExactEvmScheme(payer)
    const sign = async (): Promise<PaymentPayload> => {
      const { payload } = await scheme.createPaymentPayload(2, requirements)
      return { x402Version: 2, accepted: requirements, payload }
    }
    const balance = () =>
      client.readContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [receiver],
      })

    console.log(`• ${warmUps} untimed settlements, then ${timed} timed one at a time…`)
    const latencies: number[] = []
    let failed = 0
    let firstFailure = ''
    for (let index = 0; index < warmUps + timed; index++) {
      const payload = await sign()
      const started = performance.now()
      const settled = await facilitator.settle(payload, requirements).catch((error: unknown) => ({
        success: false,
        errorReason: error instanceof Error ? error.message : String(error),
      }))
      const elapsed = performance.now() - started
      if (!settled.success) {
        failed++
        firstFailure ||= settled.errorReason ?? 'no reason'
      } else if (index >= warmUps) latencies.push(elapsed)
    }

    console.log(`• ${atOnce} distinct authorizations at once, each sent twice at once…`)
    const before = await balance()
    const payloads = await Promise.all(Array.from({ length: atOnce }, sign))
    const started = performance.now()
    const answers = await Promise.all(
      payloads
        .flatMap((payload) => [payload, payload])
        .map((payload) => facilitator.settle(payload, requirements)),
    )
    const burstMs = performance.now() - started
    const settledHashes = answers
      .filter((answer) => answer.success)
      .map((answer) => answer.transaction as Hash)
    const refused = answers.filter((answer) => answer.errorReason === 'invalid_exact_evm_nonce_already_used')
    const transactions = await Promise.all(settledHashes.map((hash) => client.getTransaction({ hash })))
    const receipts = await Promise.all(settledHashes.map((hash) => client.getTransactionReceipt({ hash })))
    const transfers = receipts.map(
      (receipt) => parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' }).length,
    )
    const rose = (await balance()) - before
    const nonces = new Set(transactions.map((transaction) => transaction.nonce)).size

    printLatencyTable(
      `x402 facilitator bench (devnet chain ${chainId}, in-process app; POST /x402/facilitator/settle over HTTP)`,
      [summarizeLatencies('settle, request → mined and answered', latencies, failed)],
    )
    console.log(
      `\n${atOnce} at once (${atOnce * 2} requests) in ${(burstMs / 1000).toFixed(2)} s: ${settledHashes.length} settled, ` +
        `${refused.length} refused as a used nonce, ${nonces} distinct relayer nonces, ` +
        `${transfers.filter((count) => count === 1).length} with one Transfer; the receiver got ${rose} of ${BigInt(atOnce) * amount} units.`,
    )
    if (firstFailure) console.log(`\n! ${failed} timed settlements failed; the first: ${firstFailure}`)
    const isBurstRight =
      settledHashes.length === atOnce &&
      refused.length === atOnce &&
      nonces === atOnce &&
      transfers.every((count) => count === 1) &&
      rose === BigInt(atOnce) * amount
    if (failed > 0 || !isBurstRight) process.exitCode = 1
  } finally {
    await app?.close()
    await devnet.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

await main()
